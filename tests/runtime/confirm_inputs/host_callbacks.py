"""Runtime-confirmation inputs: a jitted function that calls jax.debug.print, and one that prints."""
import jax
import jax.numpy as jnp


@jax.jit
def checked(x):
    jax.debug.print("CASE-OUTPUT x = {x}", x=x)
    return x + 1


@jax.jit
def plain(x):
    print("CASE-OUTPUT", x)  # JNP301: prints while jax.jit traces it, once
    return x * 2


def case_debug_print():
    for _ in range(3):
        checked(jnp.ones(2))


def case_print():
    for _ in range(3):
        plain(jnp.ones(2))
