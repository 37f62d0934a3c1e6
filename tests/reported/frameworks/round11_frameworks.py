"""Eleventh round, held out: Equinox code (needs equinox to run; JNP602)."""
import equinox as eqx
import jax.numpy as jnp


# https://github.com/patrick-kidger/equinox/issues/645
# Under eqx.filter_jit every argument that is not an array is static, so a loop that passes the
# Python int i and the Python float 2.0 * i traces and compiles the function again on every
# iteration (chex.assert_max_traces, wrapped inside, never saw the retraces).
@eqx.filter_jit
def f(x, i):
    return x * 2


def case_python_scalars_passed_to_filter_jit_in_a_loop():
    out = []
    for i in range(10):
        out.append(f(2.0 * i, i))  # reported: JNP602
    return out


def case_ok_arrays_passed_to_filter_jit_in_a_loop():
    out = []
    for i in range(10):
        out.append(f(jnp.asarray(2.0 * i), jnp.asarray(i)))
    return out
