"""Cameras and rays in NumPy: poses on a sphere around the origin, a pinhole camera's rays, the
colours and depths of a toy scene (a unit sphere coloured by its normal), shuffled ray batches."""
import numpy as np


def pose_spherical(theta, phi, radius):
    """Camera-to-world matrix (3x4) of a camera at (theta, phi) degrees and radius, looking at the origin."""
    th, ph = np.deg2rad(theta), np.deg2rad(phi)
    eye = radius * np.array([np.cos(ph) * np.sin(th), np.sin(ph), np.cos(ph) * np.cos(th)], dtype=np.float32)
    back = eye / np.linalg.norm(eye)
    right = np.cross(np.array([0.0, 1.0, 0.0], dtype=np.float32), back)
    right = right / np.linalg.norm(right)
    up = np.cross(back, right)
    return np.stack([right, up, back, eye], axis=1).astype(np.float32)


def get_rays(height, width, focal, c2w):
    i, j = np.meshgrid(np.arange(width, dtype=np.float32), np.arange(height, dtype=np.float32), indexing="xy")
    dirs = np.stack([(i - 0.5 * width) / focal, -(j - 0.5 * height) / focal, -np.ones_like(i)], axis=-1)
    rays_d = dirs @ c2w[:3, :3].T
    rays_o = np.broadcast_to(c2w[:3, 3], rays_d.shape)
    return rays_o.reshape(-1, 3).astype(np.float32), rays_d.reshape(-1, 3).astype(np.float32)


def scene(rays_o, rays_d, far):
    """Colour and depth of each ray against a unit sphere: its normal as colour, white where it misses."""
    a = np.sum(rays_d * rays_d, axis=-1)
    b = np.sum(rays_o * rays_d, axis=-1)
    c = np.sum(rays_o * rays_o, axis=-1) - 1.0
    disc = b * b - a * c
    hit = disc > 0
    t = np.where(hit, (-b - np.sqrt(np.maximum(disc, 0.0))) / a, far)
    normal = rays_o + t[:, None] * rays_d
    rgb = np.where(hit[:, None], 0.5 + 0.5 * normal, 1.0)
    return rgb.astype(np.float32), t.astype(np.float32), hit


class RayDataset:
    """Every ray of n_views images of the toy scene, flattened."""

    def __init__(self, cfg):
        size = cfg.image_size
        self.size, self.focal = size, 0.5 * size / np.tan(0.5 * np.deg2rad(50.0))
        self.poses = [pose_spherical(angle, -20.0, 4.0) for angle in np.linspace(-180, 180, cfg.n_views, endpoint=False)]
        rays = [get_rays(size, size, self.focal, pose) for pose in self.poses]
        self.rays_o = np.concatenate([o for o, _ in rays])
        self.rays_d = np.concatenate([d for _, d in rays])
        self.rgb, self.depth, self.hit = scene(self.rays_o, self.rays_d, cfg.render.far)

    def __len__(self):
        return self.rays_o.shape[0]

    def batch(self, index):
        return {"rays_o": self.rays_o[index], "rays_d": self.rays_d[index], "rgb": self.rgb[index],
                "depth": self.depth[index], "hit": self.hit[index]}

    def batches(self, rng, batch_size):
        while True:
            yield self.batch(rng.integers(0, len(self), size=batch_size))

    def view(self, i):
        n = self.size * self.size
        return self.batch(np.arange(i * n, (i + 1) * n))
