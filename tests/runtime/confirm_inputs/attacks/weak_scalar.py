"""Attack: a weakly typed Python scalar is no promotion, under strict promotion either."""
import jax.numpy as jnp


def case_int_times_half():
    counts = jnp.arange(4, dtype=jnp.int32)
    return counts * 0.5  # no finding, and no missed event
