"""Eighth round, held out: 64-bit dtypes asked of JAX while x64 is off (JNP402, JNP403)."""
import jax.numpy as jnp
import numpy as np


# https://github.com/enpasos/jax2onnx/issues/101
# The test inputs of a scatter_mul plugin are built with dtype=jnp.float64; x64 is off, so JAX
# warns at every call and gives float32.
def scatter_mul_inputs():
    operand = jnp.ones((5, 208, 1, 1), dtype=jnp.float64)  # reported: JNP402
    updates = jnp.full((5, 4, 1, 1), 2.0, dtype=jnp.float64)  # reported: JNP402
    return operand, updates


def case_float64_test_inputs_without_x64():
    return scatter_mul_inputs()


def scatter_mul_inputs_float32():
    operand = jnp.ones((5, 208, 1, 1), dtype=jnp.float32)
    updates = jnp.full((5, 4, 1, 1), 2.0, dtype=jnp.float32)
    return operand, updates


def case_ok_float32_test_inputs():
    return scatter_mul_inputs_float32()


# https://github.com/jax-ml/jax/issues/4490
# Averaging NumPy data with jnp.mean: np.ones is float64, which JAX narrows to float32 while x64
# is off.
def case_numpy_float64_data_to_jnp_mean():
    return jnp.mean(np.ones(30))  # reported: JNP403


def case_ok_numpy_float32_data_to_jnp_mean():
    return jnp.mean(np.ones(30, dtype=np.float32))
