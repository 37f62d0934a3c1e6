"""Fourth round, held out: 64-bit dtypes asked for while x64 is off (JNP402)."""
import jax.numpy as jnp


# https://github.com/Joshuaalbert/jaxns/issues/25
# Prior helpers default their dtype to jnp.float_, a 64-bit type, so every default call warns
# in single precision and gives float32 anyway.
def uniform_base(shape, dtype=jnp.float_):
    return jnp.zeros(shape, dtype)  # reported: JNP402


def case_prior_default_dtype_float_():
    return uniform_base((3,))


def uniform_base_result_type(shape, dtype=None):
    return jnp.zeros(shape, dtype or jnp.result_type(float))


def case_ok_prior_default_from_result_type():
    return uniform_base_result_type((3,))


# https://github.com/jax-ml/jax/pull/11491
# Asking jnp.zeros for float64 positionally.
def case_zeros_positional_float64():
    return jnp.zeros(2, jnp.float64)  # reported: JNP402


def case_ok_zeros_positional_float32():
    return jnp.zeros(2, jnp.float32)
