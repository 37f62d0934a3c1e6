"""--measure-cost: the case returns its clock reading, which the fix (and every run) changes, so
no cost is measured for the JNP603 finding."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return jnp.tanh(x @ x) / 10.0


def case_returns_the_clock():
    x = jnp.ones((1000, 1000))
    start = time.perf_counter()
    y = step(x)
    return y, time.perf_counter() - start  # expect: JNP603
