"""Donated buffers used again (JNP605)."""
import jax
import jax.numpy as jnp
import jax.scipy.linalg  # noqa: F401 - jax.scipy is not imported by jax


def _add_one(x):
    return x + 1


# https://github.com/jax-ml/jax/issues/9675 (2025 comment: the donated buffer passed again)
def case_donated_buffer_passed_twice():
    step = jax.jit(_add_one, donate_argnums=(0,))
    buf = jnp.array(1.0)
    step(buf)
    step(buf)  # reported: JNP605


def case_ok_result_rebound():
    step = jax.jit(_add_one, donate_argnums=(0,))
    buf = jnp.array(1.0)
    buf = step(buf)
    buf = step(buf)
    return buf


# https://github.com/jax-ml/jax/issues/16906
# The donated argument printed after the call.
def _pair(x, y):
    return x, y * 2


def case_donated_argument_printed():
    fn = jax.jit(_pair, donate_argnums=1)
    x = {"A": jnp.array(1.0), "B": jnp.array(2.0)}
    y = jnp.array(3.0)
    fn(x, y)
    print(y)  # reported: JNP605


def case_ok_undonated_argument_printed():
    fn = jax.jit(_pair, donate_argnums=1)
    x = {"A": jnp.array(1.0), "B": jnp.array(2.0)}
    y = jnp.array(3.0)
    fn(x, y)
    print(x)


# https://github.com/flatironinstitute/jaxmg/pull/29
# A solver that donates its matrix (factorised in place), called twice with the same matrix.
def _solve(a, b):
    factor = jnp.linalg.cholesky(a)
    return factor, jax.scipy.linalg.cho_solve((factor, True), b)


_donating_solve = jax.jit(_solve, donate_argnums=0)


def case_donated_matrix_solved_twice():
    a = jnp.eye(3) * 2.0
    _, x1 = _donating_solve(a, jnp.ones(3))
    _, x2 = _donating_solve(a, jnp.arange(3.0))  # reported: JNP605
    return x1, x2


_keeping_solve = jax.jit(_solve)


def case_ok_matrix_not_donated():
    a = jnp.eye(3) * 2.0
    _, x1 = _keeping_solve(a, jnp.ones(3))
    _, x2 = _keeping_solve(a, jnp.arange(3.0))
    return x1, x2
