"""A small Adam, so the package depends on JAX and NumPy only."""
import jax
import jax.numpy as jnp

LEARNING_RATE = 2e-3


def set_learning_rate(lr):
    """Called by the scripts between phases (warm-up, decay)."""
    global LEARNING_RATE
    LEARNING_RATE = lr


def adam_init(params):
    return {"m": jax.tree_util.tree_map(jnp.zeros_like, params),
            "v": jax.tree_util.tree_map(jnp.zeros_like, params),
            "count": jnp.zeros((), jnp.int32)}


def adam_update(grads, state, params, b1=0.9, b2=0.999, eps=1e-8):
    count = state["count"] + 1
    m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
    v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
    m_hat = jax.tree_util.tree_map(lambda m: m / (1 - b1 ** count), m)
    v_hat = jax.tree_util.tree_map(lambda v: v / (1 - b2 ** count), v)
    # project shape (not a thread): the learning rate set_learning_rate() rebinds, read in the jitted step
    dp = jax.tree_util.tree_map(lambda m, v: LEARNING_RATE * m / (jnp.sqrt(v) + eps), m_hat, v_hat)  # reported: JNP304
    new_params = jax.tree_util.tree_map(lambda p, d: p - d, params, dp)
    return new_params, {"m": m, "v": v, "count": count}


def global_norm(tree):
    return jnp.sqrt(sum(jnp.sum(leaf ** 2) for leaf in jax.tree_util.tree_leaves(tree)))
