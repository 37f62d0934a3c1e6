"""Eleventh round, held out: tile and pad asked for repetitions and widths that the jitted function
computed, and unique on an array a partial closes over (JNP202, JNP203)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit as jjit


# https://github.com/jax-ml/jax/issues/16994
# A Keras example made backend-agnostic tiles a (1, 20, 20) array by repetitions held in a NumPy
# array; it works eagerly, but under jax.jit the repetitions are traced and jnp.tile needs them as
# Python integers.
@jax.jit
def foo_jit(a, b):
    return jnp.tile(a, b)  # reported: JNP202


def case_repetitions_passed_to_jitted_tile():
    a = np.zeros([1, 20, 20])
    b = np.array([64, 1, 1])
    return foo_jit(a, b).shape


@partial(jax.jit, static_argnums=1)
def foo_jit_static(a, b):
    return jnp.tile(a, b)


def case_ok_repetitions_static():
    a = np.zeros([1, 20, 20])
    return foo_jit_static(a, (64, 1, 1)).shape


# https://github.com/jax-ml/jax/issues/3620
# The padding widths are built with jnp.zeros and an indexed update, so inside the jitted function
# they are a traced array even though pad_size is static, and jnp.pad cannot read them.
def pad_last_dim(array, pad_size):
    ndim = jnp.ndim(array)
    npad = jnp.zeros((ndim, 2), dtype=jnp.int32)
    axis = ndim - 1
    npad = npad.at[axis, 1].set(pad_size)
    return jnp.pad(array, npad, "constant", constant_values=0)  # reported: JNP202


def case_pad_widths_built_with_jnp_under_jit():
    vals = np.random.randn(50, 100)
    return jjit(pad_last_dim, static_argnums=(1,))(vals, 1).shape


def pad_last_dim_tuples(array, pad_size):
    ndim = jnp.ndim(array)
    npad = [(0, 0)] * (ndim - 1) + [(0, pad_size)]
    return jnp.pad(array, npad, "constant", constant_values=0)


def case_ok_pad_widths_built_as_tuples():
    vals = np.random.randn(50, 100)
    return jjit(pad_last_dim_tuples, static_argnums=(1,))(vals, 1).shape


# https://github.com/aesara-devs/aesara/issues/89
# The JAX linker jits a partial that binds the input; with jax 0.2.1 jnp.unique refuses it, since
# under jit the bound array is staged like any other operand and unique's output length depends
# on its values.
a = np.arange(6).reshape((3, 2))


def unique(x):
    return jax.numpy.unique(x)  # reported: JNP203


def case_unique_of_a_bound_array_under_jit():
    return jax.jit(partial(unique, a))()


def unique_sized(x):
    return jax.numpy.unique(x, size=x.size)


def case_ok_unique_with_a_static_size_under_jit():
    return jax.jit(partial(unique_sized, a))()
