"""Sixth round, held out: a loss jitted afresh on every step and a clock read before the device
finished (JNP602, JNP603)."""
import time

import jax
import jax.numpy as jnp


# https://github.com/bsc-quantic/tn4ml/pull/9
# The training loop builds its loss for the batch and jits its value and gradient on every step, so
# most of the training time goes to compiling the same function again.
def train(params, batches):
    for batch in batches:
        def loss(p):
            return jnp.mean((batch @ p) ** 2)

        value, grads = jax.jit(jax.value_and_grad(loss))(params)  # reported: JNP602
        params = params - 0.1 * grads
    return params


def case_loss_jitted_each_step():
    return train(jnp.ones(3), [jnp.ones((4, 3)) * i for i in range(3)])


def batch_loss(p, batch):
    return jnp.mean((batch @ p) ** 2)


loss_and_grad = jax.jit(jax.value_and_grad(batch_loss))


def train_compiled_once(params, batches):
    for batch in batches:
        value, grads = loss_and_grad(params, batch)
        params = params - 0.1 * grads
    return params


def case_ok_loss_jitted_once():
    return train_compiled_once(jnp.ones(3), [jnp.ones((4, 3)) * i for i in range(3)])


# https://github.com/jax-ml/jax/issues/2143
# Comparing JAX with NumPy, a user times an elementwise product with two clock reads and finds JAX
# slow or fast depending on the machine; the clock stops before the device has finished.
def case_product_timed_without_waiting():
    x = jnp.arange(100_000.0)
    start = time.time()
    y = x * x
    elapsed = time.time() - start  # reported: JNP603
    return y, elapsed


def case_ok_product_timed_after_waiting():
    x = jnp.arange(100_000.0)
    start = time.time()
    y = (x * x).block_until_ready()
    elapsed = time.time() - start
    return y, elapsed
