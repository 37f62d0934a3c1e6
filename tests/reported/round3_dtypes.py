"""Third round, held out: 64-bit requests without x64 (JNP402, JNP403)."""
import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/google/TensorNetwork/issues/251
# A float64 tensor of ones for the JAX backend, silently float32.
def case_ones_float64_without_x64():
    a = jax.numpy.ones((2, 2), dtype=np.float64)  # reported: JNP402
    return a.dtype


def case_ok_ones_float32():
    a = jax.numpy.ones((2, 2), dtype=np.float32)
    return a.dtype


# https://github.com/google/TensorNetwork/issues/251
# A NumPy float64 tensor handed to the JAX backend: it arrives as float32.
def case_numpy_float64_tensor_to_jax():
    node = jnp.asarray(np.random.rand(2, 3))  # reported: JNP403
    return node.dtype


def case_ok_numpy_float32_tensor_to_jax():
    node = jnp.asarray(np.random.rand(2, 3).astype(np.float32))
    return node.dtype


# https://github.com/cpgoodri/jax_transformations3d/issues/1
# Everything cast to float64 for precision, which without x64 is float32.
def case_cast_to_float64_without_x64():
    matrix = jnp.eye(4)
    return matrix.astype(jnp.float64)  # reported: JNP402


def case_ok_cast_to_float32():
    matrix = jnp.eye(4)
    return matrix.astype(jnp.float32)
