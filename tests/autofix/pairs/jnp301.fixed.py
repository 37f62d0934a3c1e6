"""JNP301: print under a trace becomes jax.debug.print."""
import functools

import jax
import jax.numpy as jnp


@jax.jit
def step(x, lr):
    jax.debug.print("x {}", x)  # plain arguments
    jax.debug.print("loss {:.3f}, lr={!r} {{set}}", x.sum(), lr)
    jax.debug.print(
        "multi-line: {}",
        x,
    )
    print(x, file=None)  # file=: no fix
    return x * lr


class Model:
    @functools.partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        for i in range(2):  # in a loop
            jax.debug.print("layer {} {}", i, x)
        return x


def body(carry, x):
    jax.debug.print("carry is {}", carry)
    return carry + x, x


jax.lax.scan(body, 0.0, jnp.ones(3))
