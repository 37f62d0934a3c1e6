"""A key stream and a metric logger."""
import jax
import numpy as np


class KeyStream:
    def __init__(self, seed):
        self.key = jax.random.key(seed)

    def next(self):
        self.key, sub = jax.random.split(self.key)
        return sub


class MetricLogger:
    def __init__(self):
        self.rows = []

    def log(self, step, **values):
        self.rows.append({"step": step, **{k: np.asarray(v).item() for k, v in jax.device_get(values).items()}})

    def last(self):
        return self.rows[-1] if self.rows else {}
