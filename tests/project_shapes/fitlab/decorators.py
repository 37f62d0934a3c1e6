"""The project's own transform helpers, applied as decorators in steps.py."""
from functools import partial

import jax

# jit with the number of classes static (its third argument)
jit_classes = partial(jax.jit, static_argnums=(2,))


def compiled(fn):
    """The project's jit wrapper."""
    return jax.jit(fn)
