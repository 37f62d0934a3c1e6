"""Thirteenth round, held out: a tensor-train benchmark that times its jitted operations without
waiting for them, and a backtracking line search whose while_loop is built from functions defined
again on every update, so each step of the user's loop traces and compiles it again (JNP603,
JNP602)."""
import time

import jax
import jax.numpy as jnp


def random_tt(key, shape, rank):
    keys = jax.random.split(key, len(shape))
    ranks = [1] + [rank] * (len(shape) - 1) + [1]
    return [
        jax.random.normal(k, (ranks[i], n, ranks[i + 1])) for i, (k, n) in enumerate(zip(keys, shape))
    ]


@jax.jit
def tt_multiply(a, b):
    """The elementwise product of two tensors in the TT format: the cores' Kronecker products."""
    return [
        jnp.einsum("anb,cnd->acnbd", ca, cb).reshape(
            ca.shape[0] * cb.shape[0], ca.shape[1], ca.shape[2] * cb.shape[2]
        )
        for ca, cb in zip(a, b)
    ]


# https://github.com/fasghq/ttax/pull/9
# The benchmark compiled the operation once and then timed a loop of calls; jitted calls return
# as soon as the work is dispatched, so the figure was the dispatch time.
def benchmark(f, *args, n_repeats=20):
    f(*args)
    start = time.time()
    for _ in range(n_repeats):
        f(*args)
    return (time.time() - start) / n_repeats  # reported: JNP603


def case_tt_benchmark_without_blocking():
    key_a, key_b = jax.random.split(jax.random.PRNGKey(0))
    a = random_tt(key_a, (8,) * 6, 10)
    b = random_tt(key_b, (8,) * 6, 10)
    return benchmark(tt_multiply, a, b)


def benchmark_blocking(f, *args, n_repeats=20):
    jax.block_until_ready(f(*args))
    start = time.time()
    for _ in range(n_repeats):
        jax.block_until_ready(f(*args))
    return (time.time() - start) / n_repeats


def case_ok_tt_benchmark_blocking():
    key_a, key_b = jax.random.split(jax.random.PRNGKey(0))
    a = random_tt(key_a, (8,) * 6, 10)
    b = random_tt(key_b, (8,) * 6, 10)
    return benchmark_blocking(tt_multiply, a, b)


# https://github.com/google-deepmind/optax/issues/1171
# The line search defines its cond_fn and body_fn inside update_fn, and the user calls update_fn
# outside jit on every optimisation step: each call hands while_loop new functions, so the loop is
# traced and compiled again every step.
def scale_by_backtracking_linesearch(value_fn, decrease_factor=0.5, slope_rtol=1e-4):
    def update_fn(updates, params, value, grad):
        slope = jnp.vdot(updates, grad)

        def cond_fn(carry):
            stepsize, new_value = carry
            return (new_value > value + slope_rtol * stepsize * slope) & (stepsize > 1e-6)

        def body_fn(carry):
            stepsize, _ = carry
            stepsize = decrease_factor * stepsize
            return stepsize, value_fn(params + stepsize * updates)

        stepsize, _ = jax.lax.while_loop(  # reported: JNP602
            cond_fn, body_fn, (jnp.asarray(1.0), value_fn(params + updates))
        )
        return stepsize * updates

    return update_fn


def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def case_linesearch_loop_rebuilt_every_step():
    linesearch = scale_by_backtracking_linesearch(rosenbrock)
    params = jnp.zeros(4)
    for _ in range(20):
        value, grad = jax.value_and_grad(rosenbrock)(params)
        params = params + linesearch(-grad, params, value, grad)
    return params


def case_ok_linesearch_jitted_once():
    linesearch = jax.jit(scale_by_backtracking_linesearch(rosenbrock))
    value_and_grad = jax.jit(jax.value_and_grad(rosenbrock))
    params = jnp.zeros(4)
    for _ in range(20):
        value, grad = value_and_grad(params)
        params = params + linesearch(-grad, params, value, grad)
    return params
