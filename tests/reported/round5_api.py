"""Fifth round, held out: in-place updates, removed names and Python sequences handed to jax.numpy
(JNP501, JNP504, JNP505)."""
import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/issues/2219
# A simulation fills a state vector entry by entry, as it would a NumPy array.
def case_item_assignment_on_jax_state():
    state = jnp.zeros(4)
    for i in range(4):
        state[i] = i * 0.5  # reported: JNP501
    return state


def case_ok_at_set_on_jax_state():
    state = jnp.zeros(4)
    for i in range(4):
        state = state.at[i].set(i * 0.5)
    return state


# https://github.com/jax-ml/jax/issues/4837
# Averaging several gradients kept in a Python list, as np.mean allows.
def case_mean_of_a_list_of_arrays():
    grads = [np.random.default_rng(i).random((4, 2), dtype=np.float32) for i in range(3)]
    return jnp.mean(grads, axis=0)  # reported: JNP505


def case_ok_mean_of_stacked_arrays():
    grads = [np.random.default_rng(i).random((4, 2), dtype=np.float32) for i in range(3)]
    return jnp.mean(jnp.stack(grads), axis=0)


# https://github.com/jax-ml/jax/issues/3451
# Summing the parts of a loss kept in a tuple.
def case_sum_of_a_tuple():
    parts = (jnp.zeros(1), jnp.ones(1))
    return jnp.sum(parts)  # reported: JNP505


def case_ok_sum_of_an_array():
    parts = (jnp.zeros(1), jnp.ones(1))
    return jnp.sum(jnp.concatenate(parts))


# https://github.com/dionhaefner/pyhpc-benchmarks/issues/13
# A benchmark's isoneutral mixing kernel writes a slice with jax.ops.index_update, which is gone.
def case_index_update_in_kernel():
    dTdz = jnp.zeros((4, 4))
    dTdz = jax.ops.index_update(dTdz, jax.ops.index[:, 1:], 1.0)  # reported: JNP504
    return dTdz


def case_ok_at_set_in_kernel():
    dTdz = jnp.zeros((4, 4))
    return dTdz.at[:, 1:].set(1.0)


# https://github.com/LargeWorldModel/LWM/issues/59
# A sampling script checks its outputs against jnp.DeviceArray, which no longer exists.
def to_host(value):
    if isinstance(value, jnp.DeviceArray):  # reported: JNP504
        return np.asarray(value)
    return value


def case_device_array_isinstance_check():
    return to_host(jnp.ones(3))


def to_host_array(value):
    if isinstance(value, jax.Array):
        return np.asarray(value)
    return value


def case_ok_jax_array_isinstance_check():
    return to_host_array(jnp.ones(3))


# https://github.com/rohitgandikota/sliders/issues/97
# A notebook annotates its key helper with jax.random.KeyArray, removed from jax.random.
def case_key_array_annotation():
    def next_key(key: jax.random.KeyArray):  # reported: JNP504
        return jax.random.split(key)[0]

    return next_key(jax.random.key(0))


def case_ok_jax_array_annotation():
    def next_key(key: jax.Array):
        return jax.random.split(key)[0]

    return next_key(jax.random.key(0))
