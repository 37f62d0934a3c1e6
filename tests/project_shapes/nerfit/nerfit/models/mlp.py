"""The radiance field: a Flax Linen MLP from encoded points and view directions to colour and density,
with density noise (annealed by the training script) and zero density outside the scene's box."""
import flax.linen as nn
import jax
import jax.numpy as jnp

from ..config import ModelConfig
from ..encoding import ENCODINGS

SIGMA_NOISE = 0.0


def set_sigma_noise(std):
    global SIGMA_NOISE
    SIGMA_NOISE = std


class NeRFMLP(nn.Module):
    cfg: ModelConfig
    encoding: str = "nerf"

    @nn.compact
    def __call__(self, pts, viewdirs, key=None):
        cfg, encode = self.cfg, ENCODINGS[self.encoding]
        x = encode(pts, cfg.pos_freqs, cfg.dtype)
        d = encode(viewdirs, cfg.dir_freqs, cfg.dtype)
        for _ in range(cfg.depth):
            x = nn.relu(nn.Dense(cfg.width, dtype=cfg.dtype)(x))
        raw_sigma = nn.Dense(1, dtype=jnp.float32)(x)[..., 0]
        if key is not None:
            # project shape (not a thread): the annealed noise scale, a module global read when the step is traced
            raw_sigma = raw_sigma + SIGMA_NOISE * jax.random.normal(key, raw_sigma.shape)  # reported: JNP304
        feat = nn.Dense(cfg.width, dtype=cfg.dtype)(x)
        rgb = nn.sigmoid(nn.Dense(3, dtype=jnp.float32)(jnp.concatenate([feat, d.astype(feat.dtype)], axis=-1)))
        inside = jnp.all(jnp.abs(pts) < cfg.box, axis=-1)
        return rgb, nn.relu(raw_sigma) * inside.astype(raw_sigma.dtype)
