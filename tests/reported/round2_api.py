"""Second round, held out: NumPy habits and old names jax.numpy rejects
(JNP501, JNP503, JNP504, JNP505)."""
import functools
from typing import NamedTuple

import jax
import jax.experimental
import jax.numpy as jn
import jax.numpy as jnp
import numpy as onp


# https://github.com/google/objax/issues/59
# An in-place slice increment, as in NumPy.
def case_slice_augmented_assignment():
    v = jn.arange(10)
    v[2:4] += 1  # reported: JNP501
    return v


def case_ok_slice_at_add():
    v = jn.arange(10)
    v = v.at[2:4].add(1)
    return v


# https://github.com/jax-ml/jax/issues/101
# Filling a training set block by block into a jax.numpy array.
def case_block_assignment_into_training_set():
    x_train = jnp.zeros((30, 2, 2, 1))
    for i in range(1, 4):
        data = onp.ones((10, 2, 2, 1))
        x_train[(i - 1) * 10: i * 10, :, :, :] = data  # reported: JNP501
    return x_train


def case_ok_block_assignment_into_numpy_then_convert():
    x_train = onp.zeros((30, 2, 2, 1))
    for i in range(1, 4):
        data = onp.ones((10, 2, 2, 1))
        x_train[(i - 1) * 10: i * 10, :, :, :] = data
    return jnp.asarray(x_train)


# https://github.com/LargeWorldModel/LWM/issues/41
# An optimizer state annotated with jnp.DeviceArray, removed in JAX 0.4.14.
def case_device_array_annotation():
    class OptaxScheduledWeightDecayState(NamedTuple):
        count: jnp.DeviceArray  # reported: JNP504

    return OptaxScheduledWeightDecayState(jnp.zeros([], jnp.int32))


def case_ok_jax_array_annotation():
    class OptaxScheduledWeightDecayState(NamedTuple):
        count: jax.Array

    return OptaxScheduledWeightDecayState(jnp.zeros([], jnp.int32))


# https://github.com/rstudio/reticulate/issues/1595
# jnp.product, a NumPy alias JAX deprecated and removed.
def case_jnp_product():
    return jnp.product(jnp.array([2.0, 3.0]))  # reported: JNP504


def case_ok_jnp_prod():
    return jnp.prod(jnp.array([2.0, 3.0]))


# https://github.com/jax-ml/jax/issues/11280
# jax.partial, once re-exported from functools, removed.
def case_jax_partial():
    add = jax.partial(jnp.add, 1.0)  # reported: JNP504
    return add(jnp.ones(2))


def case_ok_functools_partial():
    add = functools.partial(jnp.add, 1.0)
    return add(jnp.ones(2))


# https://github.com/RobertTLange/gymnax/issues/27
# An environment's auto-reset selecting between two states with tree_multimap.
def case_tree_multimap_in_env_step():
    done = jnp.asarray(True)
    state_re = {"pos": jnp.zeros(2), "t": jnp.asarray(0)}
    state_st = {"pos": jnp.ones(2), "t": jnp.asarray(5)}
    state = jax.tree_multimap(  # reported: JNP504
        lambda x, y: jax.lax.select(done, x, y), state_re, state_st
    )
    return state


def case_ok_tree_map_in_env_step():
    done = jnp.asarray(True)
    state_re = {"pos": jnp.zeros(2), "t": jnp.asarray(0)}
    state_st = {"pos": jnp.ones(2), "t": jnp.asarray(5)}
    state = jax.tree_util.tree_map(
        lambda x, y: jax.lax.select(done, x, y), state_re, state_st
    )
    return state


# https://github.com/sokrypton/ColabFold/issues/300
# A sharded map helper reading argument sizes with the removed top-level tree functions.
def _maybe_get_size(x, axis):
    return x.shape[axis] if axis is not None else -1


def case_tree_multimap_and_tree_flatten_in_mapping():
    args, in_axes_ = (jnp.ones((4, 2)), jnp.ones(3)), (0, None)
    in_sizes = jax.tree_multimap(_maybe_get_size, args, in_axes_)  # reported: JNP504
    flat_sizes = jax.tree_flatten(in_sizes)[0]  # reported: JNP504
    return max(flat_sizes)


def case_ok_tree_util_in_mapping():
    args, in_axes_ = (jnp.ones((4, 2)), jnp.ones(3)), (0, None)
    in_sizes = jax.tree_util.tree_map(_maybe_get_size, args, in_axes_)
    flat_sizes = jax.tree_util.tree_flatten(in_sizes)[0]
    return max(flat_sizes)


# https://github.com/gordicaleksa/get-started-with-JAX/pull/3
# tree_multimap under jax.tree_util, removed in JAX 0.3.16.
def case_tree_util_tree_multimap():
    params = [jnp.ones(2), jnp.ones(3)]
    grads = [jnp.ones(2), jnp.ones(3)]
    return jax.tree_util.tree_multimap(lambda p, g: p - 0.1 * g, params, grads)  # reported: JNP504


def case_ok_tree_util_tree_map_two_trees():
    params = [jnp.ones(2), jnp.ones(3)]
    grads = [jnp.ones(2), jnp.ones(3)]
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)


# https://github.com/jax-md/jax-md/issues/305
# jax.linear_util, moved to jax.extend and removed from the top level.
def case_jax_linear_util():
    lu = jax.linear_util  # reported: JNP504
    return lu


def case_ok_jax_extend_linear_util():
    import jax.extend
    return jax.extend.linear_util


# https://github.com/jax-ml/jax/issues/1328
# NumPy's out= given to jax.numpy.exp.
def case_exp_out_keyword():
    a_jnp = jnp.zeros(2)
    b = jnp.ones(2)
    jnp.exp(b, out=a_jnp)  # reported: JNP503
    return a_jnp


def case_ok_exp_result_bound():
    b = jnp.ones(2)
    a_jnp = jnp.exp(b)
    return a_jnp


# https://github.com/jax-ml/jax/issues/365
# A Python list given to an elementwise jax.numpy function.
def case_sin_of_list():
    return jnp.sin([0.2, 0.4])  # reported: JNP505


def case_ok_sin_of_array():
    return jnp.sin(jnp.array([0.2, 0.4]))


# https://github.com/Joshuaalbert/jaxns/pull/46
# Quantiles given as a list to jnp.percentile (rejected since JAX 0.2.21).
def case_percentile_of_list_quantiles():
    samples = jnp.linspace(0.0, 1.0, 101)
    return jnp.percentile(samples, [50, 16, 84])  # reported: JNP505


def case_ok_percentile_of_array_quantiles():
    samples = jnp.linspace(0.0, 1.0, 101)
    return jnp.percentile(samples, jnp.array([50, 16, 84]))


# https://github.com/jax-ml/jax/pull/7662
# Set operations given Python lists.
def case_setdiff_of_lists():
    return jnp.setdiff1d([1, 2, 3], [2])  # reported: JNP505


def case_ok_setdiff_of_arrays():
    return jnp.setdiff1d(jnp.array([1, 2, 3]), jnp.array([2]))


# https://github.com/jax-ml/jax/pull/23397
# jnp.round_, removed from NumPy 2.0 and then from jax.numpy.
def case_jnp_round_underscore():
    return jnp.round_(jnp.array([1.26, 2.5]), 1)  # reported: JNP504


def case_ok_jnp_round():
    return jnp.round(jnp.array([1.26, 2.5]), 1)


# https://github.com/jax-ml/jax/pull/16232
# jnp.alltrue, deprecated with NumPy 1.25 and removed.
def case_jnp_alltrue():
    return jnp.alltrue(jnp.array([True, False]))  # reported: JNP504


def case_ok_jnp_all():
    return jnp.all(jnp.array([True, False]))


# https://github.com/jax-ml/jax/pull/17261
# jnp.in1d, deprecated for jnp.isin and removed.
def case_jnp_in1d():
    return jnp.in1d(jnp.array([1, 2, 3]), jnp.array([2]))  # reported: JNP504


def case_ok_jnp_isin():
    return jnp.isin(jnp.array([1, 2, 3]), jnp.array([2]))


# https://github.com/jax-ml/jax/pull/36167
# The experimental x64 context manager, removed in JAX 0.10.0 for jax.enable_x64.
def case_experimental_enable_x64():
    with jax.experimental.enable_x64():  # reported: JNP504
        return jnp.arange(3.0).dtype


def case_ok_enable_x64():
    with jax.enable_x64(True):
        return jnp.arange(3.0).dtype


# https://github.com/spdes/chirpgp/issues/2
# The old way to reach the config, `from jax.config import config`.
def case_from_jax_config_import_config():
    from jax.config import config  # reported: JNP504
    config.update("jax_enable_x64", False)


def case_ok_jax_config_update():
    jax.config.update("jax_enable_x64", False)
