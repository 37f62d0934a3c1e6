"""Where along each ray to query the field: stratified depths between near and far, and hierarchical
depths drawn from the coarse pass's weights."""
import jax
import jax.numpy as jnp
import numpy as np


def stratified(key, rays_o, rays_d, near, far, n_samples, jitter="key"):
    t = jnp.linspace(0.0, 1.0, n_samples)
    z = jnp.broadcast_to(near * (1.0 - t) + far * t, rays_o.shape[:-1] + (n_samples,))
    if jitter != "none":
        mids = 0.5 * (z[..., 1:] + z[..., :-1])
        upper = jnp.concatenate([mids, z[..., -1:]], axis=-1)
        lower = jnp.concatenate([z[..., :1], mids], axis=-1)
        if jitter == "numpy":
            # project shape (not a thread): the NumPy port's jitter, drawn once while the renderer is traced
            u = np.random.uniform(size=z.shape).astype(np.float32)  # reported: JNP305
        else:
            u = jax.random.uniform(key, z.shape)
        z = lower + (upper - lower) * u
    return rays_o[..., None, :] + rays_d[..., None, :] * z[..., :, None], z


def sample_pdf(key, bins, weights, n_samples):
    """Depths drawn by inverse transform from the piecewise-constant density of weights over bins."""
    weights = weights + 1e-5
    cdf = jnp.cumsum(weights / jnp.sum(weights, axis=-1, keepdims=True), axis=-1)
    cdf = jnp.concatenate([jnp.zeros_like(cdf[..., :1]), cdf], axis=-1)
    u = jax.random.uniform(key, cdf.shape[:-1] + (n_samples,))
    idx = jax.vmap(lambda c, v: jnp.searchsorted(c, v, side="right"))(
        cdf.reshape(-1, cdf.shape[-1]), u.reshape(-1, n_samples)).reshape(u.shape)
    below, above = jnp.maximum(0, idx - 1), jnp.minimum(cdf.shape[-1] - 1, idx)
    cdf_b, cdf_a = jnp.take_along_axis(cdf, below, -1), jnp.take_along_axis(cdf, above, -1)
    bins_b, bins_a = jnp.take_along_axis(bins, below, -1), jnp.take_along_axis(bins, above, -1)
    denom = jnp.where(cdf_a - cdf_b < 1e-5, 1.0, cdf_a - cdf_b)
    return jax.lax.stop_gradient(bins_b + (u - cdf_b) / denom * (bins_a - bins_b))


def merge(z_coarse, z_fine):
    return jnp.sort(jnp.concatenate([z_coarse, z_fine], axis=-1), axis=-1)
