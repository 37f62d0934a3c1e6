"""Regret and calibration of the surrogate."""
import jax
import jax.numpy as jnp


def simple_regret(values, optimum):
    """values: the objective values observed so far."""
    # project shape (not a thread): the minimum of a Python list of observed values
    return jnp.min(values) - optimum  # reported: JNP505


def simple_regret_ok(values, optimum):
    return jnp.min(jnp.asarray(values)) - optimum


@jax.jit
def calibration(mu, var, y):
    """Negative log predictive density and the coverage of the 95% interval."""
    z = (y - mu) / jnp.sqrt(var)
    nlpd = 0.5 * jnp.mean(z ** 2 + jnp.log(2 * jnp.pi * var))
    return {"nlpd": nlpd, "coverage": jnp.mean(jnp.abs(z) < 1.96)}
