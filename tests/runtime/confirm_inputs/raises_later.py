"""Runtime-confirmation inputs: cases that raise after the evidence of an earlier line was gathered."""
import time

import jax
import jax.numpy as jnp

calls = 0


@jax.jit
def step(x):
    print("CASE-OUTPUT x =", x)  # JNP301: prints while jax.jit traces, once
    return x * 2


@jax.jit
def head(x, n):
    return x[:n]  # a traced slice bound: raises under jit, runs without it


@jax.jit
def positive(x):
    if x > 0:  # a tracer's truth value: JAX's TracerBoolConversionError under jit
        return x
    return -x


def case_print_then_removed_api():
    for _ in range(50):
        step(jnp.ones(2))
    return jax.tree_map(lambda v: v + 1, [1, 2])  # removed from JAX: both runs raise here


def case_runs_that_end_differently_are_not_compared():
    """Under jit the first iteration raises; without jit all five would run. Compared past that, the
    rebinding below would run once against five times, which says nothing about tracing: the rerun
    stops where the jitted run raised, and no event may come of it."""
    global calls
    for i in range(5):
        calls += 1
        step(jnp.ones(2))
        head(jnp.arange(5), i)


def case_tracer_error_spares_the_rerun():
    """Past JAX's tracer error a run without jit would wait longer than the inputs' --timeout: the
    rerun stops where the jitted run raised."""
    step(jnp.ones(2))
    positive(jnp.float32(1.0))
    time.sleep(60)


@jax.jit
def scaled(x):
    print("CASE-OUTPUT scaled", x)  # JNP301: confirmed though the case ends in a tracer error
    return x * 3


def case_print_then_tracer_error():
    for _ in range(3):
        scaled(jnp.ones(2))
    positive(jnp.float32(1.0))
