"""Fifth round, held out: host reads in a loop and timing without waiting (JNP101, JNP603)."""
import time

import jax
import jax.numpy as jnp


def _svi_body(state, batch):
    loss = jnp.mean((state - batch) ** 2)
    return state - 0.01 * (state - batch), loss


# https://github.com/pyro-ppl/numpyro/pull/2247
# The progress-bar loop of an SVI run fetches every step's loss with jax.device_get. It also wraps
# the same step function in jax.jit on every iteration, which JAX's cache absorbs (one trace, checked
# with plain JAX): only the device_get is a pitfall.
def case_svi_progress_loop_reads_every_loss():
    state, batch = jnp.zeros(3), jnp.ones(3)
    losses = []
    for _ in range(20):
        state, loss = jax.jit(_svi_body)(state, batch)
        losses.append(jax.device_get(loss))  # reported: JNP101
    return losses


def case_ok_svi_progress_loop_fetches_once():
    state, batch = jnp.zeros(3), jnp.ones(3)
    body = jax.jit(_svi_body)
    losses = []
    for _ in range(20):
        state, loss = body(state, batch)
        losses.append(loss)
    return jax.device_get(losses)


@jax.jit
def bellman_operator(v, rewards):
    return jnp.max(rewards + 0.95 * v[None, :], axis=1)


# https://github.com/QuantEcon/lecture-jax/issues/163
# A lecture times value function iteration without waiting for the device.
def case_lecture_timing_without_wait():
    v, rewards = jnp.zeros(200), jnp.ones((200, 200))
    bellman_operator(v, rewards)
    start = time.time()
    v = bellman_operator(v, rewards)
    elapsed = time.time() - start  # reported: JNP603
    return v, elapsed


# https://github.com/QuantEcon/lecture-jax/issues/217
# The proposed timing fetches the result with jax.device_get before stopping the clock.
def case_ok_lecture_timing_with_device_get():
    v, rewards = jnp.zeros(200), jnp.ones((200, 200))
    bellman_operator(v, rewards)
    start = time.time()
    v = jax.device_get(bellman_operator(v, rewards))
    elapsed = time.time() - start
    return v, elapsed


@jax.jit
def sample_and_update(params, samples):
    energies = jnp.sum(jnp.cos(samples @ params), axis=-1)
    return params - 0.01 * jnp.mean(energies), energies


# https://github.com/netket/netket/pull/1958
# A driver's timeit option times each sub-step around calls that only dispatch.
def case_driver_timeit_around_dispatch():
    params, samples = jnp.ones((4, 4)), jnp.ones((32, 4))
    timings = {}
    for _ in range(3):
        start = time.perf_counter()
        params, energies = sample_and_update(params, samples)
        timings["sample_and_update"] = time.perf_counter() - start  # reported: JNP603
    return params, timings


def case_ok_driver_timeit_blocks():
    params, samples = jnp.ones((4, 4)), jnp.ones((32, 4))
    timings = {}
    for _ in range(3):
        start = time.perf_counter()
        params, energies = jax.block_until_ready(sample_and_update(params, samples))
        timings["sample_and_update"] = time.perf_counter() - start
    return params, timings
