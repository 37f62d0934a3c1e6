"""Second round, held out: traced values where Python or NumPy needs concrete data
(JNP201, JNP202, JNP203)."""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit, lax


# https://github.com/jax-ml/jax/issues/7969
# A piecewise function whose second condition is a chained comparison: Python turns
# `0 < x < 1` into `(0 < x) and (x < 1)`, a truth test of a tracer under jit.
def f_piecewise(x):
    return jnp.piecewise(x, [x < 0, 0 < x < 1], [lambda x: -x, lambda x: x])  # reported: JNP202


def case_chained_comparison_in_piecewise():
    f_jit = jax.jit(f_piecewise)
    return f_jit(0.5)


def f_piecewise_fixed(x):
    return jnp.piecewise(x, [x < 0, (0 < x) & (x < 1)], [lambda x: -x, lambda x: x])


def case_ok_elementwise_and_in_piecewise():
    f_jit = jax.jit(f_piecewise_fixed)
    return f_jit(0.5)


# https://github.com/ott-jax/ott/issues/3
# Checking a solver's output for convergence with a Python `if` inside the jitted loss.
class SinkhornOutput(NamedTuple):
    reg_ot_cost: jax.Array
    errors: jax.Array
    converged: jax.Array


def sinkhorn(a, b):
    cost = jnp.sum((a[:, None] - b[None, :]) ** 2)
    return SinkhornOutput(cost, jnp.array([1.0, 0.5, 0.1]) * cost, cost < 10.0)


@jax.jit
def ot_loss(a, b):
    out = sinkhorn(a, b)
    if out.errors[-1] < 1 and out.converged:  # reported: JNP202
        return out.reg_ot_cost
    return jnp.nan


def case_convergence_check_with_if():
    return ot_loss(jnp.ones(3), jnp.zeros(3))


@jax.jit
def ot_loss_fixed(a, b):
    out = sinkhorn(a, b)
    return jnp.where(out.converged, out.reg_ot_cost, jnp.nan)


def case_ok_convergence_check_with_where():
    return ot_loss_fixed(jnp.ones(3), jnp.zeros(3))


# https://github.com/jax-ml/jax/pull/4342
# The maximum of two jitted arguments written with if/else.
@jax.jit
def f_max(x, y):
    if x > y:  # reported: JNP202
        return x
    else:
        return y


def case_if_on_two_arguments():
    return f_max(1, 2)


@jax.jit
def f_max_fixed(x, y):
    return jnp.where(x > y, x, y)


def case_ok_where_on_two_arguments():
    return f_max_fixed(1, 2)


# https://github.com/jax-ml/jax/issues/553
# A NumPy arange indexed by the jitted argument.
def fun(x):
    r = np.arange(x.shape[0])[x]  # reported: JNP201
    return r


def case_numpy_arange_indexed_by_tracer():
    return jit(fun)(np.array([0, 1, 2], dtype=np.int32))


def fun_iota(x):
    r = lax.iota(jnp.int32, x.shape[0])[x]
    return r


def case_ok_iota_indexed_by_tracer():
    return jit(fun_iota)(np.array([0, 1, 2], dtype=np.int32))


# https://github.com/jax-ml/jax/pull/609
# array_equal implemented with bool(), then used under jit.
def array_equal(a1, a2):
    if jnp.shape(a1) != jnp.shape(a2):
        return False
    return bool(jnp.asarray(a1 == a2).all())  # reported: JNP202


def case_array_equal_with_bool_under_jit():
    return jax.jit(array_equal)(jnp.ones(3), jnp.ones(3))


def array_equal_fixed(a1, a2):
    if jnp.shape(a1) != jnp.shape(a2):
        return False
    return jnp.asarray(a1 == a2).all()


def case_ok_array_equal_without_bool():
    return jax.jit(array_equal_fixed)(jnp.ones(3), jnp.ones(3))


# https://github.com/patrick-kidger/diffrax/issues/379
# max_steps passed as an ordinary argument of the jitted solve, then tested in Python.
def diffeqsolve(y0, dt0, max_steps):
    if max_steps == 1:  # reported: JNP202
        return y0 + dt0 * -y0
    return lax.fori_loop(0, 16, lambda i, y: y + dt0 * -y, y0)


def case_max_steps_traced():
    return jax.jit(diffeqsolve)(jnp.ones(2), 0.1, 16)


def case_ok_max_steps_static():
    return jax.jit(diffeqsolve, static_argnums=2)(jnp.ones(2), 0.1, 16)


# https://github.com/jax-ml/jax/issues/21994
# A boolean mask in .at[] inside jit.
def f_at_mask(x):
    return x.at[x < 5].set(0)  # reported: JNP203


def case_at_boolean_mask_under_jit():
    x = jnp.arange(10)
    return jax.jit(f_at_mask)(x)


def g_where(x):
    return jnp.where(x < 5, 0, x)


def case_ok_where_under_jit():
    x = jnp.arange(10)
    return jax.jit(g_where)(x)


# https://github.com/elixir-nx/nx/issues/221
# Boolean indexing in a jitted lambda.
def case_boolean_index_in_jitted_lambda():
    return jax.jit(lambda x: x[x >= 3])(np.array([1, 2, 3, 4, 5, 6]))  # reported: JNP203


def case_ok_where_in_jitted_lambda():
    return jax.jit(lambda x: jnp.where(x >= 3, x, 0))(np.array([1, 2, 3, 4, 5, 6]))


# https://github.com/jax-ml/jax/issues/4471
# A mask made inside the jitted function from a static argument only: under jit it is
# still a traced array, so boolean indexing with it fails.
@partial(jax.jit, static_argnums=1)
def create_mask_inside_jitted_function(x, n):
    mask = jnp.arange(n) < 3
    return x[mask].sum()  # reported: JNP203


def case_mask_from_static_argument():
    return create_mask_inside_jitted_function(jnp.ones(5), 5)


@partial(jax.jit, static_argnums=1)
def create_mask_with_numpy(x, n):
    mask = np.arange(n) < 3
    return x[mask].sum()


def case_ok_numpy_mask_from_static_argument():
    return create_mask_with_numpy(jnp.ones(5), 5)


# https://github.com/google/jaxopt/pull/350
# A Python `not` over a traced flag in the condition of a while loop.
class LbfgsState(NamedTuple):
    iter_num: jax.Array
    failed_linesearch: jax.Array


def run_lbfgs(x, stop_if_linesearch_fails):
    def cond_fun(carry):
        state, _ = carry
        keep = not stop_if_linesearch_fails | ~state.failed_linesearch  # reported: JNP202
        return (state.iter_num < 5) & keep

    def body_fun(carry):
        state, x = carry
        return LbfgsState(state.iter_num + 1, x.sum() > 100.0), x * 0.5

    init = (LbfgsState(jnp.asarray(0), jnp.asarray(False)), x)
    return lax.while_loop(cond_fun, body_fun, init)


def case_python_not_in_while_condition():
    return run_lbfgs(jnp.ones(3), True)


def run_lbfgs_fixed(x, stop_if_linesearch_fails):
    def cond_fun(carry):
        state, _ = carry
        keep = jnp.logical_or(not stop_if_linesearch_fails, ~state.failed_linesearch)
        return (state.iter_num < 5) & keep

    def body_fun(carry):
        state, x = carry
        return LbfgsState(state.iter_num + 1, x.sum() > 100.0), x * 0.5

    init = (LbfgsState(jnp.asarray(0), jnp.asarray(False)), x)
    return lax.while_loop(cond_fun, body_fun, init)


def case_ok_logical_or_in_while_condition():
    return run_lbfgs_fixed(jnp.ones(3), True)
