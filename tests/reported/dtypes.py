"""64-bit requests without x64, and silent promotion (JNP401, JNP402)."""
import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/issues/1333
def case_ones_float64():
    return jnp.ones((2, 2), dtype=np.float64)  # reported: JNP402


def case_ok_ones_float32():
    return jnp.ones((2, 2), dtype=np.float32)


# https://github.com/jax-ml/jax/issues/17366
def case_uniform_float64():
    return jax.random.uniform(jax.random.PRNGKey(0), dtype=jnp.float64)  # reported: JNP402


def case_ok_uniform_float32():
    return jax.random.uniform(jax.random.PRNGKey(0), dtype=jnp.float32)


# https://github.com/google-research/google-research/issues/964
def case_zeros_jnp_float64():
    return jnp.zeros((4, 3), jnp.float64)  # reported: JNP402


def case_ok_zeros_default_dtype():
    return jnp.zeros((4, 3))


# https://github.com/NicolasZucchet/minimal-LRU/issues/4
# A model initialiser that asks for float64 parameters.
def _init_ring(n, r_min=0.4, r_max=0.9):
    u = jnp.linspace(0.0, 1.0, n, dtype=jnp.float64)  # reported: JNP402
    return jnp.log(-0.5 * jnp.log(u * (r_max ** 2 - r_min ** 2) + r_min ** 2))


def case_float64_model_init():
    return _init_ring(4)


def _init_ring_fixed(n, r_min=0.4, r_max=0.9):
    u = jnp.linspace(0.0, 1.0, n, dtype=jnp.float32)
    return jnp.log(-0.5 * jnp.log(u * (r_max ** 2 - r_min ** 2) + r_min ** 2))


def case_ok_float32_model_init():
    return _init_ring_fixed(4)


# https://github.com/climate-analytics-lab/jax-gcm/pull/175
# jnp.float_ is float64 in JAX, not the platform default.
def case_float_alias_is_float64():
    return jnp.asarray([1.0, 2.0], dtype=jnp.float_)  # reported: JNP402


def case_ok_float32_named():
    return jnp.asarray([1.0, 2.0], dtype=jnp.float32)


# https://github.com/jax-ml/jax/issues/4187
# uint32 mixed with int8: the promoted type does not hold the unsigned value.
def case_uint32_plus_int8():
    a = jnp.array([2 ** 32 - 1], dtype=jnp.uint32)
    b = jnp.array([1], dtype=jnp.int8)
    return a + b  # reported: JNP401


def case_ok_same_dtype_sum():
    a = jnp.array([2 ** 32 - 1], dtype=jnp.uint32)
    b = jnp.array([1], dtype=jnp.uint32)
    return a + b


# https://github.com/pytorch/pytorch/issues/43049 (the RFC quotes JAX: float16 + bfloat16 gives float32)
# Mixed half-precision activations: the sum silently doubles in width.
def case_float16_plus_bfloat16():
    a = jnp.ones(4, dtype=jnp.float16)
    b = jnp.ones(4, dtype=jnp.bfloat16)
    return a + b  # reported: JNP401


def case_ok_one_half_precision_dtype():
    a = jnp.ones(4, dtype=jnp.bfloat16)
    b = jnp.ones(4, dtype=jnp.bfloat16)
    return a + b
