"""JNP504: removed names with a one-to-one replacement get it; the others stay."""
import jax
import jax.numpy as jnp
from jax import tree_map  # an import of a removed name: its uses would need renaming, no fix


def tree_sizes(trees):
    sizes = []
    for tree in trees:  # in a loop
        sizes.append(len(jax.tree.leaves(tree)))  # leaves of each
    return sizes


@jax.jit
def total(x):
    return jnp.prod(x) + jax.numpy.all(x > 0)


class Integrator:
    def area(self, y):
        return jnp.trapezoid(
            y,
            dx=0.5,
        )


stacked = jnp.vstack([jnp.ones(2), jnp.zeros(2)])
doubled = jax.tree.map(lambda v: v * 2, {"a": 1.0})
shuffled = jax.random.shuffle(jax.random.PRNGKey(0), jnp.arange(3))  # no one-to-one replacement: no fix
