"""Ranking losses looked up by name: (pos (B,), neg (B, N)) -> scalar; a module softmax temperature."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

TEMPERATURE = 1.0


def set_temperature(value):
    global TEMPERATURE
    TEMPERATURE = value


def bpr(pos, neg):
    return -jnp.mean(jax.nn.log_sigmoid(pos[:, None] - neg))


def bpr_logaddexp(pos, neg):
    """BPR as log(1 + exp(neg - pos)), as the NumPy prototype wrote it."""
    # project shape (not a thread): NumPy's logaddexp on the traced score differences
    return np.mean(np.logaddexp(0.0, neg - pos[:, None]))  # reported: JNP201


def bpr_logaddexp_ok(pos, neg):
    return jnp.mean(jnp.logaddexp(0.0, neg - pos[:, None]))


def sampled_softmax(pos, neg):
    # project shape (not a thread): the module temperature read while the step is traced; a sweep sets it later
    logits = jnp.concatenate([pos[:, None], neg], axis=1) / TEMPERATURE  # reported: JNP304
    return -jnp.mean(jax.nn.log_softmax(logits, axis=1)[:, 0])


def sampled_softmax_ok(pos, neg, temperature=1.0):
    logits = jnp.concatenate([pos[:, None], neg], axis=1) / temperature
    return -jnp.mean(jax.nn.log_softmax(logits, axis=1)[:, 0])


def bce(pos, neg):
    """Pointwise binary cross-entropy: positives labelled 1, negatives 0."""
    logits = jnp.concatenate([pos[:, None], neg], axis=1)
    labels = jnp.zeros_like(logits).at[:, 0].set(1.0)
    # project shape (not a thread): Optax's sigmoid cross-entropy looked for under jax.nn
    return jnp.mean(jax.nn.sigmoid_binary_cross_entropy(logits, labels))  # reported: JNP502


def bce_ok(pos, neg):
    logits = jnp.concatenate([pos[:, None], neg], axis=1)
    labels = jnp.zeros_like(logits).at[:, 0].set(1.0)
    return jnp.mean(optax.sigmoid_binary_cross_entropy(logits, labels))


LOSSES = {"bpr": bpr, "bpr_logaddexp": bpr_logaddexp, "bpr_logaddexp_ok": bpr_logaddexp_ok,
          "softmax": sampled_softmax, "softmax_ok": sampled_softmax_ok, "bce": bce, "bce_ok": bce_ok}
