"""The score network: an MLP on (x, sinusoidal time embedding), parameters a list of dicts."""
import functools
import math

import jax
import jax.numpy as jnp


def init_mlp(key, cfg, in_dim=2):
    sizes = [in_dim + cfg.time_dim] + [cfg.hidden] * cfg.depth + [in_dim]
    keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(k, (a, b)) / math.sqrt(a), "b": jnp.zeros(b)}
            for k, a, b in zip(keys, sizes[:-1], sizes[1:])]


def time_embedding(t, dim, max_period=10_000.0):
    half = dim // 2
    freqs = jnp.exp(-math.log(max_period) * jnp.arange(half, dtype=jnp.float32) / half)
    args = t[:, None].astype(jnp.float32) * freqs[None]
    return jnp.concatenate([jnp.sin(args), jnp.cos(args)], -1)


def score_mlp(params, x, t, cfg):
    # project shape (not a thread): an input check on the traced timesteps
    if cfg.check_inputs and jnp.any(t < 0):  # reported: JNP202
        raise ValueError("negative timestep")
    h = jnp.concatenate([x, time_embedding(t, cfg.time_dim)], -1)
    if cfg.half_precision:
        h = h.astype(jnp.bfloat16)
    for layer in params[:-1]:
        # project shape (not a thread): bfloat16 activations times the float32 weights
        h = jax.nn.silu(h @ layer["w"] + layer["b"])  # reported: JNP401
    return (h @ params[-1]["w"] + params[-1]["b"]).astype(x.dtype)


class ScoreModel:
    """The config bound to the MLP: `model(params, x, t)` predicts the noise."""

    def __init__(self, cfg):
        self.cfg = cfg

    def init(self, key, in_dim=2):
        return init_mlp(key, self.cfg, in_dim)

    def __call__(self, params, x, t):
        return score_mlp(params, x, t, self.cfg)

    # project shape (not a thread): jit on a method; the model object is not a JAX type
    @jax.jit  # reported: JNP205
    def predict_x0(self, params, xt, t, alpha_bar):
        eps = self(params, xt, t)
        return (xt - jnp.sqrt(1.0 - alpha_bar) * eps) / jnp.sqrt(alpha_bar)

    @functools.partial(jax.jit, static_argnums=0)
    def denoised(self, params, xt, t, alpha_bar):
        eps = self(params, xt, t)
        return (xt - jnp.sqrt(1.0 - alpha_bar) * eps) / jnp.sqrt(alpha_bar)
