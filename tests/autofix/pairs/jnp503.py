"""JNP503: out= becomes an assignment; kind= of a sort becomes stable=True."""
import jax.numpy as jnp

a, b = jnp.ones(3), jnp.arange(3.0)
c = jnp.zeros(3)
jnp.add(a, b, out=c)  # out= as a statement
d = jnp.sort(b, kind="stable")
e = jnp.argsort(
    b,
    kind="quicksort",
)


for _ in range(2):  # in a loop
    jnp.multiply(a, 2.0, out=c)


class Sorter:
    def order(self, x):
        return jnp.sort(x, kind="mergesort"), jnp.sort(x, order="f")  # order=: no fix
