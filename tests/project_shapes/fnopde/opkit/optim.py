"""Hand-written Adam with global-norm clipping; the update is jitted by the step that calls it."""
import jax
import jax.numpy as jnp

UPDATES = 0
GRAD_NORMS = []


def adam_init(params):
    return {"m": jax.tree_util.tree_map(jnp.zeros_like, params), "v": jax.tree_util.tree_map(jnp.zeros_like, params),
            "t": jnp.zeros((), jnp.int32)}


def clip_by_global_norm(grads, max_norm=1.0):
    norm = jnp.sqrt(sum(jnp.sum(jnp.abs(g) ** 2) for g in jax.tree_util.tree_leaves(grads)))
    # project shape (not a thread): the norm kept for the logs from inside the traced update
    GRAD_NORMS.append(norm)  # reported: JNP303
    scale = jnp.minimum(1.0, max_norm / (norm + 1e-6))
    return jax.tree_util.tree_map(lambda g: g * scale, grads)


def adam_update(grads, opt_state, params, lr, b1=0.9, b2=0.99, eps=1e-8):
    global UPDATES
    # project shape (not a thread): an update counter bumped from inside the traced update
    UPDATES += 1  # reported: JNP302
    grads = clip_by_global_norm(grads)
    t = opt_state["t"] + 1
    m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, opt_state["m"], grads)
    v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * jnp.abs(g) ** 2, opt_state["v"], grads)
    step = lambda p, m, v: p - lr * (m / (1 - b1 ** t)) / (jnp.sqrt(v / (1 - b2 ** t)) + eps)  # noqa: E731
    return jax.tree_util.tree_map(step, params, m, v), {"m": m, "v": v, "t": t}


def adam_update_ok(grads, opt_state, params, lr, b1=0.9, b2=0.99, eps=1e-8):
    norm = jnp.sqrt(sum(jnp.sum(jnp.abs(g) ** 2) for g in jax.tree_util.tree_leaves(grads)))
    grads = jax.tree_util.tree_map(lambda g: g * jnp.minimum(1.0, 1.0 / (norm + 1e-6)), grads)
    t = opt_state["t"] + 1
    m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, opt_state["m"], grads)
    v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * jnp.abs(g) ** 2, opt_state["v"], grads)
    step = lambda p, m, v: p - lr * (m / (1 - b1 ** t)) / (jnp.sqrt(v / (1 - b2 ** t)) + eps)  # noqa: E731
    return jax.tree_util.tree_map(step, params, m, v), {"m": m, "v": v, "t": t}, norm
