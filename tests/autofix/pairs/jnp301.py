"""JNP301: print under a trace becomes jax.debug.print."""
import functools

import jax
import jax.numpy as jnp


@jax.jit
def step(x, lr):
    print("x", x)  # plain arguments
    print(f"loss {x.sum():.3f}, lr={lr!r} {{set}}")
    print(
        "multi-line",
        x,
        sep=": ",
    )
    print(x, file=None)  # file=: no fix
    return x * lr


class Model:
    @functools.partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        for i in range(2):  # in a loop
            print("layer", i, x)
        return x


def body(carry, x):
    print('carry is', carry)
    return carry + x, x


jax.lax.scan(body, 0.0, jnp.ones(3))
