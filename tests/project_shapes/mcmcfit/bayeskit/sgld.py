"""Stochastic-gradient Langevin dynamics on minibatches, with a module-level jitted step."""
import functools

import jax
import jax.numpy as jnp

from .models import LIKELIHOODS, log_prior


def _sgld_step(theta, key, x, y, step_size, n_data, likelihood="logistic"):
    log_lik = LIKELIHOODS[likelihood]

    def minibatch_log_density(theta):
        return log_prior(theta) + n_data / x.shape[0] * log_lik(theta, x, y)

    grad = jax.grad(minibatch_log_density)(theta)
    noise = jax.random.normal(key, theta.shape)
    return theta + 0.5 * step_size * grad + jnp.sqrt(step_size) * noise


sgld_step = jax.jit(_sgld_step, static_argnames=("n_data", "likelihood"))


@functools.partial(jax.jit, static_argnames=("n_data",))
def sgld_chain(theta, keys, x, y, step_size, n_data):
    def body(theta, key):
        theta = _sgld_step(theta, key, x, y, step_size, n_data)
        return theta, theta

    return jax.lax.scan(body, theta, keys)
