"""Attack: a case that writes junk to every descriptor it inherited, then cases that must still run."""
import os

import jax
import jax.numpy as jnp


def case_write_junk():
    for fd in range(3, 256):
        try:
            os.write(fd, b"\x80junk{not json\n")
        except OSError:
            pass


@jax.jit
def step(x):
    print(x)  # JNP301, confirmed by case_after_junk in a new worker
    return x + 1


def case_after_junk():
    for _ in range(3):
        step(jnp.ones(2))
