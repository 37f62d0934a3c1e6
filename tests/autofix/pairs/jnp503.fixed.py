"""JNP503: out= becomes an assignment; kind= of a sort becomes stable=True."""
import jax.numpy as jnp

a, b = jnp.ones(3), jnp.arange(3.0)
c = jnp.zeros(3)
c = jnp.add(a, b)  # out= as a statement
d = jnp.sort(b, stable=True)
e = jnp.argsort(
    b,
)


for _ in range(2):  # in a loop
    c = jnp.multiply(a, 2.0)


class Sorter:
    def order(self, x):
        return jnp.sort(x, stable=True), jnp.sort(x, order="f")  # order=: no fix
