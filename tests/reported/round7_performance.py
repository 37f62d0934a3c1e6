"""Seventh round, held out: clocks read before the device finished, shapes that change on every
call and device values tested in host loops (JNP102, JNP602, JNP603)."""
import time

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/issues/587
# Comparing a function with its jitted version, the user stops the clock as soon as the jitted call
# returns, which is when the work was queued, not when it finished.
def shifted_mean(x):
    return jnp.mean(x - jnp.ones(10000))


def case_jitted_call_timed_without_waiting():
    x = jnp.array(0.0)
    jf = jax.jit(shifted_mean)
    jf(x)
    t = time.time()
    jf(x)
    elapsed = time.time() - t  # reported: JNP603
    return elapsed


def case_ok_jitted_call_timed_after_waiting():
    x = jnp.array(0.0)
    jf = jax.jit(shifted_mean)
    jf(x).block_until_ready()
    t = time.time()
    jf(x).block_until_ready()
    elapsed = time.time() - t
    return elapsed


# https://github.com/jax-ml/jax-md/issues/126
# Benchmarking a Lennard-Jones energy for growing systems: one warm-up call for the compilation,
# then each run timed with time.monotonic around the call alone.
def lennard_jones_energy(positions):
    dr = positions[:, None, :] - positions[None, :, :]
    r2 = jnp.sum(dr ** 2, axis=-1) + jnp.eye(positions.shape[0])
    inv6 = (1.0 / r2) ** 3
    return 0.5 * jnp.sum(4.0 * (inv6 ** 2 - inv6) * (1.0 - jnp.eye(positions.shape[0])))


def case_energy_runs_timed_with_monotonic():
    energy_fn = jax.jit(lennard_jones_energy)
    positions = jnp.arange(30.0).reshape(10, 3)
    energy_fn(positions)
    runtimes = []
    for _ in range(5):
        start = time.monotonic()
        energy_fn(positions)
        runtimes.append(time.monotonic() - start)  # reported: JNP603
    return runtimes


def case_ok_energy_runs_timed_after_blocking():
    energy_fn = jax.jit(lennard_jones_energy)
    positions = jnp.arange(30.0).reshape(10, 3)
    energy_fn(positions).block_until_ready()
    runtimes = []
    for _ in range(5):
        start = time.monotonic()
        energy_fn(positions).block_until_ready()
        runtimes.append(time.monotonic() - start)
    return runtimes


# https://github.com/jax-ml/jax/issues/2072
# A jitted f is applied in a loop to inputs whose second dimension shrinks by one on every
# iteration; each new shape is compiled again and the compilation cache keeps growing.
def mean_product(x, y):
    return jnp.mean(x.T @ y)


def case_jitted_call_with_shrinking_shapes():
    f_jit = jax.jit(mean_product)
    results = []
    for i in range(6, 2, -1):
        x = jax.random.normal(jax.random.PRNGKey(i), (50, i))
        y = jax.random.normal(jax.random.PRNGKey(i + 100), (50, i))
        results.append(f_jit(x, y))  # reported: JNP602
    return results


def case_ok_jitted_call_with_one_shape():
    f_jit = jax.jit(mean_product)
    results = []
    for i in range(6, 2, -1):
        x = jax.random.normal(jax.random.PRNGKey(i), (50, 6))
        y = jax.random.normal(jax.random.PRNGKey(i + 100), (50, 6))
        results.append(f_jit(x, y))
    return results


# https://github.com/dunnolab/xland-minigrid/issues/17
# Rolling out eight vectorised environments for ten steps, the user reads the clock right after the
# loop; the steps are still running, and the two key splits made from one rng give the same keys.
def env_reset(key):
    return jax.random.uniform(key, (300, 300))


def env_step(state, action):
    return jnp.tanh(state @ state + action)


def case_vmapped_rollout_timed_without_waiting():
    num_envs = 8
    rng = jax.random.PRNGKey(0)
    ruleset_rng = jax.random.split(rng, num=num_envs)
    reset_rng = jax.random.split(rng, num=num_envs)  # reported: JNP601
    timestep = jax.vmap(env_reset)(reset_rng) + jax.vmap(env_reset)(ruleset_rng)
    start = time.time()
    for i in range(10):
        timestep = jax.vmap(env_step, in_axes=0)(timestep, jnp.zeros((8, 300, 300)))
    elapsed = time.time() - start  # reported: JNP603
    return elapsed


def case_ok_vmapped_rollout_timed_after_waiting():
    num_envs = 8
    rng = jax.random.PRNGKey(0)
    ruleset_rng, reset_rng = jax.random.split(rng)
    timestep = (jax.vmap(env_reset)(jax.random.split(reset_rng, num_envs))
                + jax.vmap(env_reset)(jax.random.split(ruleset_rng, num_envs)))
    start = time.time()
    for i in range(10):
        timestep = jax.vmap(env_step, in_axes=0)(timestep, jnp.zeros((8, 300, 300)))
    timestep.block_until_ready()
    elapsed = time.time() - start
    return elapsed


# https://github.com/micdoh/XLRON/pull/27
# Building the spectral-efficiency table walks every shortest path and compares its length with a
# modulation table held as a JAX array, so each comparison waits for the device.
modulations_array = jnp.array([[4000.0, 1.0], [2000.0, 2.0], [1000.0, 3.0], [500.0, 4.0]])


def _get_spectral_efficiency(distance, modulations_reversed):
    for modulation in modulations_reversed:
        if distance <= modulation[0]:  # reported: JNP102
            return float(modulation[1])
    return 0.0


def case_path_lengths_compared_with_device_table():
    modulations_reversed = modulations_array[::-1]
    return [_get_spectral_efficiency(d, modulations_reversed) for d in (300.0, 900.0, 1800.0, 3500.0)]


def case_ok_path_lengths_compared_with_host_table():
    modulations_reversed = np.asarray(modulations_array[::-1])
    return [_get_spectral_efficiency(d, modulations_reversed) for d in (300.0, 900.0, 1800.0, 3500.0)]
