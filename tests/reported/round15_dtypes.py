"""Fifteenth round, held out: a weighted covariance that converts its samples with
dtype=jnp.float64 while x64 is off, so JAX warns on every call and computes in float32 (JNP402)."""
import jax.numpy as jnp


# https://github.com/jax-ml/jax/pull/1250
# np.cov converted its input with an explicit float64 dtype; in the default 32-bit mode every call
# warned that float64 is not available (the PR casts to the canonical dtype instead).
def weighted_cov(samples, weights):
    x = jnp.asarray(samples, dtype=jnp.float64)  # reported: JNP402
    w = weights / weights.sum()
    centred = x - w @ x
    return (centred * w[:, None]).T @ centred


def case_covariance_converted_to_float64():
    samples = jnp.arange(12.0).reshape(4, 3)
    return weighted_cov(samples, jnp.ones(4))


def weighted_cov_default(samples, weights):
    x = jnp.asarray(samples, dtype=float)
    w = weights / weights.sum()
    centred = x - w @ x
    return (centred * w[:, None]).T @ centred


def case_ok_covariance_in_the_default_float():
    samples = jnp.arange(12.0).reshape(4, 3)
    return weighted_cov_default(samples, jnp.ones(4))
