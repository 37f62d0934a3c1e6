"""Negative samplers looked up by name: (key, users, log_pop, n_neg) -> (batch, n_neg) item ids."""
import jax
import jax.numpy as jnp
import numpy as np


def log_popularity(pop, smoothing=1.0):
    """The log of smoothed item counts, the padding item excluded."""
    # project shape (not a thread): double precision asked for the counts while x64 is off
    counts = jnp.asarray(pop, dtype=jnp.float64) + smoothing  # reported: JNP402
    return jnp.log(counts).at[0].set(-jnp.inf)


def log_popularity_ok(pop, smoothing=1.0):
    counts = jnp.asarray(pop, dtype=jnp.float32) + smoothing
    return jnp.log(counts).at[0].set(-jnp.inf)


def uniform(key, users, log_pop, n_neg):
    return jax.random.randint(key, (users.shape[0], n_neg), 1, log_pop.shape[0])


def popularity(key, users, log_pop, n_neg):
    return jax.random.categorical(key, 0.75 * log_pop, shape=(users.shape[0], n_neg))


def mixed(key, users, log_pop, n_neg):
    """Half the negatives uniform, half by popularity."""
    half = n_neg // 2
    uni = jax.random.randint(key, (users.shape[0], half), 1, log_pop.shape[0])
    # project shape (not a thread): the popularity half drawn from the key the uniform half used
    pop = jax.random.categorical(key, 0.75 * log_pop, shape=(users.shape[0], n_neg - half))  # reported: JNP601
    return jnp.concatenate([uni, pop], axis=1)


def mixed_ok(key, users, log_pop, n_neg):
    half = n_neg // 2
    k_uni, k_pop = jax.random.split(key)
    uni = jax.random.randint(k_uni, (users.shape[0], half), 1, log_pop.shape[0])
    pop = jax.random.categorical(k_pop, 0.75 * log_pop, shape=(users.shape[0], n_neg - half))
    return jnp.concatenate([uni, pop], axis=1)


def host(key, users, log_pop, n_neg):
    """The NumPy sampler of the first prototype, kept for comparisons."""
    # project shape (not a thread): host randomness in a sampler the jitted step calls
    return jnp.asarray(np.random.randint(1, log_pop.shape[0], size=(users.shape[0], n_neg)))  # reported: JNP305


SAMPLERS = {"uniform": uniform, "popularity": popularity, "mixed": mixed, "mixed_ok": mixed_ok, "host": host}
