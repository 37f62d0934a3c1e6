"""Host data made with NumPy, batching, and the augmentations the steps use."""
import jax
import numpy as np


def load(n=64, features=4, classes=3):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, features)).astype(np.float32)
    y = (np.arange(n) % classes).astype(np.int32)
    return x, y


def load_raw(n=64, features=4):
    """The features as read, in NumPy's default float64."""
    return np.random.default_rng(1).normal(size=(n, features))


def batches(x, y, size):
    for start in range(0, len(x), size):
        yield x[start:start + size], y[start:start + size]


def augment(x):
    # project shape (not a thread): host randomness in an augmentation that a jitted step calls
    return x + np.random.normal(0.0, 0.01, size=x.shape).astype(np.float32)  # reported: JNP305


def augment_with_key(key, x):
    return x + 0.01 * jax.random.normal(key, x.shape)
