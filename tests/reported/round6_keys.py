"""Sixth round, held out: one key consumed by two samplers (JNP601)."""
import jax
import jax.numpy as jnp


# https://github.com/thomaspinder/GPJax/pull/191
# A regression example draws the inputs and the observation noise from the same key, and sorts the
# inputs to hide how alike the two draws are.
def case_inputs_and_noise_from_one_key():
    key = jax.random.PRNGKey(123)
    x = jnp.sort(jax.random.uniform(key, shape=(20, 1), minval=-3.0, maxval=3.0), axis=0)
    noise = jax.random.normal(key, shape=x.shape) * 0.3  # reported: JNP601
    return x, jnp.sin(4 * x) + noise


def case_ok_inputs_and_noise_from_split_keys():
    key = jax.random.PRNGKey(123)
    x_key, noise_key = jax.random.split(key)
    x = jnp.sort(jax.random.uniform(x_key, shape=(20, 1), minval=-3.0, maxval=3.0), axis=0)
    noise = jax.random.normal(noise_key, shape=x.shape) * 0.3
    return x, jnp.sin(4 * x) + noise
