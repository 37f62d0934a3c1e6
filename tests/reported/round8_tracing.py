"""Eighth round, held out: NumPy and Python conversions on values a jitted function computes, and
shapes that depend on data (JNP201, JNP202, JNP203)."""
import math

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/pyro-ppl/numpyro/pull/821
# A bijector's codomain is chosen by testing the sign of its concentration with np.all; the
# concentration is a concrete jax array held outside the function, but under jax.jit the comparison
# `concentration < 0` is staged: np.all hands it to the tracer's own .all(), and `if` cannot test
# the traced result.
CONCENTRATION = jnp.arange(10.0)


def shifted(x):
    if np.all(CONCENTRATION <= 0):  # reported: JNP202
        print("nooo")
    return x + CONCENTRATION


def case_numpy_all_of_staged_comparison_under_jit():
    return jax.jit(shifted)(1.0)


def shifted_host_check(x):
    if np.all(np.asarray(CONCENTRATION) <= 0):
        print("nooo")
    return x + CONCENTRATION


def case_ok_numpy_all_of_host_comparison_under_jit():
    return jax.jit(shifted_host_check)(1.0)


# https://github.com/NVIDIA/nvalchemi-toolkit-ops/pull/72
# A neighbour-list example closes over the cell inside a jitted function; the helper that counts
# the periodic shifts reads the largest one with int(...max()), which jax.jit has staged.
CELL = jnp.eye(3) * 10.0


def compute_num_shifts(cell, cutoff):
    inv_lengths = jnp.linalg.norm(jnp.linalg.inv(cell), axis=0)
    max_shifts = jnp.ceil(cutoff * inv_lengths).astype(jnp.int32)
    return int(max_shifts.max())  # reported: JNP202


def neighbor_list(positions, cutoff=5.0):
    n_shifts = compute_num_shifts(CELL, cutoff)
    return positions * n_shifts


def case_int_of_closed_over_cell_under_jit():
    return jax.jit(neighbor_list)(jnp.ones((4, 3)))


def compute_num_shifts_host(cell, cutoff):
    inv_lengths = np.linalg.norm(np.linalg.inv(np.asarray(cell)), axis=0)
    return int(np.ceil(cutoff * inv_lengths).max())


N_SHIFTS = compute_num_shifts_host(CELL, 5.0)


def neighbor_list_precomputed(positions):
    return positions * N_SHIFTS


def case_ok_shifts_counted_outside_jit():
    return jax.jit(neighbor_list_precomputed)(jnp.ones((4, 3)))


# https://github.com/netket/netket/issues/908
# SGD with warm restarts: the learning-rate schedule is written with np.cos and receives the step
# count, which the jitted optimiser update passes as a traced integer.
ETA = 0.01


def schedule(n):
    restart = 100
    return (1 + np.cos(math.pi * (n % restart) / restart)) * ETA  # reported: JNP201


@jax.jit
def sgd_update(params, grads, count):
    return params - schedule(count) * grads


def case_numpy_cos_schedule_under_jit():
    return sgd_update(jnp.ones(3), jnp.ones(3), 5)


def schedule_jnp(n):
    restart = 100
    return (1 + jnp.cos(math.pi * (n % restart) / restart)) * ETA


@jax.jit
def sgd_update_jnp(params, grads, count):
    return params - schedule_jnp(count) * grads


def case_ok_jnp_cos_schedule_under_jit():
    return sgd_update_jnp(jnp.ones(3), jnp.ones(3), 5)


# https://github.com/jkitchin/pounce/issues/795
# A QP layer folds finite bounds into inequality rows, testing each bound with
# np.isfinite(float(ub[i])); under jax.jit with jnp bounds, ub[i] is a tracer.
def expand_bounds(ub):
    rows = []
    for i in range(ub.shape[0]):
        if np.isfinite(float(ub[i])):  # reported: JNP202
            rows.append(i)
    return rows


def solve_qp(c, ub):
    rows = expand_bounds(ub)
    return c * len(rows)


def case_float_of_traced_bound_under_jit():
    return jax.jit(solve_qp)(jnp.ones(2), jnp.array([1.0, jnp.inf]))


def solve_qp_static_bounds(c, ub):
    rows = expand_bounds(np.asarray(ub))
    return c * len(rows)


def case_ok_bounds_read_on_host():
    ub = np.array([1.0, np.inf])
    return jax.jit(lambda c: solve_qp_static_bounds(c, ub))(jnp.ones(2))


# https://github.com/MIT-Lu-Lab/MPAX/issues/1
# create_lp turns two-sided constraints into a standard form and finds the equality rows with the
# one-argument jnp.where, whose result has as many entries as rows match: jax.jit cannot know it.
def create_lp(c, A, lower, upper):
    eq_rows = jnp.where(lower == upper)[0]  # reported: JNP203
    return c, A[eq_rows], upper[eq_rows]


def case_one_argument_where_under_jit():
    A = jnp.ones((3, 2))
    return jax.jit(create_lp)(jnp.ones(2), A, jnp.array([0.0, 1.0, 2.0]), jnp.array([0.0, 2.0, 2.0]))


def create_lp_sized(c, A, lower, upper):
    eq_rows = jnp.where(lower == upper, size=lower.shape[0], fill_value=0)[0]
    return c, A[eq_rows], upper[eq_rows]


def case_ok_sized_where_under_jit():
    A = jnp.ones((3, 2))
    return jax.jit(create_lp_sized)(jnp.ones(2), A, jnp.array([0.0, 1.0, 2.0]), jnp.array([0.0, 2.0, 2.0]))
