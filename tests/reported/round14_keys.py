"""Fourteenth round, held out: a cookbook that simulates a trace and then updates it with the key
it simulated with, and an impedance-fitting loop that runs the Bayesian inference of every
candidate circuit from the same key (JNP601)."""
from functools import partial

import jax
import jax.numpy as jnp


def simulate(key, mean, scale):
    """Draws the latent of a normal model: the trace is the latent and its log density."""
    x = mean + scale * jax.random.normal(key, mean.shape)
    return x, jnp.sum(-0.5 * ((x - mean) / scale) ** 2)


def update(key, trace, observed, mean, scale, step_size=0.5):
    """Moves the latent by a random-walk step and weighs the move by the observation."""
    x, log_prior = trace
    proposal = x + step_size * jax.random.normal(key, x.shape)
    new_log_prior = jnp.sum(-0.5 * ((proposal - mean) / scale) ** 2)
    log_weight = new_log_prior - log_prior + jnp.sum(-0.5 * (observed - proposal) ** 2 + 0.5 * (observed - x) ** 2)
    return (proposal, new_log_prior), log_weight


# https://github.com/genjax-community/genjax/issues/1249
# The cookbook's update example simulates a trace with a key and then updates it with the same
# key, so the move draws the very noise the trace was simulated from.
def case_update_with_the_key_that_simulated():
    key = jax.random.PRNGKey(314159)
    mean, scale = jnp.zeros(3), jnp.ones(3)
    trace = simulate(key, mean, scale)
    return update(key, trace, jnp.ones(3), mean, scale)  # reported: JNP601


def case_ok_update_with_a_fresh_key():
    key = jax.random.PRNGKey(314159)
    key, simulate_key, update_key = jax.random.split(key, 3)
    mean, scale = jnp.zeros(3), jnp.ones(3)
    trace = simulate(simulate_key, mean, scale)
    return update(update_key, trace, jnp.ones(3), mean, scale)


def circuit_impedance(params, freq):
    resistance, capacitance = params[0], params[1]
    return resistance / (1 + 2j * jnp.pi * freq * resistance * capacitance)


@partial(jax.jit, static_argnames=("num_samples",))
def run_inference(rng_key, freq, z_measured, initial, num_samples=200, step_size=0.05):
    """Random-walk Metropolis over a circuit's parameters given the measured impedance, compiled
    once as the library's sampler is."""

    def log_posterior(params):
        residual = circuit_impedance(params, freq) - z_measured
        return -jnp.sum(jnp.abs(residual) ** 2) - jnp.sum(params**2) * 1e-3

    def step(carry, key):
        params, log_p = carry
        key_move, key_accept = jax.random.split(key)
        proposal = params + step_size * jax.random.normal(key_move, params.shape)
        log_q = log_posterior(proposal)
        accept = jnp.log(jax.random.uniform(key_accept)) < log_q - log_p
        params = jnp.where(accept, proposal, params)
        log_p = jnp.where(accept, log_q, log_p)
        return (params, log_p), params

    keys = jax.random.split(rng_key, num_samples)
    _, samples = jax.lax.scan(step, (initial, log_posterior(initial)), keys)
    return samples


# https://github.com/AUTODIAL/AutoEIS/issues/46
# Every candidate circuit's inference is run with the same rng_key, so all chains share one stream
# of random numbers instead of independent ones.
def case_every_circuit_inferred_from_the_same_key():
    freq = jnp.logspace(0, 4, 16)
    z_measured = circuit_impedance(jnp.array([100.0, 1e-5]), freq)
    rng_key = jax.random.PRNGKey(0)
    results = {}
    for name, initial in {"R-C": jnp.array([80.0, 2e-5]), "R-CPE": jnp.array([120.0, 5e-6])}.items():
        results[name] = run_inference(rng_key, freq, z_measured, initial)  # reported: JNP601
    return results


def case_ok_every_circuit_inferred_from_its_own_key():
    freq = jnp.logspace(0, 4, 16)
    z_measured = circuit_impedance(jnp.array([100.0, 1e-5]), freq)
    rng_key = jax.random.PRNGKey(0)
    results = {}
    for name, initial in {"R-C": jnp.array([80.0, 2e-5]), "R-CPE": jnp.array([120.0, 5e-6])}.items():
        rng_key, subkey = jax.random.split(rng_key)
        results[name] = run_inference(subkey, freq, z_measured, initial)
    return results
