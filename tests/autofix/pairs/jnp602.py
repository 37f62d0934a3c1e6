"""JNP602: jit once, before the loop."""
from functools import partial

import jax
import jax.numpy as jnp

STEPS = 100


def scale(x, factor):
    return x * factor


x = jnp.ones(3)
for step in range(STEPS):  # at the top level
    x = jax.jit(lambda v: v * 0.5)(x)


def bound_then_called(x):
    for step in range(STEPS):
        update = jax.jit(lambda v: v + 1.0)  # moves above the loop
        x = update(x)
    return x


def partial_each_step(x):
    while x.sum() > 1.0:
        x = jax.jit(
            partial(scale, factor=0.5),
        )(x)  # over several lines
    return x


class Trainer:
    def run(self, x):
        for _ in range(STEPS):
            x = jax.jit(lambda v: v - 1.0, static_argnums=())(x); x = x * 2.0
        return x


def reads_the_loop_variable(x):
    for step in range(STEPS):
        x = jax.jit(lambda v: v * step)(x)  # no fix: each step needs its own
    return x


def partial_of_a_changing_value(x):
    for factor in range(STEPS):
        x = jax.jit(partial(scale, factor=factor))(x)  # no fix
    return x


def def_in_the_loop(x):
    for step in range(STEPS):
        def halve(v):
            return v * 0.5
        x = jax.jit(halve)(x)  # no fix
    return x


def rebound_twice(x):
    for step in range(STEPS):
        update = jax.jit(lambda v: v + 1.0)  # bound twice in the loop: the jitted function goes above it
        x = update(x)
        update = None
    return x
