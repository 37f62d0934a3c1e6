"""Parameters and forward passes as pure functions; trainer.py jits them."""
import jax
import jax.numpy as jnp
import numpy as np

from . import configs
from .configs import ModelConfig


def init_params(key, cfg: ModelConfig):
    k1, k2 = jax.random.split(key)
    params = {
        "w1": jax.random.normal(k1, (cfg.features, cfg.hidden)) * 0.3,
        "b1": jnp.zeros(cfg.hidden),
        "w2": jax.random.normal(k2, (cfg.hidden, cfg.classes)) * 0.3,
        "b2": jnp.zeros(cfg.classes),
    }
    # project shape (not a thread): the dtype comes from the config; scripts pass PreciseModelConfig (float64)
    return {name: value.astype(cfg.param_dtype) for name, value in params.items()}  # reported: JNP402


def cast_params(params, dtype):
    return {name: value.astype(dtype) for name, value in params.items()}


def preactivation(params, x):
    return x @ params["w1"] + params["b1"]


def hidden(params, x):
    return jax.nn.relu(preactivation(params, x))


def forward(params, x):
    return hidden(params, x) @ params["w2"] + params["b2"]


def cross_entropy(logits, y, smoothing):
    onehot = jax.nn.one_hot(y, logits.shape[-1])
    target = onehot * (1.0 - smoothing) + smoothing / logits.shape[-1]
    return -jnp.mean(jnp.sum(target * jax.nn.log_softmax(logits), axis=-1))


def loss_fn(params, x, y):
    return cross_entropy(forward(params, x), y, 0.0)


def smoothed_loss(params, x, y):
    # project shape (not a thread): a module setting that scripts/sweep.py rebinds between runs of one Trainer
    smoothing = configs.LABEL_SMOOTHING  # reported: JNP304
    return cross_entropy(forward(params, x), y, smoothing)


def smoothed_loss_ok(params, x, y, smoothing):
    return cross_entropy(forward(params, x), y, smoothing)


def row_norms(h):
    squared = jnp.sum(h ** 2, axis=-1)
    # project shape (not a thread): a sqrt guarded by where (padding rows are 0), under the Trainer's value_and_grad
    return jnp.where(squared > 0, jnp.sqrt(squared), 0.0)  # reported: JNP604


def row_norms_ok(h):
    squared = jnp.sum(h ** 2, axis=-1)
    positive = squared > 0
    return jnp.where(positive, jnp.sqrt(jnp.where(positive, squared, 1.0)), 0.0)


def sparse_loss(params, x, y):
    return loss_fn(params, x, y) + 1e-3 * jnp.mean(row_norms(preactivation(params, x)))


def sparse_loss_ok(params, x, y):
    return loss_fn(params, x, y) + 1e-3 * jnp.mean(row_norms_ok(preactivation(params, x)))


def forward_dropout(params, x, rate=0.2):
    h = hidden(params, x)
    # project shape (not a thread): a NumPy dropout mask in a forward pass that the Trainer jits
    keep = np.random.rand(*h.shape) > rate  # reported: JNP305
    return (h * keep / (1.0 - rate)) @ params["w2"] + params["b2"]


def forward_dropout_ok(params, key, x, rate=0.2):
    h = hidden(params, x)
    keep = jax.random.bernoulli(key, 1.0 - rate, h.shape)
    return (h * keep / (1.0 - rate)) @ params["w2"] + params["b2"]
