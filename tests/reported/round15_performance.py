"""Fifteenth round, held out: a quickstart that times a jitted activation with perf_counter around
calls it does not wait for, an update step that donates the parameters while the caller still
reads the old ones, and a policy-training loop that logs every statistic with .item() after each
update (JNP603, JNP605, JNP102)."""
import time
from functools import partial

import jax
import jax.numpy as jnp


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


# https://github.com/jax-ml/jax/pull/998
# The quickstart timed the jitted selu without waiting for its result; JAX dispatches the work
# asynchronously, so the timings showed dispatch only (the PR added block_until_ready).
def case_jitted_selu_timed_without_waiting():
    selu_jit = jax.jit(selu)
    x = jax.random.normal(jax.random.key(0), (1000, 1000))
    selu_jit(x).block_until_ready()
    start = time.perf_counter()
    selu_jit(x)
    return time.perf_counter() - start  # reported: JNP603


def case_ok_jitted_selu_timed_until_ready():
    selu_jit = jax.jit(selu)
    x = jax.random.normal(jax.random.key(0), (1000, 1000))
    selu_jit(x).block_until_ready()
    start = time.perf_counter()
    selu_jit(x).block_until_ready()
    return time.perf_counter() - start


# https://github.com/jax-ml/jax/issues/9237
# Donating an argument lets XLA reuse its buffer for the output; the user kept reading the donated
# array after the call, which raises because its buffer was deleted (the issue asked for docs).
@partial(jax.jit, donate_argnums=(0,))
def sgd_update(params, grads):
    return params - 0.1 * grads


def case_donated_parameters_read_after_the_update():
    params = jnp.ones(1000)
    grads = jnp.full(1000, 0.5)
    new_params = sgd_update(params, grads)
    change = jnp.linalg.norm(new_params - params)  # reported: JNP605
    return new_params, change


def case_ok_parameters_compared_before_donation():
    params = jnp.ones(1000)
    grads = jnp.full(1000, 0.5)
    expected_change = jnp.linalg.norm(0.1 * grads)
    new_params = sgd_update(params, grads)
    return new_params, expected_change


# https://github.com/vwxyzjn/lm-human-preference-details/pull/18
# The JAX policy trainer wrote each PPO statistic to the logger with .item() after every update,
# and computed the logged learning rate from the device step; each .item() waits for the device.
@jax.jit
def ppo_update(params, batch):
    loss, grads = jax.value_and_grad(lambda p: jnp.mean((batch @ p) ** 2))(params)
    ratio = jnp.exp(-loss)
    return params - 0.01 * grads, {"loss": loss, "ratio": ratio}


def case_statistics_logged_with_item_every_update():
    params, batch = jnp.ones(4), jnp.ones((8, 4))
    logged = []
    for update in range(1, 21):
        params, stats = ppo_update(params, batch)
        logged.append(("ppo/loss/total", stats["loss"].item(), update))  # reported: JNP102
    return logged


def case_ok_statistics_fetched_once_after_training():
    params, batch = jnp.ones(4), jnp.ones((8, 4))
    history = []
    for _ in range(1, 21):
        params, stats = ppo_update(params, batch)
        history.append(stats["loss"])
    losses = jax.device_get(jnp.stack(history))
    return [("ppo/loss/total", loss, update) for update, loss in enumerate(losses, start=1)]
