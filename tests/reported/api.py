"""NumPy habits jax.numpy rejects (JNP501, JNP502, JNP503, JNP504, JNP505)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/pull/24315
def case_item_assignment():
    x = jnp.arange(4)
    x[0] = 1  # reported: JNP501
    return x


def case_ok_at_set():
    x = jnp.arange(4)
    x = x.at[0].set(1)
    return x


# https://github.com/BYUCamachoLab/simphony/issues/88
# Filling a result matrix entry by entry in a loop.
def case_item_assignment_in_loop():
    s = jnp.zeros((3, 3))
    for i in range(3):
        s[i, i] = 1.0  # reported: JNP501
    return s


def case_ok_at_set_in_loop():
    s = jnp.zeros((3, 3))
    for i in range(3):
        s = s.at[i, i].set(1.0)
    return s


# https://github.com/vincentarelbundock/marginaleffects/issues/1587
# Standard errors of zero replaced through a boolean mask.
def case_masked_assignment():
    se = jnp.array([0.0, 0.5, 0.0])
    se[se == 0] = jnp.nan  # reported: JNP501
    return se


def case_ok_masked_where():
    se = jnp.array([0.0, 0.5, 0.0])
    return jnp.where(se == 0, jnp.nan, se)


# https://github.com/Naruki-Ichihara/feax/pull/3
def case_tree_map_removed():
    return jax.tree_map(lambda x: x * 2, {"w": jnp.ones(2)})  # reported: JNP504


def case_ok_tree_map_new_name():
    return jax.tree.map(lambda x: x * 2, {"w": jnp.ones(2)})


# https://github.com/waymo-research/waymax/pull/77
# The removed name passed as a function, not called directly.
def case_tree_map_passed_as_function():
    mapper = jax.tree_map  # reported: JNP504
    return mapper(jnp.negative, [jnp.ones(2)])


def case_ok_tree_util_passed_as_function():
    mapper = jax.tree_util.tree_map
    return mapper(jnp.negative, [jnp.ones(2)])


# https://github.com/google/trajax/issues/9
def case_tree_multimap_removed():
    return jax.tree_multimap(lambda a, b: a + b, [jnp.ones(2)], [jnp.ones(2)])  # reported: JNP504


def case_ok_tree_map_of_two_trees():
    return jax.tree.map(lambda a, b: a + b, [jnp.ones(2)], [jnp.ones(2)])


# https://github.com/jax-ml/jax/issues/5044
def case_max_of_list():
    return jnp.max([1, 2])  # reported: JNP505


def case_ok_max_of_array():
    return jnp.max(jnp.array([1, 2]))


# https://github.com/jax-ml/jax/issues/15500
# The norm of a list of per-leaf gradient norms.
def case_norm_of_list():
    grads = [jnp.ones(3), jnp.ones(2)]
    return jnp.linalg.norm([jnp.linalg.norm(g) for g in grads])  # reported: JNP505


def case_ok_norm_of_stacked():
    grads = [jnp.ones(3), jnp.ones(2)]
    return jnp.linalg.norm(jnp.stack([jnp.linalg.norm(g) for g in grads]))


# https://github.com/jax-ml/jax/issues/3038
def case_mean_of_list():
    x = [jnp.ones(()), jnp.ones(())]
    return jnp.mean(x)  # reported: JNP505


def case_ok_mean_of_array():
    x = jnp.array([jnp.ones(()), jnp.ones(())])
    return jnp.mean(x)


# https://github.com/jax-ml/jax/pull/4929
# NumPy's out= keyword given to a jax.numpy reduction.
def case_out_keyword():
    buf = jnp.zeros(())
    return jnp.sum(jnp.ones(3), out=buf)  # reported: JNP503


def case_ok_result_returned():
    return jnp.sum(jnp.ones(3))


# https://github.com/jax-ml/jax/issues/70 (comment: np.asanyarray)
def case_asanyarray_missing():
    return jnp.asanyarray([1.0, 2.0])  # reported: JNP502


def case_ok_asarray():
    return jnp.asarray([1.0, 2.0])


# https://github.com/StanfordASL/RiskAverseTrajOpt/issues/2
# The array method to_py(), removed from JAX arrays.
def case_to_py_removed():
    p = jnp.arange(3.0)
    return p.to_py()  # reported: JNP504


def case_ok_numpy_asarray():
    import numpy as np
    p = jnp.arange(3.0)
    return np.asarray(p)


# https://github.com/google/jax-cfd/issues/226
# An isinstance check against jnp.DeviceArray, removed in favour of jax.Array.
def case_device_array_removed():
    x = jnp.ones(2)
    return isinstance(x, jnp.DeviceArray)  # reported: JNP504


def case_ok_jax_array_type():
    x = jnp.ones(2)
    return isinstance(x, jax.Array)
