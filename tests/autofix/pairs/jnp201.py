"""JNP201: NumPy functions on tracers become their jax.numpy twins."""
import functools

import jax
import numpy as np
from numpy import cos


@jax.jit
def activation(x):
    y = np.tanh(x)  # a comment
    for _ in range(2):
        y = np.maximum(
            y,
            np.linalg.norm(x),
        )
    return cos(y)


class Layer:
    @functools.partial(jax.jit, static_argnums=0)
    def forward(self, x):
        return np.unique(x)  # a data-dependent size: no fix
