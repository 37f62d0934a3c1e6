"""A key stream and a metric logger."""
import time

import jax


class KeyStream:
    def __init__(self, seed):
        self.key = jax.random.key(seed)

    def next(self):
        self.key, sub = jax.random.split(self.key)
        return sub


class MetricLogger:
    def __init__(self):
        self.rows = []
        self.start = time.perf_counter()

    def log(self, **values):
        self.rows.append({"time": time.perf_counter() - self.start, **values})

    def last(self):
        return self.rows[-1] if self.rows else {}
