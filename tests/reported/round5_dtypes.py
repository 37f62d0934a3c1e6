"""Fifth round, held out: 64-bit NumPy data handed to JAX and integer overflow in 32 bits (JNP403,
off by default, and one no rule covers)."""
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/issues/11012
# jnp.where over float64 NumPy arrays returns float32 while x64 is off.
def case_where_over_float64_numpy():
    mask = np.array(True)
    a = np.ones((2, 2), dtype=np.float64)
    b = np.array(np.nan, dtype=np.float64)
    return jnp.where(mask, a, b)  # reported: JNP403


def case_ok_where_over_float32_numpy():
    mask = np.array(True)
    a = np.ones((2, 2), dtype=np.float32)
    b = np.array(np.nan, dtype=np.float32)
    return jnp.where(mask, a, b)


# https://github.com/jax-ml/jax/issues/8604
# Powers of 256 computed on a jnp integer range overflow int32, so the last scale becomes inf.
def case_integer_power_overflows_int32():
    return (1 / 256 ** jnp.arange(1, 5)).astype(jnp.float32)  # reported: none


def case_ok_float_power():
    return (1 / 256.0 ** jnp.arange(1, 5)).astype(jnp.float32)
