"""Fourth round, held out: PRNG keys used twice (JNP601, JNP606)."""
import jax.numpy as jnp
from jax import random


# https://github.com/p-doom/jasmine/pull/214
# Noise for exposure bias: the noise level and the noise itself drawn from one subkey.
def add_noise(latents, rng, max_noise_level=0.5):
    rng, rng_noise = random.split(rng)
    noise_level = random.uniform(rng_noise, (latents.shape[0],), maxval=max_noise_level)
    noise = random.normal(rng_noise, latents.shape)  # reported: JNP601
    return latents + noise_level[:, None] * noise, rng


def case_level_and_noise_from_one_subkey():
    return add_noise(jnp.zeros((2, 3)), random.key(0))


def add_noise_split(latents, rng, max_noise_level=0.5):
    rng, rng_level, rng_noise = random.split(rng, 3)
    noise_level = random.uniform(rng_level, (latents.shape[0],), maxval=max_noise_level)
    noise = random.normal(rng_noise, latents.shape)
    return latents + noise_level[:, None] * noise, rng


def case_ok_level_and_noise_from_two_subkeys():
    return add_noise_split(jnp.zeros((2, 3)), random.key(0))


# https://github.com/jax-ml/jax/pull/181
# A variational-inference loop keeps the half of split() it hands to the update, which draws
# from it, and splits that same key again on the next iteration: a draw from a key and then a
# split of it, JNP606's pitfall by the catalogue (as get_batch_new_key below, within one call).
def elbo_update(t, params, rng):
    samples = params + random.normal(rng, (4,) + params.shape)
    return params - 0.01 * jnp.mean(samples, axis=0) / (t + 1)


def case_update_key_split_again_next_iteration():
    rng = random.PRNGKey(0)
    params = jnp.zeros(2)
    for t in range(3):
        old, rng = random.split(rng)  # reported: JNP606
        params = elbo_update(t, params, rng)
    return params


def case_ok_update_gets_the_unused_half():
    rng = random.PRNGKey(0)
    params = jnp.zeros(2)
    for t in range(3):
        rng, step_rng = random.split(rng)
        params = elbo_update(t, params, step_rng)
    return params


# https://github.com/thomaspinder/GPJax/pull/99
# A minibatch helper draws indices from its key, then splits that key for the next batch.
def get_batch_new_key(x, batch_size, key):
    indices = random.choice(key, x.shape[0], (batch_size,), replace=True)
    _, new_key = random.split(key)  # reported: JNP606
    return x[indices], new_key


def case_indices_drawn_then_key_split():
    return get_batch_new_key(jnp.arange(10.0), 4, random.key(0))


def get_batch_split_first(x, batch_size, key):
    key, new_key = random.split(key)
    indices = random.choice(key, x.shape[0], (batch_size,), replace=True)
    return x[indices], new_key


def case_ok_key_split_before_the_draw():
    return get_batch_split_first(jnp.arange(10.0), 4, random.key(0))
