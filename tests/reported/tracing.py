"""Traced values used where Python or NumPy needs concrete data (JNP201, JNP202, JNP203, JNP205)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

# https://github.com/jax-ml/jax/issues/7545
# A dict of NumPy parameters indexed by a traced index inside a jitted gradient.
SOURCES = {"radec": np.linspace(0.0, 1.0, 8, dtype=np.float32), "stokes": np.ones(8, np.float32)}


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
    rows = [jnp.where((labels == j)[:, None], points, 0).sum(0) / (labels == j).sum().astype(points.dtype)
            for j in range(2)]
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


# https://github.com/google-research/multinerf/pull/62
# A helper whose array module defaults to NumPy (xnp=np), called from a jitted step without xnp.
def _convert_to_ndc(origins, directions, xnp=np):
    t = -(1.0 + origins[..., 2]) / directions[..., 2]
    return xnp.stack([origins[..., 0] + t * directions[..., 0], origins[..., 1]], axis=-1)  # reported: JNP201


@jax.jit
def _cast_rays(origins, directions):
    return _convert_to_ndc(origins, directions)


def case_numpy_default_module_in_jitted_step():
    _cast_rays(jnp.ones((4, 3)), jnp.ones((4, 3)))


@jax.jit
def _cast_rays_fixed(origins, directions):
    return _convert_to_ndc(origins, directions, xnp=jnp)


def case_ok_jnp_module_passed():
    _cast_rays_fixed(jnp.ones((4, 3)), jnp.ones((4, 3)))


# https://github.com/google/brax/issues/321
# An environment's step, jitted, stacks fields of its NamedTuple state with NumPy.
from typing import NamedTuple  # noqa: E402


class QP(NamedTuple):
    pos: jax.Array
    rot: jax.Array


class State(NamedTuple):
    qp: QP
    reward: jax.Array


class Env:
    def step(self, state: State, action: jax.Array) -> State:
        rot = np.stack([state.qp.rot, action]).sum(axis=0)  # reported: JNP201
        return State(QP(state.qp.pos, rot), state.reward + 1.0)


class EnvFixed:
    def step(self, state: State, action: jax.Array) -> State:
        rot = jnp.stack([state.qp.rot, action]).sum(axis=0)
        return State(QP(state.qp.pos, rot), state.reward + 1.0)


def _initial_state():
    return State(QP(jnp.zeros(3), jnp.zeros(3)), jnp.float32(0))


def case_numpy_on_namedtuple_state_fields():
    jax.jit(Env().step)(_initial_state(), jnp.ones(3))


def case_ok_jnp_on_namedtuple_state_fields():
    jax.jit(EnvFixed().step)(_initial_state(), jnp.ones(3))


# https://github.com/jax-ml/jax/pull/5853
# A Python list of names indexed by a traced label.
LABEL_NAMES = ["cat", "dog", "bird"]
LABEL_WEIGHTS = [0.5, 1.0, 2.0]


@jax.jit
def _weight_of(label):
    return LABEL_WEIGHTS[label]  # reported: JNP202


def case_list_indexed_by_traced_label():
    _weight_of(jnp.int32(1))


@jax.jit
def _weight_of_fixed(label):
    return jnp.asarray(LABEL_WEIGHTS)[label]


def case_ok_array_indexed_by_traced_label():
    _weight_of_fixed(jnp.int32(1))


# https://github.com/asantini29/phentax/pull/28
# The number of time steps computed with int() from traced values inside jit.
@jax.jit
def _n_steps(duration, delta_t):
    return int(jnp.ceil(duration / delta_t))  # reported: JNP202


def case_int_of_traced_ceil():
    _n_steps(1.0, 0.1)


def _n_steps_static(duration, delta_t):
    import math
    return math.ceil(duration / delta_t)


def case_ok_ceil_on_python_floats():
    jax.jit(lambda x: x * _n_steps_static(1.0, 0.1))(jnp.ones(2))


# https://github.com/blackjax-devs/blackjax/issues/1029
# float() of a traced moving-average step size inside a jitted warmup.
def _length_floor(step_size):
    return max(0.1, 3 * step_size)


@jax.jit
def _warmup(log_step_size):
    step_size = jnp.exp(log_step_size)
    return _length_floor(float(step_size))  # reported: JNP202


def case_float_of_traced_step_size():
    _warmup(jnp.float32(-1.0))


@jax.jit
def _warmup_fixed(log_step_size):
    step_size = jnp.exp(log_step_size)
    return jnp.maximum(0.1, 3 * step_size)


def case_ok_jnp_maximum_of_step_size():
    _warmup_fixed(jnp.float32(-1.0))


# https://github.com/jax-ml/jax/pull/8947
# An assert on a traced sum inside jit.
@jax.jit
def _total(x):
    result = sum(x[i] for i in range(3))
    assert result > 0  # reported: JNP202
    return result


def case_assert_on_traced_value():
    _total(jnp.ones(3))


@jax.jit
def _total_checked_statically(x):
    assert x.shape[0] >= 3
    return sum(x[i] for i in range(3))


def case_ok_assert_on_shape():
    _total_checked_statically(jnp.ones(3))


# https://github.com/jax-ml/jax/issues/10400
# An inner range whose start is the traced index of an outer lax loop.
def _pairs(n, x):
    def outer(i, total):
        for j in range(i, n):  # reported: JNP202
            total = total + x[i] * x[j]
        return total
    return jax.lax.fori_loop(0, n, outer, 0.0)


def case_range_from_traced_index():
    _pairs(3, jnp.ones(3))


def _pairs_fixed(n, x):
    def outer(i, total):
        js = jnp.arange(n)
        return total + jnp.sum(jnp.where(js >= i, x[i] * x, 0.0))
    return jax.lax.fori_loop(0, n, outer, 0.0)


def case_ok_masked_inner_sum():
    _pairs_fixed(3, jnp.ones(3))


# https://github.com/brentyi/jax_dataclasses/issues/3
# A pytree dataclass whose __post_init__ derives a Python value from an array field: JAX
# rebuilds the dataclass from tracers when it is passed to a jitted function.
import dataclasses  # noqa: E402


@partial(jax.tree_util.register_dataclass, data_fields=["a"], meta_fields=[])
@dataclasses.dataclass
class Summed:
    a: jax.Array
    total: int = dataclasses.field(init=False, repr=False, default=0)

    def __post_init__(self):
        self.total = int(self.a.sum())  # reported: JNP202


def case_post_init_concretises_field_under_jit():
    jax.jit(lambda s: s.a * 2)(Summed(jnp.arange(4)))


@partial(jax.tree_util.register_dataclass, data_fields=["a"], meta_fields=[])
@dataclasses.dataclass
class SummedLazily:
    a: jax.Array

    def total(self):
        return self.a.sum()


def case_ok_total_computed_on_demand():
    jax.jit(lambda s: s.a * s.total())(SummedLazily(jnp.arange(4)))


# https://github.com/GalSim-developers/JAX-GalSim/issues/37
# Integer bounds validated in the constructor of a pytree class that is rebuilt under jit.
@jax.tree_util.register_pytree_node_class
class BoundsI:
    def __init__(self, xmin, xmax):
        if xmin != int(xmin) or xmax != int(xmax):  # reported: JNP202
            raise TypeError("BoundsI must be initialized with integer values")
        self.xmin, self.xmax = xmin, xmax

    def tree_flatten(self):
        return (self.xmin, self.xmax), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def case_constructor_validation_under_jit():
    jax.jit(lambda b: b.xmax - b.xmin)(BoundsI(jnp.int32(1), jnp.int32(4)))


@jax.tree_util.register_pytree_node_class
class BoundsIChecked:
    def __init__(self, xmin, xmax):
        self.xmin, self.xmax = xmin, xmax

    @classmethod
    def checked(cls, xmin, xmax):
        if xmin != int(xmin) or xmax != int(xmax):
            raise TypeError("BoundsI must be initialized with integer values")
        return cls(xmin, xmax)

    def tree_flatten(self):
        return (self.xmin, self.xmax), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        obj = object.__new__(cls)
        obj.xmin, obj.xmax = children
        return obj


def case_ok_validation_outside_unflatten():
    jax.jit(lambda b: b.xmax - b.xmin)(BoundsIChecked.checked(1, 4))
