"""Traced values used where Python or NumPy needs concrete data (JNP201, JNP202, JNP203, JNP205)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

# https://github.com/jax-ml/jax/issues/7545
# A dict of NumPy parameters indexed by a traced index inside a jitted gradient.
SOURCES = {"radec": np.linspace(0.0, 1.0, 8), "stokes": np.ones(8)}


def _flux(scale, index):
    radec = SOURCES["radec"]
    return scale * radec[index]  # reported: JNP201


def case_numpy_dict_indexed_by_tracer():
    jax.jit(jax.grad(_flux))(2.0, jnp.int32(3))


def _flux_fixed(scale, index):
    radec = jnp.asarray(SOURCES["radec"])
    return scale * radec[index]


def case_ok_numpy_dict_converted_first():
    jax.jit(jax.grad(_flux_fixed))(2.0, jnp.int32(3))


# https://github.com/dfm/tinygp/issues/85
# np.append in a tree_map lambda inside a jitted function.
@jax.jit
def _shift_leaves(tree):
    return jax.tree_util.tree_map(lambda x: np.append(x[0], x[:-1]), tree)  # reported: JNP201


def case_numpy_append_in_tree_map():
    _shift_leaves({"a": jnp.arange(4.0)})


@jax.jit
def _shift_leaves_fixed(tree):
    return jax.tree_util.tree_map(lambda x: jnp.append(x[0], x[:-1]), tree)


def case_ok_jnp_append_in_tree_map():
    _shift_leaves_fixed({"a": jnp.arange(4.0)})


# https://github.com/google-deepmind/distrax/issues/291
# A NumPy index grid indexed by a traced index array.
@jax.jit
def _select_rows(logits, rows):
    grid = np.indices(logits.shape[:1])[0]
    return logits[grid[rows]]  # reported: JNP201


def case_numpy_grid_indexed_by_tracer():
    _select_rows(jnp.zeros((3, 3)), jnp.arange(3))


@jax.jit
def _select_rows_fixed(logits, rows):
    grid = jnp.arange(logits.shape[0])
    return logits[grid[rows]]


def case_ok_jnp_grid_indexed_by_tracer():
    _select_rows_fixed(jnp.zeros((3, 3)), jnp.arange(3))


# https://github.com/PlasmaControl/DESC/issues/1334
# np.lexsort of traced mode numbers inside a jitted objective.
@jax.jit
def _mode_order(modes):
    return np.lexsort((modes[:, 1], modes[:, 0]))  # reported: JNP201


def case_numpy_lexsort_on_tracer():
    _mode_order(jnp.array([[1, 0], [0, 1], [0, 0]]))


@jax.jit
def _mode_order_fixed(modes):
    return jnp.lexsort((modes[:, 1], modes[:, 0]))


def case_ok_jnp_lexsort():
    _mode_order_fixed(jnp.array([[1, 0], [0, 1], [0, 0]]))


# https://github.com/google/brax/issues/227
# np.stack on the carry of a lax.scan body.
def _rollout_body(position, action):
    both = np.stack([position, action])  # reported: JNP201
    return both.sum(axis=0), both


def case_numpy_stack_in_scan_body():
    lax.scan(_rollout_body, jnp.zeros(3), jnp.ones((4, 3)))


def _rollout_body_fixed(position, action):
    both = jnp.stack([position, action])
    return both.sum(axis=0), both


def case_ok_jnp_stack_in_scan_body():
    lax.scan(_rollout_body_fixed, jnp.zeros(3), jnp.ones((4, 3)))


# https://github.com/jax-ml/jax/pull/22098
# A Python `and` on a traced flag inside jit.
@jax.jit
def _gate(flag):
    if True and flag:  # reported: JNP202
        return 1
    return 0


def case_python_and_on_traced_flag():
    _gate(True)


@partial(jax.jit, static_argnums=0)
def _gate_static(flag):
    if True and flag:
        return 1
    return 0


def case_ok_flag_marked_static():
    _gate_static(True)


# https://github.com/jax-ml/jax/pull/16430 (review thread: `value or default`)
@jax.jit
def _normalise(x, scale):
    scale = scale or 1.0  # reported: JNP202
    return x / scale


def case_or_default_on_tracer():
    _normalise(jnp.ones(3), 2.0)


@jax.jit
def _normalise_fixed(x, scale):
    return x / jnp.where(scale == 0, 1.0, scale)


def case_ok_where_default():
    _normalise_fixed(jnp.ones(3), 2.0)


# https://github.com/patrick-kidger/equinox/issues/236
# An array shape taken from a traced argument.
@jax.jit
def _zeros_like_shape(shape):
    return jnp.zeros(shape)  # reported: JNP202


def case_traced_shape():
    _zeros_like_shape(jnp.array([2, 3]))


@partial(jax.jit, static_argnums=0)
def _zeros_static_shape(shape):
    return jnp.zeros(shape)


def case_ok_static_shape():
    _zeros_static_shape((2, 3))


# https://github.com/probml/probml-notebooks/pull/70
# Boolean-mask update under jit.
@jax.jit
def _relu_inplace(x):
    return x.at[x < 0].set(0)  # reported: JNP203


def case_boolean_mask_update():
    _relu_inplace(jnp.array([-1.0, 2.0]))


@jax.jit
def _relu_where(x):
    return jnp.where(x < 0, 0, x)


def case_ok_where_update():
    _relu_where(jnp.array([-1.0, 2.0]))


# https://github.com/secretflow/secretflow/issues/406
# k-means centroids as means of boolean-masked rows inside jit.
@jax.jit
def _centroids(points, labels):
    return jnp.stack([points[labels == j].mean(axis=0) for j in range(2)])  # reported: JNP203


def case_boolean_mask_mean():
    _centroids(jnp.ones((4, 2)), jnp.array([0, 1, 0, 1]))


@jax.jit
def _centroids_fixed(points, labels):
    rows = [jnp.where((labels == j)[:, None], points, 0).sum(0) / (labels == j).sum() for j in range(2)]
    return jnp.stack(rows)


def case_ok_masked_sum():
    _centroids_fixed(jnp.ones((4, 2)), jnp.array([0, 1, 0, 1]))


# https://github.com/jax-ml/jax/issues/10231
@jax.jit
def _ages(age_index):
    return jnp.unique(age_index)  # reported: JNP203


def case_unique_under_jit():
    _ages(jnp.array([24, 25, 24]))


@jax.jit
def _ages_sized(age_index):
    return jnp.unique(age_index, size=3, fill_value=-1)


def case_ok_unique_with_size():
    _ages_sized(jnp.array([24, 25, 24]))


# https://github.com/jax-ml/jax/issues/5595
class Doubler:
    @jax.jit  # reported: JNP205
    def apply(self, x):
        return 2 * x


def case_jit_on_method():
    Doubler().apply(jnp.ones(2))


class StaticDoubler:
    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return 2 * x


def case_ok_self_static():
    StaticDoubler().apply(jnp.ones(2))


# https://github.com/jax-ml/jax/issues/15115
from jax import jit  # noqa: E402


class Optimiser:
    def __init__(self, rate):
        self.rate = rate

    @jit  # reported: JNP205
    def step(self, params, grads):
        return params - self.rate * grads


def case_bare_jit_on_optimiser_method():
    Optimiser(0.1).step(jnp.ones(2), jnp.ones(2))


class OptimiserFixed:
    def __init__(self, rate):
        self.rate = rate
        self.step = jit(self._step)

    def _step(self, params, grads):
        return params - self.rate * grads


def case_ok_bound_method_jitted():
    OptimiserFixed(0.1).step(jnp.ones(2), jnp.ones(2))
