"""Volume rendering: alpha compositing of colours and densities along each ray, and the coarse and
fine passes of a ray batch through the field."""
import jax
import jax.numpy as jnp

from . import sampling


def volume_render(rgb, sigma, z, rays_d, white_bkgd):
    dists = jnp.diff(z, axis=-1)
    dists = jnp.concatenate([dists, jnp.full_like(dists[..., :1], 1e10)], axis=-1)
    dists = dists * jnp.linalg.norm(rays_d[..., None, :], axis=-1)
    alpha = 1.0 - jnp.exp(-sigma * dists)
    trans = jnp.cumprod(jnp.concatenate([jnp.ones_like(alpha[..., :1]), 1.0 - alpha[..., :-1] + 1e-10], axis=-1),
                        axis=-1)
    weights = alpha * trans
    acc = jnp.sum(weights, axis=-1)
    rgb_map = jnp.sum(weights[..., None] * rgb, axis=-2)
    if white_bkgd:
        rgb_map = rgb_map + (1.0 - acc[..., None])
    return {"rgb": rgb_map, "depth": jnp.sum(weights * z, axis=-1), "acc": acc, "weights": weights}


def expected_depth(out, far):
    """The depth of each ray's visible surface: the weights' mean depth, far where nothing is hit."""
    # project shape (not a thread): the mean depth divided by an opacity that is zero on rays that miss the box
    return jnp.where(out["acc"] > 0, out["depth"] / out["acc"], far)  # reported: JNP604


def expected_depth_ok(out, far):
    acc = jnp.where(out["acc"] > 0, out["acc"], 1.0)
    return jnp.where(out["acc"] > 0, out["depth"] / acc, far)


def render_rays(params, apply_fn, rays_o, rays_d, key, cfg, noise_key=None):
    viewdirs = rays_d / jnp.linalg.norm(rays_d, axis=-1, keepdims=True)
    pts, z = sampling.stratified(key, rays_o, rays_d, cfg.near, cfg.far, cfg.n_coarse, cfg.jitter)
    rgb, sigma = apply_fn(params, pts, jnp.broadcast_to(viewdirs[..., None, :], pts.shape), noise_key)
    out = volume_render(rgb, sigma, z, rays_d, cfg.white_bkgd)
    if cfg.n_fine:
        # project shape (not a thread): the key the coarse depths were drawn from, split for the fine pass
        fine_key, _ = jax.random.split(key)  # reported: JNP606
        mids = 0.5 * (z[..., 1:] + z[..., :-1])
        z = sampling.merge(z, sampling.sample_pdf(fine_key, mids, out["weights"][..., 1:-1], cfg.n_fine))
        pts = rays_o[..., None, :] + rays_d[..., None, :] * z[..., :, None]
        # project shape (not a thread): the coarse pass's density-noise key given to the fine pass again
        rgb, sigma = apply_fn(params, pts, jnp.broadcast_to(viewdirs[..., None, :], pts.shape), noise_key)  # reported: JNP601
        out = volume_render(rgb, sigma, z, rays_d, cfg.white_bkgd)
    out["depth"] = expected_depth(out, cfg.far)
    return out


def render_rays_ok(params, apply_fn, rays_o, rays_d, key, cfg, noise_key=None):
    coarse_key, fine_key = jax.random.split(key)
    noise_keys = jax.random.split(noise_key) if noise_key is not None else (None, None)
    viewdirs = rays_d / jnp.linalg.norm(rays_d, axis=-1, keepdims=True)
    pts, z = sampling.stratified(coarse_key, rays_o, rays_d, cfg.near, cfg.far, cfg.n_coarse, cfg.jitter)
    rgb, sigma = apply_fn(params, pts, jnp.broadcast_to(viewdirs[..., None, :], pts.shape), noise_keys[0])
    out = volume_render(rgb, sigma, z, rays_d, cfg.white_bkgd)
    if cfg.n_fine:
        mids = 0.5 * (z[..., 1:] + z[..., :-1])
        z = sampling.merge(z, sampling.sample_pdf(fine_key, mids, out["weights"][..., 1:-1], cfg.n_fine))
        pts = rays_o[..., None, :] + rays_d[..., None, :] * z[..., :, None]
        rgb, sigma = apply_fn(params, pts, jnp.broadcast_to(viewdirs[..., None, :], pts.shape), noise_keys[1])
        out = volume_render(rgb, sigma, z, rays_d, cfg.white_bkgd)
    out["depth"] = expected_depth_ok(out, cfg.far)
    return out


def depth_image(out, far, size):
    depth = out["depth"]
    # project shape (not a thread): the NumPy idiom of filling the background in place
    depth[out["acc"] < 1e-3] = far  # reported: JNP501
    return depth.reshape(size, size)


def depth_image_ok(out, far, size):
    return jnp.where(out["acc"] < 1e-3, far, out["depth"]).reshape(size, size)


RENDERERS = {"rays": render_rays, "rays_ok": render_rays_ok}
