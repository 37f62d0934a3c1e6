"""Sixth round, held out: removed names and Python sequences handed to jax.numpy
(JNP504, JNP505)."""
import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/GoogleCloudPlatform/ml-auto-solutions/pull/838
# A legacy GPT test scales every parameter of its state with jax.tree_map.
def case_tree_map_in_legacy_test():
    params = {"wte": jnp.ones((4, 2)), "ln": jnp.zeros(2)}
    return jax.tree_map(lambda p: p * 0.5, params)  # reported: JNP504


def case_ok_tree_util_tree_map_in_legacy_test():
    params = {"wte": jnp.ones((4, 2)), "ln": jnp.zeros(2)}
    return jax.tree_util.tree_map(lambda p: p * 0.5, params)


# https://github.com/michael-0brien/cryojax/pull/374
# Writing a particle stack to a STAR file turns each array of a parameter tree into a host array
# with jax.tree_map.
def case_tree_map_before_starfile_write():
    pose = {"offset_x": jnp.zeros(3), "offset_y": jnp.ones(3)}
    return jax.tree_map(np.asarray, pose)  # reported: JNP504


def case_ok_tree_dot_map_before_starfile_write():
    pose = {"offset_x": jnp.zeros(3), "offset_y": jnp.ones(3)}
    return jax.tree.map(np.asarray, pose)


# https://github.com/magenta/mt3/pull/72
# A transcription notebook combines two trees of metrics leaf by leaf with jax.tree_multimap.
def case_tree_multimap_on_metrics():
    a = {"loss": jnp.float32(1.0), "acc": jnp.float32(0.5)}
    b = {"loss": jnp.float32(3.0), "acc": jnp.float32(0.7)}
    return jax.tree_multimap(lambda x, y: (x + y) / 2, a, b)  # reported: JNP504


def case_ok_tree_map_of_two_trees_on_metrics():
    a = {"loss": jnp.float32(1.0), "acc": jnp.float32(0.5)}
    b = {"loss": jnp.float32(3.0), "acc": jnp.float32(0.7)}
    return jax.tree.map(lambda x, y: (x + y) / 2, a, b)


# https://github.com/smao-astro/PPDONet/pull/1
# A prediction script tells device arrays apart with the old jnp.DeviceArray type.
def to_host_if_device(value):
    if isinstance(value, jnp.DeviceArray):  # reported: JNP504
        return np.asarray(value)
    return value


def case_device_array_type_check():
    return to_host_if_device(jnp.ones(2))


def to_host_if_device_array(value):
    if isinstance(value, jax.Array):
        return np.asarray(value)
    return value


def case_ok_jax_array_type_check():
    return to_host_if_device_array(jnp.ones(2))


# https://github.com/HenryNdubuaku/nanodl/issues/15
# A model library names the type of its keys jax.random.KeyArray, which recent JAX dropped.
def dropout_mask(key, shape, rate):
    assert isinstance(key, jax.random.KeyArray)  # reported: JNP504
    return jax.random.bernoulli(key, 1.0 - rate, shape)


def case_key_array_type_in_library():
    return dropout_mask(jax.random.key(0), (4,), 0.1)


def dropout_mask_any_key(key, shape, rate):
    assert isinstance(key, jax.Array)
    return jax.random.bernoulli(key, 1.0 - rate, shape)


def case_ok_jax_array_key_in_library():
    return dropout_mask_any_key(jax.random.key(0), (4,), 0.1)


# https://github.com/google/nerfies/issues/53
# Sampling along a ray appends a far distance broadcast from a one-element Python list.
def case_broadcast_to_from_a_list():
    z_vals = jnp.linspace(0.0, 1.0, 8).reshape(2, 4)
    last_sample_z = 1e10
    far = jnp.broadcast_to([last_sample_z], z_vals[..., :1].shape)  # reported: JNP505
    return jnp.concatenate([z_vals, far], axis=-1)


def case_ok_broadcast_to_from_a_scalar():
    z_vals = jnp.linspace(0.0, 1.0, 8).reshape(2, 4)
    last_sample_z = 1e10
    far = jnp.broadcast_to(last_sample_z, z_vals[..., :1].shape)
    return jnp.concatenate([z_vals, far], axis=-1)


# https://github.com/jax-ml/jax/pull/4381
# jnp.absolute of a Python list of integers, as NumPy allows.
def case_absolute_of_a_list():
    return jnp.absolute([1, -2, 3])  # reported: JNP505


def case_ok_absolute_of_an_array():
    return jnp.absolute(jnp.array([1, -2, 3]))
