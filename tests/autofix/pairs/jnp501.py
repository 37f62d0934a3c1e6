"""JNP501: in-place updates become .at[] updates that rebind the name."""
import jax
import jax.numpy as jnp


def fill(n):
    x = jnp.zeros(n)
    for i in range(n):
        x[i] = i * 2  # in a loop
        x[i] += 1.0
        x[i] -= 0.5
        x[i] *= 2
        x[i] /= 4
        x[i] **= 2
        x[i] //= 1 + 1
    return x


@jax.jit
def clipped(x):
    x[0] = (
        x[1]
        + x[2]
    )
    x.at[1].set(0.0)  # discarded result: rebinding changes what runs, an unsafe fix
    return x


class Buffer:
    def reset(self):
        state = {"w": jnp.zeros(3)}
        state["w"][0] = 1.0  # an entry: the new array would have to be stored back, no fix
        local = jnp.ones(3)
        local[1:] = 0.0; local.sort()  # local.sort() ran and kept the old array: an unsafe fix
        return local


GRID = jnp.zeros(3)


def reset_grid():
    GRID[0] = 1.0  # a global this function only reads: rebinding it here would make it local, no fix
    return GRID
