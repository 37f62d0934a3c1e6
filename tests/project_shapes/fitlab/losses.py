"""Losses; the helpers come from utils.py by a star import."""
import jax
import jax.numpy as jnp

from .models import forward, normalize, normalize_ok
from .utils import *  # noqa: F403

# Softmax temperature; train.py anneals it.
TEMPERATURE = 1.0


def mse(params, X, y):
    pred = forward(params, normalize(X))
    return jnp.mean((pred[:, 0] - y) ** 2)


def mse_ok(params, X, y):
    pred = forward(params, normalize_ok(X))
    return jnp.mean((pred[:, 0] - y) ** 2)


def xent(params, X, labels, weights):
    # project shape (not a thread): a global the annealing loop in train.py rebinds
    logits = forward(params, X) / TEMPERATURE  # reported: JNP304
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.sum(one_hot(labels, 3) * logp * weights, axis=-1))  # noqa: F405


def xent_at(params, X, labels, weights, temperature):
    logits = forward(params, X) / temperature
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.sum(one_hot(labels, 3) * logp * weights, axis=-1))  # noqa: F405


def log_loss(params, X, y):
    pred = forward(params, X)
    return jnp.mean(safe_log((pred[:, 0] - y) ** 2))  # noqa: F405


def log_loss_ok(params, X, y):
    pred = forward(params, X)
    return jnp.mean(jnp.log((pred[:, 0] - y) ** 2 + 1e-6))
