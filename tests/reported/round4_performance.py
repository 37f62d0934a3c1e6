"""Fourth round, held out: timing without waiting and donated buffers (JNP603, JNP605)."""
import time
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/anindex/gtmp/issues/1
# A planner's reported time stops the clock as soon as the jitted call returns.
@jax.jit
def plan(keys, grid):
    costs = jax.vmap(lambda k: jax.random.uniform(k, grid.shape) * grid)(keys)
    return jnp.cumsum(costs, axis=-1)


def case_planner_timed_without_waiting():
    keys = jax.random.split(jax.random.key(0), 4)
    grid = jnp.ones((8, 8))
    plan(keys, grid)
    start = time.perf_counter()
    paths = plan(keys, grid)
    elapsed = time.perf_counter() - start  # reported: JNP603
    return paths, elapsed


def case_ok_planner_timed_after_block_until_ready():
    keys = jax.random.split(jax.random.key(0), 4)
    grid = jnp.ones((8, 8))
    plan(keys, grid)
    start = time.perf_counter()
    paths = plan(keys, grid)
    jax.block_until_ready(paths)
    elapsed = time.perf_counter() - start
    return paths, elapsed


# https://github.com/huggingface/diffusers/issues/5277
# Image generation looks instant and the conversion to NumPy looks slow: the clock stopped
# before the device finished, and np.asarray waited for it.
@jax.jit
def generate(params, latents):
    for _ in range(4):
        latents = jnp.tanh(latents @ params)
    return latents


def case_generation_timed_before_the_conversion():
    params = jnp.eye(64) * 0.5
    latents = jnp.ones((8, 64))
    generate(params, latents)
    start = time.time()
    images = generate(params, latents)
    generation_time = time.time() - start  # reported: JNP603
    start = time.time()
    images = np.asarray(images)
    conversion_time = time.time() - start
    return images, generation_time, conversion_time


def case_ok_generation_timed_with_a_wait():
    params = jnp.eye(64) * 0.5
    latents = jnp.ones((8, 64))
    generate(params, latents)
    start = time.time()
    images = generate(params, latents).block_until_ready()
    generation_time = time.time() - start
    return np.asarray(images), generation_time


# https://github.com/liesel-devs/liesel/pull/272
# Donating a model state whose tree holds the same array under two names: XLA refuses to
# donate one buffer twice.
@partial(jax.jit, donate_argnums=(0,))
def sample_step(state):
    return jax.tree.map(lambda v: v * 0.5, state)


def case_state_tree_holds_one_buffer_twice():
    position = jnp.ones(16)
    state = {"position": position, "proposal": position}
    return sample_step(state)  # reported: JNP605


def case_ok_state_tree_with_distinct_buffers():
    position = jnp.ones(16)
    state = {"position": position, "proposal": jnp.copy(position)}
    return sample_step(state)
