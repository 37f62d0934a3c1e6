"""Positional encoding: sines and cosines of the inputs at octave frequencies."""
import jax.numpy as jnp


def positional_encoding(x, num_freqs, dtype=jnp.float32):
    freqs = 2.0 ** jnp.arange(num_freqs, dtype=jnp.float32)
    # project shape (not a thread): the inputs cast to the config's bfloat16, times float32 frequencies
    scaled = x.astype(dtype)[..., None] * freqs  # reported: JNP401
    scaled = scaled.reshape(*x.shape[:-1], -1)
    return jnp.concatenate([x.astype(scaled.dtype), jnp.sin(scaled), jnp.cos(scaled)], axis=-1)


def positional_encoding_ok(x, num_freqs, dtype=jnp.float32):
    freqs = 2.0 ** jnp.arange(num_freqs, dtype=dtype)
    scaled = (x.astype(dtype)[..., None] * freqs).reshape(*x.shape[:-1], -1)
    return jnp.concatenate([x.astype(dtype), jnp.sin(scaled), jnp.cos(scaled)], axis=-1)


ENCODINGS = {"nerf": positional_encoding, "nerf_ok": positional_encoding_ok}
