"""Metrics and logging: conversions of device arrays for the host."""
import numpy as np


def to_scalar(x):
    return x.item()


def to_numpy(x):
    return np.asarray(x)


def accuracy(logits, labels):
    return float((logits.argmax(-1) == labels).mean())


class MetricLogger:
    def __init__(self):
        self.rows = []

    def keep(self, step, **values):
        self.rows.append((step, values))

    def log(self, step, **values):
        print(f"step {step}:", ", ".join(f"{name}={value}" for name, value in values.items()))

    def flush(self):
        for step, values in self.rows:
            self.log(step, **values)
