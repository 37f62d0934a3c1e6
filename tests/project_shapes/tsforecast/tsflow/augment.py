"""Augmentations of a batch of windows, jitted on their own."""
import jax
import jax.numpy as jnp
import numpy as np

from .keys import KeyStream

NOISE_SCALE = 0.05
_STREAM = KeyStream(1234)


def set_noise_scale(value):
    global NOISE_SCALE
    NOISE_SCALE = value


@jax.jit
def jitter(x):
    return x + 0.05 * jax.random.normal(_STREAM(), x.shape)


@jax.jit
def jitter_with(x, key):
    return x + 0.05 * jax.random.normal(key, x.shape)


@jax.jit
def scale_jitter(x, key):
    # project shape (not a thread): NOISE_SCALE is changed by set_noise_scale after the first call
    factor = 1.0 + NOISE_SCALE * jax.random.normal(key, (x.shape[0], 1))  # reported: JNP304
    return x * factor


@jax.jit
def scale_jitter_by(x, key, noise_scale):
    factor = 1.0 + noise_scale * jax.random.normal(key, (x.shape[0], 1))
    return x * factor


@jax.jit
def drop_days(x):
    # project shape (not a thread): NumPy's generator runs once while jit traces
    keep = np.random.rand(*x.shape) > 0.1  # reported: JNP305
    return jnp.where(keep, x, 0.0)


@jax.jit
def drop_days_with(x, key):
    keep = jax.random.uniform(key, x.shape) > 0.1
    return jnp.where(keep, x, 0.0)
