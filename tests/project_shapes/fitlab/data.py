"""Host-side data: NumPy arrays made once per run."""
import jax
import numpy as np

from . import config


def make_data(n=64):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, config.FEATURES)).astype(np.float32)
    y = (X @ np.array([1.0, -2.0, 0.5], dtype=np.float32) + 0.1).astype(np.float32)
    return X, y


def make_labels(n=64):
    return (np.arange(n) % 3).astype(np.int32)


def batches(X, y, size):
    for start in range(0, len(X), size):
        yield X[start:start + size], y[start:start + size]


def jitter(key, X):
    """Inputs with a little noise, drawn from ``key``."""
    return X + 0.01 * jax.random.normal(key, X.shape)
