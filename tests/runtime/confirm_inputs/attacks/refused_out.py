"""Attack: jax.numpy refuses out= with NotImplementedError, which is a refused argument too."""
import jax.numpy as jnp


def case_out():
    a = jnp.arange(3.0)
    b = jnp.zeros(3)
    jnp.add(a, a, out=b)  # JNP503, confirmed by the NotImplementedError
