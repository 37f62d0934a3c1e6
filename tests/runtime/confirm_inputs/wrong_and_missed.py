"""Runtime-confirmation inputs: a finding that is wrong at runtime, and a pitfall the linter cannot see."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

TRANSFORMS = {"jit": jax.jit}


@partial(jax.jit, static_argnums=1)
def scaled(x, factor):
    print("CASE-OUTPUT scaling by", factor)  # JNP301, but each new static factor retraces
    return x * factor


def softplus(x):
    return np.log1p(np.exp(x))  # traced through a dict lookup the linter cannot follow


def case_new_static_argument_each_call():
    for factor in (1, 2, 3):
        scaled(jnp.ones(2), factor)


def case_jit_through_a_dict():
    TRANSFORMS["jit"](softplus)(jnp.ones(3))
