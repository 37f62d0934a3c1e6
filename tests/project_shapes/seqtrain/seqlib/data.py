"""Synthetic data on the host (NumPy); the scripts decide when it goes to the device."""
import jax.numpy as jnp
import numpy as np

from .configs import RunConfig


def make_dataset(cfg: RunConfig):
    rng = np.random.default_rng(cfg.seed)
    x = rng.normal(size=(cfg.examples, cfg.model.features)).astype(np.float32)
    x[-2:] = 0.0  # two padding rows
    y = rng.integers(0, cfg.model.classes, size=cfg.examples).astype(np.int32)
    return x, y


def batches(x, y, batch_size):
    for start in range(0, len(x) - batch_size + 1, batch_size):
        yield x[start:start + batch_size], y[start:start + batch_size]


def standardize(x):
    # project shape (not a thread): a NumPy preprocessing helper reused inside trainer.py's jitted step
    return np.tanh((x - x.mean(axis=0)) / (x.std(axis=0) + 1e-6))  # reported: JNP201


def standardize_ok(x):
    return jnp.tanh((x - x.mean(axis=0)) / (x.std(axis=0) + 1e-6))


def drop_padding(x, y):
    keep = jnp.abs(x).sum(axis=-1) > 0
    # project shape (not a thread): the padding rows dropped by a boolean mask, inside a jitted step
    return x[keep], y[keep]  # reported: JNP203


def padding_weights(x):
    return (jnp.abs(x).sum(axis=-1) > 0).astype(x.dtype)
