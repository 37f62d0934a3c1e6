"""JNP505: a list or tuple passed where jax.numpy needs an array."""
import jax
import jax.numpy as jnp


def mean_of(a, b):
    return jnp.mean([a, b])  # a list


@jax.jit
def stacked(x):
    total = 0.0
    for i in range(3):
        total += jnp.sum((x, x * i))
    return total


class Stats:
    def spread(self, values):
        return jnp.std(
            [v * 2 for v in values],
            axis=0,
        )
