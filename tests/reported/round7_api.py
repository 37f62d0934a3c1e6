"""Seventh round, held out: tree_map taken from the top-level jax namespace and a NumPy-style
in-place update (JNP501, JNP504)."""
import jax
import jax.numpy as jnp


# https://github.com/probml/dynamax/pull/369
# A state-space model module imports tree_map from the jax namespace to map over its parameters.
def case_tree_map_imported_from_jax():
    from jax import tree_map  # reported: JNP504
    params = {"mean": jnp.zeros(2), "cov": jnp.eye(2)}
    return tree_map(lambda p: p * 2.0, params)


def case_ok_tree_map_imported_from_tree_util():
    from jax.tree_util import tree_map
    params = {"mean": jnp.zeros(2), "cov": jnp.eye(2)}
    return tree_map(lambda p: p * 2.0, params)


# https://github.com/RobertTLange/gymnax/pull/93
# An environment wrapper stacks per-step states with jax.tree_map.
def case_jax_tree_map_in_wrapper():
    states = [{"pos": jnp.zeros(2), "vel": jnp.ones(2)}, {"pos": jnp.ones(2), "vel": jnp.zeros(2)}]
    return jax.tree_map(lambda *xs: jnp.stack(xs), *states)  # reported: JNP504


def case_ok_jax_tree_dot_map_in_wrapper():
    states = [{"pos": jnp.zeros(2), "vel": jnp.ones(2)}, {"pos": jnp.ones(2), "vel": jnp.zeros(2)}]
    return jax.tree.map(lambda *xs: jnp.stack(xs), *states)


# https://github.com/jax-ml/jax/issues/7032
# Warping bounding boxes, the user fills the first two columns of a jnp.ones buffer with NumPy-style
# slice assignment inside a jitted function.
def jx_warp(boxes, m, width, height):
    n = len(boxes)
    xy = jnp.ones((n * 4, 3))
    xy[:, :2] = boxes[:, [0, 1, 2, 3, 0, 3, 2, 1]].reshape(n * 4, 2)  # reported: JNP501
    xy = xy @ m.T
    xy = (xy[:, :2] / xy[:, 2:3]).reshape(n, 8)
    return jnp.clip(xy, 0, max(width, height))


def case_slice_assignment_on_jax_buffer_under_jit():
    return jax.jit(jx_warp, static_argnums=(2, 3))(jnp.ones((2, 4)), jnp.eye(3), 10, 10)


def jx_warp_at(boxes, m, width, height):
    n = len(boxes)
    xy = jnp.ones((n * 4, 3))
    xy = xy.at[:, :2].set(boxes[:, [0, 1, 2, 3, 0, 3, 2, 1]].reshape(n * 4, 2))
    xy = xy @ m.T
    xy = (xy[:, :2] / xy[:, 2:3]).reshape(n, 8)
    return jnp.clip(xy, 0, max(width, height))


def case_ok_at_set_on_jax_buffer_under_jit():
    return jax.jit(jx_warp_at, static_argnums=(2, 3))(jnp.ones((2, 4)), jnp.eye(3), 10, 10)
