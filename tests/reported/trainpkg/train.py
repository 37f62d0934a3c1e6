"""The loops that drive models.py with data from data.py."""
import time

import jax
import jax.numpy as jnp

from trainpkg import data, models


# https://github.com/markean/aimz/issues/267
# A host-backed posterior (NumPy, from the data helper) given to the jitted predictor for every batch.
def case_host_posterior_uploaded_every_batch():
    posterior = data.load_posterior()
    outputs = []
    for i in range(50):
        outputs.append(models.predict(posterior, jnp.full(4, float(i))))  # reported: JNP104
    return outputs


def case_ok_posterior_placed_once():
    posterior = jax.device_put(data.load_posterior())
    outputs = []
    for i in range(50):
        outputs.append(models.predict(posterior, jnp.full(4, float(i))))
    return outputs


# https://github.com/jax-md/jax-md/issues/161 (the stale read is in models.energy)
def case_neighbor_list_rebound_between_calls():
    positions = jnp.asarray(data.initial_positions())
    energies = []
    for _ in range(10):
        models.NEIGHBORS = models.update_neighbors(positions)
        energies.append(models.energy(positions))
        positions = positions * 0.9
    return energies


def case_ok_neighbor_list_passed_in():
    positions = jnp.asarray(data.initial_positions())
    energies = []
    for _ in range(10):
        neighbors = models.update_neighbors(positions)
        energies.append(models.energy_with(neighbors, positions))
        positions = positions * 0.9
    return energies


# https://github.com/gdsfactory/klujax/issues/34 (the int() is in models.analyze)
def case_newton_step_reaches_int():
    step = jax.jit(lambda x: x - 0.1 * models.physics(x))
    return step(jnp.ones(3))


def case_ok_analysis_done_before_jit():
    n = models.analyze(jnp.ones(3))
    step = jax.jit(lambda x: x - 0.1 * models.physics_with(x, n))
    return step(jnp.ones(3))


# https://github.com/jax-ml/jax/issues/2515 (the jit is rebuilt inside models.likelihood_grad)
def case_likelihood_gradient_recompiled_every_call():
    w = jnp.asarray(data.load_posterior()) * 5.0 + 100.0
    grads = []
    for s, m in zip(jnp.linspace(4.5, 5.5, 10), jnp.linspace(95.0, 105.0, 10)):
        grads.append(models.likelihood_grad((s, m), w))
    return grads


def case_ok_likelihood_gradient_compiled_once():
    w = jnp.asarray(data.load_posterior()) * 5.0 + 100.0
    grads = []
    for s, m in zip(jnp.linspace(4.5, 5.5, 10), jnp.linspace(95.0, 105.0, 10)):
        grads.append(models.likelihood_grad_fast((s, m), w))
    return grads


# https://github.com/gbionics/jaxsim/pull/344
# A benchmark of the jitted rollout that stops the clock before the rollout has run.
def case_benchmark_without_block():
    state = jnp.ones((500, 500)) / 500
    models.rollout(state).block_until_ready()
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        out = models.rollout(state)
        timings.append(time.perf_counter() - start)  # reported: JNP603
    return timings, out


def case_ok_benchmark_blocked():
    state = jnp.ones((500, 500)) / 500
    models.rollout(state).block_until_ready()
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        out = jax.block_until_ready(models.rollout(state))
        timings.append(time.perf_counter() - start)
    return timings, out
