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
    print("braces {x}", x)  # text with a brace before the first value
    print("value %.2f" % (x,), "{!r}".format(lr), str(x), end="\n")
    jax.debug.print(f"x = {x:.2f}")
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
            print("layer", i, x)
        return x


def body(carry, x):
    print('carry is', carry)
    return carry + x, x


jax.lax.scan(body, 0.0, jnp.ones(3))
