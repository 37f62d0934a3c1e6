"""Attack: a case that turns on x64 by a flag name built at runtime must not change the next case."""
import jax
import jax.numpy as jnp


def case_enable_x64():
    jax.config.update("jax_" + "enable_x64", True)


def case_truncated():
    return jnp.zeros(3, dtype=jnp.float64)  # JNP402, confirmed although the case before enabled x64
