"""The jitted computations; train.py drives them."""
import jax
import jax.numpy as jnp


@jax.jit
def predict(posterior, batch):
    return batch[:, None] * posterior[None, :]


# https://github.com/jax-md/jax-md/issues/161
# The neighbour list read from module state by a jitted energy: train.py rebinds it, the
# compiled energy keeps the list it was traced with.
NEIGHBORS = jnp.zeros((8, 2), dtype=jnp.int32)


@jax.jit
def energy(positions):
    pairs = positions[NEIGHBORS[:, 0]] - positions[NEIGHBORS[:, 1]]  # reported: JNP304
    return jnp.sum(pairs ** 2)


@jax.jit
def energy_with(neighbors, positions):
    pairs = positions[neighbors[:, 0]] - positions[neighbors[:, 1]]
    return jnp.sum(pairs ** 2)


def update_neighbors(positions):
    order = jnp.argsort(positions[:, 0])
    return jnp.stack([order, jnp.roll(order, 1)], axis=1).astype(jnp.int32)


# https://github.com/gdsfactory/klujax/issues/34
# A symbolic analysis that calls int() on its input, reached from a jitted Newton step.
def analyze(matrix):
    return int(matrix.sum())  # reported: JNP202


def physics(x):
    return x * analyze(x) - 1.0


def physics_with(x, n):
    return x * n - 1.0


# https://github.com/jax-ml/jax/issues/2515
# A likelihood gradient that builds jit(grad(...)) on every call; train.py calls it in a loop.
def _likelihood(s, m, w):
    return jnp.sum(-jnp.log(1 / (s * jnp.sqrt(2.0 * jnp.pi)) * jnp.exp(-(((w - m) / s) ** 2) / 2.0)))


def likelihood_grad(pars, w):
    return jax.jit(jax.grad(_likelihood))(pars[0], pars[1], w)  # reported: JNP602


_likelihood_grad = jax.jit(jax.grad(_likelihood))


def likelihood_grad_fast(pars, w):
    return _likelihood_grad(pars[0], pars[1], w)


@jax.jit
def rollout(state):
    for _ in range(4):
        state = jnp.tanh(state @ state.T) @ state
    return state
