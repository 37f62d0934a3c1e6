"""JNP402: 64-bit requests with x64 off ask for the 32-bit dtype."""
import jax.numpy as jnp
import numpy as np

WIDE = jnp.float64

a = jnp.zeros(3, dtype=jnp.float32)  # keyword
b = jnp.ones(2, "int32")
c = jnp.float32(1.5)
d = jnp.asarray([1, 2], dtype=np.complex64)
e = jnp.zeros(3, dtype=WIDE)  # a variable: no fix


def widen(x):
    for _ in range(2):
        x = x.astype(
            jnp.float64,
        )
    return x
