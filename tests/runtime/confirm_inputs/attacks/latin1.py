# -*- coding: latin-1 -*-
"""Attack: a latin-1 coding cookie and a latin-1 byte (é), as Python accepts it."""
import jax


@jax.jit
def relu(x):
    if x > 0:  # JNP202, confirmed by case_relu
        return x
    return 0.0 * x


def case_relu():
    relu(1.0)
