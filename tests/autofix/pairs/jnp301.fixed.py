"""JNP301: print under a trace becomes jax.debug.print."""
import functools

import jax
import jax.numpy as jnp


@jax.jit
def step(x, lr):
    jax.debug.print("x {!s}", x)  # plain arguments
    jax.debug.print("loss {:.3f}, lr={!r} {{set}}", x.sum(), lr)
    jax.debug.print(
        "multi-line: {!s}",
        x,
    )
    print(x, file=None)  # file=: no fix
    jax.debug.print("{}{!s}", "braces {x} ", x)  # text with a brace before the first value
    jax.debug.print("value {:.2f} {!r} {!s}", x, lr, x)
    jax.debug.print("x = {:.2f}", x)
    print("value %s" % x)  # the right side may hold a tuple: no fix
    print("value %d" % (x,))  # %d: no fix
    print("{1} {0}".format(x, lr))  # out of order: no fix
    print(", ".join(f"{v}" for v in x))  # formats inside: no fix
    print("x", x, end="")  # end=: no fix
    jax.debug.print("{}", str(x))  # no fix
    return x * lr


class Model:
    @functools.partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        for i in range(2):  # in a loop
            jax.debug.print("layer {!s} {!s}", i, x)
        return x


def body(carry, x):
    jax.debug.print("carry is {!s}", carry)
    return carry + x, x


jax.lax.scan(body, 0.0, jnp.ones(3))
