"""Fourth round, held out: traced values where Python, a shape or a size needs concrete data
(JNP202, JNP203)."""
import math
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


# https://github.com/jax-ml/jax/issues/5280
# The indices of the non-zero entries of a constant built inside a jitted function.
@jax.jit
def nonzero_of_constant():
    a = jnp.array([0, 1, 2])
    return jnp.nonzero(a)  # reported: JNP203


def case_nonzero_of_a_constant_under_jit():
    return nonzero_of_constant()


@jax.jit
def nonzero_with_size():
    a = jnp.array([0, 1, 2])
    return jnp.nonzero(a, size=2)


def case_ok_nonzero_with_a_static_size():
    return nonzero_with_size()


# https://github.com/google/jaxonnxruntime/issues/29
# An ONNX NonZero operator stacking jnp.nonzero of its input, run inside a jitted model.
def onnx_nonzero(x):
    return jnp.stack(jnp.nonzero(x))  # reported: JNP203


@jax.jit
def run_graph(x):
    return onnx_nonzero(x * 2)


def case_onnx_nonzero_in_jitted_graph():
    return run_graph(jnp.array([0.0, 1.0, 0.0, 3.0]))


def onnx_nonzero_padded(x):
    return jnp.stack(jnp.nonzero(x, size=x.size))


@jax.jit
def run_graph_padded(x):
    return onnx_nonzero_padded(x * 2)


def case_ok_onnx_nonzero_padded():
    return run_graph_padded(jnp.array([0.0, 1.0, 0.0, 3.0]))


# https://github.com/jax-ml/jax/issues/4798
# Clamping a static length with jnp.minimum gives a tracer, which jnp.arange cannot take.
@partial(jax.jit, static_argnums=(0,))
def first_n(n, x):
    available = jnp.shape(x)[0]
    count = jnp.minimum(available, n)
    return jnp.arange(count)  # reported: JNP202


def case_arange_of_jnp_minimum_of_static_ints():
    return first_n(5, jnp.arange(10))


@partial(jax.jit, static_argnums=(0,))
def first_n_python(n, x):
    count = min(jnp.shape(x)[0], n)
    return jnp.arange(count)


def case_ok_arange_of_python_min():
    return first_n_python(5, jnp.arange(10))


# https://github.com/jax-ml/jax/issues/204
# Padding a row into a block whose height is a jitted argument.
@jax.jit
def pad_rows(first_row, pad_to_length):
    width = first_row.shape[0]
    block = lax.full((pad_to_length, width), 0, first_row.dtype)  # reported: JNP202
    return lax.dynamic_update_slice(block, first_row.reshape(1, width), (0, 0))


def case_traced_height_of_lax_full():
    return pad_rows(jnp.array([1, 2]), 4)


@partial(jax.jit, static_argnums=(1,))
def pad_rows_static(first_row, pad_to_length):
    width = first_row.shape[0]
    block = lax.full((pad_to_length, width), 0, first_row.dtype)
    return lax.dynamic_update_slice(block, first_row.reshape(1, width), (0, 0))


def case_ok_height_static():
    return pad_rows_static(jnp.array([1, 2]), 4)


# https://github.com/jax-ml/jax/issues/5017
# A fixed-step solver counts its steps with jnp from Python constants, then scans over
# jnp.arange of that count; under jit the count is a tracer.
def fixed_step_solve(rhs, t_span, y0, max_dt):
    span = t_span[1] - t_span[0]
    steps = jnp.array(span // max_dt).astype(int)
    h = span / steps

    def body(y, i):
        return y + h * rhs(t_span[0] + h * i, y), None

    return lax.scan(body, y0, jnp.arange(steps))[0]  # reported: JNP202


@jax.jit
def decay(rate):
    return fixed_step_solve(lambda t, y: rate * y, [0.0, 0.5], jnp.array(1.0), 0.1)


def case_scan_length_from_jnp_of_constants():
    return decay(-1.0)


def fixed_step_solve_python(rhs, t_span, y0, max_dt):
    span = t_span[1] - t_span[0]
    steps = int(span // max_dt)
    h = span / steps

    def body(y, i):
        return y + h * rhs(t_span[0] + h * i, y), None

    return lax.scan(body, y0, jnp.arange(steps))[0]


@jax.jit
def decay_python(rate):
    return fixed_step_solve_python(lambda t, y: rate * y, [0.0, 0.5], jnp.array(1.0), 0.1)


def case_ok_scan_length_from_python_arithmetic():
    return decay_python(-1.0)


# https://github.com/jax-ml/jax/issues/4449
# A length computed from a static size with jnp.add is staged, so it cannot be a shape.
@jax.jit
def ones_one_longer(arr):
    count = jnp.add(arr.size, 1)
    return jnp.ones((count,))  # reported: JNP202


def case_shape_from_jnp_add_of_size():
    return ones_one_longer(jnp.ones(3))


@jax.jit
def ones_one_longer_python(arr):
    count = arr.size + 1
    return jnp.ones((count,))


def case_ok_shape_from_python_add():
    return ones_one_longer_python(jnp.ones(3))


# https://github.com/jax-ml/jax/pull/24511
# A rematerialised function branching in Python on its argument.
@jax.remat
def remat_branch(x):
    if x > 0:  # reported: JNP202
        return x
    return jnp.sin(x)


def case_python_branch_under_remat():
    return remat_branch(3.0)


@jax.remat
def remat_where(x):
    return jnp.where(x > 0, x, jnp.sin(x))


def case_ok_where_under_remat():
    return remat_where(3.0)


# https://github.com/scipy/scipy/pull/22219
# An asarray helper that checks finiteness with a Python `if`, called from a jitted caller.
def checked_asarray(a, check_finite=True):
    a = jnp.asarray(a)
    if check_finite and not jnp.all(jnp.isfinite(a)):  # reported: JNP202
        raise ValueError("array must not contain infs or NaNs")
    return a


@jax.jit
def centroid(obs):
    obs = checked_asarray(obs)
    return obs.mean(axis=0)


def case_finiteness_check_under_jit():
    return centroid(jnp.ones((3, 2)))


@jax.jit
def centroid_unchecked(obs):
    obs = checked_asarray(obs, check_finite=False)
    return obs.mean(axis=0)


def case_ok_finiteness_check_off():
    return centroid_unchecked(jnp.ones((3, 2)))


# https://github.com/proteneer/timemachine/pull/800
# A reference potential validates its inputs with asserts; jitting it fails there.
def nonbonded_energy(conf, params, cutoff, runtime_validate=True):
    if runtime_validate:
        assert jnp.all(params[:, 0] >= 0)  # reported: JNP202
    d = jnp.linalg.norm(conf[:, None, :] - conf[None, :, :], axis=-1) + jnp.eye(len(conf))
    return jnp.sum(jnp.where(d < cutoff, params[:, 0] / d, 0.0))


def case_assert_in_jitted_potential():
    conf = jnp.arange(6.0).reshape(3, 2)
    params = jnp.ones((3, 2))
    return jax.jit(nonbonded_energy)(conf, params, 2.0)


def case_ok_validation_off_under_jit():
    conf = jnp.arange(6.0).reshape(3, 2)
    params = jnp.ones((3, 2))
    return jax.jit(partial(nonbonded_energy, runtime_validate=False))(conf, params, 2.0)


# https://github.com/waymo-research/waymax/issues/14
# Rolling a simulator state forward for the steps it has left, inside a jitted benchmark.
class SimState:
    def __init__(self, positions, remaining_timesteps):
        self.positions = positions
        self.remaining_timesteps = remaining_timesteps


jax.tree_util.register_pytree_node(
    SimState,
    lambda s: ((s.positions, s.remaining_timesteps), None),
    lambda _, children: SimState(*children),
)


@jax.jit
def roll_out(state):
    for _ in range(state.remaining_timesteps):  # reported: JNP202
        state = SimState(state.positions + 1.0, state.remaining_timesteps - 1)
    return state


def case_range_of_a_traced_state_field():
    return roll_out(SimState(jnp.zeros(2), jnp.array(3)))


def roll_out_steps(state, steps):
    for _ in range(steps):
        state = SimState(state.positions + 1.0, state.remaining_timesteps - 1)
    return state


def case_ok_step_count_static():
    return jax.jit(roll_out_steps, static_argnums=1)(SimState(jnp.zeros(2), jnp.array(3)), 3)


# https://github.com/jax-ml/jax/issues/1406
# A Python loop over a count that jit traces.
def repeat_noop(num):
    total = 0
    for _ in range(num):  # reported: JNP202
        total += 1
    return total


def case_range_of_jitted_count():
    return jax.jit(repeat_noop)(0)


def case_ok_count_static():
    return jax.jit(repeat_noop, static_argnums=0)(0)


# https://github.com/ayaka14732/llama-2-jax/issues/14
# A debugging stand-in for lax.while_loop written as a Python while, driven from jitted sampling.
def python_while_loop(cond_fun, body_fun, val):
    while cond_fun(val):  # reported: JNP202
        val = body_fun(val)
    return val


@jax.jit
def sample_until_finished(finished):
    return python_while_loop(lambda f: ~jnp.all(f), lambda f: f | True, finished)


def case_python_while_with_traced_condition():
    return sample_until_finished(jnp.array([False, True]))


@jax.jit
def sample_until_finished_lax(finished):
    return lax.while_loop(lambda f: ~jnp.all(f), lambda f: f | True, finished)


def case_ok_lax_while_loop():
    return sample_until_finished_lax(jnp.array([False, True]))


# https://github.com/QuantEcon/lecture-jax/issues/95
# Power iteration jitted without static_argnums: a caller raising the iteration count traces it.
def power_iteration(a, num_iterations=20):
    x = jnp.ones(a.shape[0])
    for _ in range(num_iterations):  # reported: JNP202
        x = a @ x
        x = x / jnp.linalg.norm(x)
    return x @ a @ x


def case_iteration_count_traced_by_jit():
    return jax.jit(power_iteration)(jnp.eye(3) * 2.0, 30)


def case_ok_iteration_count_static():
    return jax.jit(power_iteration, static_argnums=(1,))(jnp.eye(3) * 2.0, 30)


def case_ok_ceil_of_python_floats():
    return jnp.zeros(math.ceil(1.0 / 0.3))
