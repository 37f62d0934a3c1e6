"""Attack: each run of this case takes about 3 s, and it runs twice (jitted, then without jit),
so --timeout 5 must apply to one run, not to both together."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    print(x)  # JNP301, confirmed by case_slow
    return x + 1


def case_slow():
    time.sleep(3)
    for _ in range(3):
        step(jnp.ones(2))
