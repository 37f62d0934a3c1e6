"""Seventh round, held out: mixed integer kinds that JAX promotes to a narrower type than NumPy
(JNP401)."""
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/9931
# Adding an int32 zero to the largest uint32 gives -1: JAX promotes uint32 + int32 to int64 and,
# with x64 off, truncates it to int32 without a warning.
def case_uint32_plus_int32():
    big = jnp.uint32(2 ** 32 - 1)
    return big + jnp.int32(0)  # reported: JNP401


def case_ok_uint32_plus_uint32():
    big = jnp.uint32(2 ** 32 - 1)
    return big + jnp.uint32(0)
