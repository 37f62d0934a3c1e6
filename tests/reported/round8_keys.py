"""Eighth round, held out: one PRNG key drawn from twice, or passed unchanged to every step of a
sampler (JNP601, JNP606)."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.scipy.stats import norm


def gaussian_logpdf(x):
    return jnp.sum(norm.logpdf(x), axis=0)


# https://github.com/rlouf/blog-benchmark-rwmetropolis/pull/1
# The random-walk Metropolis kernel of a benchmark draws the move proposals and the acceptance
# uniforms from the same key, so the two are not independent.
@partial(jax.jit, static_argnums=(1,))
def rw_metropolis_kernel(rng_key, logpdf, position, log_prob):
    move_proposals = jax.random.normal(rng_key, shape=position.shape) * 0.1
    proposal = position + move_proposals
    proposal_log_prob = logpdf(proposal)

    log_uniform = jnp.log(jax.random.uniform(rng_key, shape=position.shape))  # reported: JNP601
    do_accept = log_uniform < proposal_log_prob - log_prob

    position = jnp.where(do_accept, proposal, position)
    log_prob = jnp.where(do_accept, proposal_log_prob, log_prob)
    return position, log_prob


def case_kernel_draws_twice_from_one_key():
    position = jnp.zeros((4,))
    return rw_metropolis_kernel(jax.random.PRNGKey(42), gaussian_logpdf, position, gaussian_logpdf(position))


@partial(jax.jit, static_argnums=(1,))
def rw_metropolis_kernel_split(rng_key, logpdf, position, log_prob):
    move_key, uniform_key = jax.random.split(rng_key)
    move_proposals = jax.random.normal(move_key, shape=position.shape) * 0.1
    proposal = position + move_proposals
    proposal_log_prob = logpdf(proposal)

    log_uniform = jnp.log(jax.random.uniform(uniform_key, shape=position.shape))
    do_accept = log_uniform < proposal_log_prob - log_prob

    position = jnp.where(do_accept, proposal, position)
    log_prob = jnp.where(do_accept, proposal_log_prob, log_prob)
    return position, log_prob


def case_ok_kernel_splits_the_key():
    position = jnp.zeros((4,))
    return rw_metropolis_kernel_split(jax.random.PRNGKey(42), gaussian_logpdf, position, gaussian_logpdf(position))


# https://github.com/rlouf/blog-benchmark-rwmetropolis/pull/1
# The sampler of the same benchmark passes its one key to every step of the chain, so every step
# proposes the same move.
def rw_metropolis_sampler(rng_key, logpdf, initial_position, n_samples=5):
    position = initial_position
    log_prob = logpdf(initial_position)
    samples = [position]
    while len(samples) < n_samples:
        position, log_prob = rw_metropolis_kernel_split(rng_key, logpdf, position, log_prob)  # reported: JNP601
        samples.append(position)
    return samples


def case_sampler_reuses_its_key_every_step():
    return rw_metropolis_sampler(jax.random.PRNGKey(42), gaussian_logpdf, jnp.zeros((4,)))


def rw_metropolis_sampler_split(rng_key, logpdf, initial_position, n_samples=5):
    position = initial_position
    log_prob = logpdf(initial_position)
    samples = [position]
    while len(samples) < n_samples:
        rng_key, step_key = jax.random.split(rng_key)
        position, log_prob = rw_metropolis_kernel_split(step_key, logpdf, position, log_prob)
        samples.append(position)
    return samples


def case_ok_sampler_splits_every_step():
    return rw_metropolis_sampler_split(jax.random.PRNGKey(42), gaussian_logpdf, jnp.zeros((4,)))


# https://github.com/aesara-devs/aesara/issues/1344
# Aesara's JAX linker samples a random variable with the stored key and only then splits that key
# to get the next state: the sample and the next key come from the same key.
def sample_fn(rng, size, *parameters):
    rng_key = rng["jax_state"]
    sample = jax.random.normal(rng_key, shape=size) * parameters[1] + parameters[0]
    rng["jax_state"] = jax.random.split(rng_key, num=1)[0]  # reported: JNP606
    return rng, sample


def case_key_drawn_then_split():
    return sample_fn({"jax_state": jax.random.PRNGKey(0)}, (3,), 0.0, 1.0)


def sample_fn_split_first(rng, size, *parameters):
    rng_key = rng["jax_state"]
    rng_key, sample_key = jax.random.split(rng_key, 2)
    sample = jax.random.normal(sample_key, shape=size) * parameters[1] + parameters[0]
    rng["jax_state"] = rng_key
    return rng, sample


def case_ok_key_split_before_drawing():
    return sample_fn_split_first({"jax_state": jax.random.PRNGKey(0)}, (3,), 0.0, 1.0)
