"""Losses on TD errors and policy logits."""
import jax
import jax.numpy as jnp
import numpy as np


def squared(err):
    return 0.5 * err ** 2


def huber(err, delta=1.0):
    # project shape (not a thread): NumPy's abs on the TD error the jitted update traces
    abs_err = np.abs(err)  # reported: JNP201
    quad = jnp.minimum(abs_err, delta)
    return 0.5 * quad ** 2 + delta * (abs_err - quad)


def huber_jnp(err, delta=1.0):
    abs_err = jnp.abs(err)
    quad = jnp.minimum(abs_err, delta)
    return 0.5 * quad ** 2 + delta * (abs_err - quad)


LOSSES = {"squared": squared, "huber": huber, "huber_jnp": huber_jnp}


def entropy(logits):
    probs = jax.nn.softmax(logits)
    # project shape (not a thread): p log p of masked actions (p == 0) is hidden by the where in
    # the forward pass, not in the gradient
    plogp = jnp.where(probs > 0, probs * jnp.log(probs), 0.0)  # reported: JNP604
    return -plogp.sum(-1)


def entropy_safe(logits):
    probs = jax.nn.softmax(logits)
    safe = jnp.where(probs > 0, probs, 1.0)
    return -jnp.where(probs > 0, probs * jnp.log(safe), 0.0).sum(-1)
