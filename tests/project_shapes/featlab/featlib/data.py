"""Data on the host: NumPy arrays, and the Batch container the steps use."""
import dataclasses

import jax
import numpy as np

from .config import Config

# Per-class loss weights, kept on the host.
CLASS_WEIGHTS = np.linspace(0.5, 1.5, 4).astype(np.float32)


def make_split(cfg: Config, seed: int = 0):
    """Features and labels as NumPy arrays (float32 and int32)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(cfg.samples, cfg.model.features)).astype(np.float32)
    y = rng.integers(0, cfg.model.num_classes, size=cfg.samples).astype(np.int32)
    return x, y


def batches(x, y, batch_size):
    for start in range(0, len(x) - batch_size + 1, batch_size):
        yield x[start:start + batch_size], y[start:start + batch_size]


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Batch:
    x: jax.Array
    y: jax.Array

    def __post_init__(self):
        # project shape (not a thread): validation that also runs when jit rebuilds the Batch from tracers
        if (self.y < 0).any():  # reported: JNP202
            raise ValueError("labels must be non-negative")


@dataclasses.dataclass
class HostBatch:
    x: np.ndarray
    y: np.ndarray

    def __post_init__(self):
        if (self.y < 0).any():
            raise ValueError("labels must be non-negative")
