"""JNP201: NumPy functions on tracers become their jax.numpy twins."""
import functools

import jax
import numpy as np
from numpy import cos


@jax.jit
def activation(x):
    y = jax.numpy.tanh(x)  # a comment
    for _ in range(2):
        y = jax.numpy.maximum(
            y,
            jax.numpy.linalg.norm(x),
        )
    return jax.numpy.cos(y)


class Layer:
    @functools.partial(jax.jit, static_argnums=0)
    def forward(self, x):
        return np.unique(x)  # a data-dependent size: no fix
