"""Sixteenth round, held out: a loop that jits a fresh vjp closure for every input, and a benchmark
that reads the clock after each jitted gradient call without waiting for it (JNP602, JNP603)."""
import time

import jax
import jax.numpy as jnp


def predict(x):
    return jnp.tanh(x @ jnp.ones((3, 3)))


# https://github.com/jax-ml/jax/issues/282
# For each input the user took jax.vjp and jitted the returned vjp function to reuse it over many
# cotangents; the vjp function is a new object for every input, so jit compiles it again each time.
def pullbacks(many_xs, many_vs):
    results = []
    for x in many_xs:
        _, vjp_fun = jax.vjp(predict, x)
        vjp_fun = jax.jit(vjp_fun)  # reported: JNP602
        for v in many_vs:
            results.append(vjp_fun(v))
    return results


def case_vjp_closure_jitted_per_input():
    xs = [jnp.ones(3) * i for i in range(3)]
    return pullbacks(xs, [jnp.ones(3), jnp.zeros(3)])


@jax.jit
def pullback(x, v):
    _, vjp_fun = jax.vjp(predict, x)
    return vjp_fun(v)


def pullbacks_jitted_once(many_xs, many_vs):
    return [pullback(x, v) for x in many_xs for v in many_vs]


def case_ok_pullback_jitted_once():
    xs = [jnp.ones(3) * i for i in range(3)]
    return pullbacks_jitted_once(xs, [jnp.ones(3), jnp.zeros(3)])


def loss(params, batch):
    return jnp.mean((batch @ params) ** 2)


grad_fn = jax.jit(jax.grad(loss))


# https://github.com/jax-ml/jax/issues/934
# The per-iteration timings of a jitted gradient looked super fast for a few calls and then two
# orders of magnitude slower: the loop timed the asynchronous dispatch, not the computation.
def time_gradient(params, batch, iterations):
    timings = []
    for _ in range(iterations):
        start = time.time()
        grad_fn(params, batch)
        timings.append(time.time() - start)  # reported: JNP603
    return timings


def case_gradient_timed_without_waiting():
    return time_gradient(jnp.ones((8, 4)), jnp.ones((16, 8)), 3)


def time_gradient_blocking(params, batch, iterations):
    timings = []
    for _ in range(iterations):
        start = time.time()
        grad_fn(params, batch).block_until_ready()
        timings.append(time.time() - start)
    return timings


def case_ok_gradient_timed_after_block():
    return time_gradient_blocking(jnp.ones((8, 4)), jnp.ones((16, 8)), 3)
