"""Ninth round, held out: a clock read before the device finished, in a micro-benchmark loop
(JNP603)."""
from time import perf_counter

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/issues/4865
# jnp.concatenate is compared with np.concatenate by summing perf_counter differences around each
# call in a loop; the JAX call returns once the work is queued, so its sum counts dispatch only.
def f(x, y):
    return np.concatenate((x, y))


def g(x, y):
    return jnp.concatenate((x, y))


def case_concatenate_timed_without_blocking():
    nn = 100
    x, y = np.ones(5), np.ones(6)
    time_f = 0
    time_g = 0
    for _ in range(nn):
        t0 = perf_counter()
        _ = f(x, y)
        time_f += perf_counter() - t0

        t0 = perf_counter()
        _ = g(x, y)
        time_g += perf_counter() - t0  # reported: JNP603
    return time_f / nn, time_g / nn


def case_ok_concatenate_timed_until_ready():
    nn = 100
    x, y = jnp.ones(5), jnp.ones(6)
    time_g = 0
    for _ in range(nn):
        t0 = perf_counter()
        g(x, y).block_until_ready()
        time_g += perf_counter() - t0
    return time_g / nn
