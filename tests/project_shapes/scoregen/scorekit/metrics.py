"""Metric history and sample-quality metrics (energy distance, nearest-neighbour coverage)."""
from collections import defaultdict

import jax.numpy as jnp
import numpy as np


class MetricLogger:
    def __init__(self):
        self.history = defaultdict(list)

    def log(self, step, **metrics):
        self.history["step"].append(step)
        for name, value in metrics.items():
            # project shape (not a thread): every logged value read back as a Python float
            self.history[name].append(float(value))  # reported: JNP102

    def recent_mean(self, name, last=10):
        # project shape (not a thread): the mean of a Python list of floats
        return float(jnp.mean(self.history[name][-last:]))  # reported: JNP505

    def recent_mean_np(self, name, last=10):
        return float(np.mean(self.history[name][-last:]))


def pairwise_distances(x, y):
    return jnp.sqrt(jnp.maximum(jnp.sum((x[:, None] - y[None]) ** 2, -1), 0.0))


def energy_distance(samples, data, precise=False):
    if precise:
        # project shape (not a thread): float64 "for stability" while x64 is off
        samples = jnp.asarray(samples, dtype=jnp.float64)  # reported: JNP402
    xy = pairwise_distances(samples, data).mean()
    xx = pairwise_distances(samples, samples).mean()
    yy = pairwise_distances(data, data).mean()
    return 2 * xy - xx - yy


def coverage(samples, data, k=3):
    """Fraction of data points whose nearest sample is within their k-th neighbour radius."""
    # project shape (not a thread): a NumPy sort kind that jax.numpy rejects
    radii = jnp.sort(pairwise_distances(data, data), axis=-1, kind="stable")[:, k]  # reported: JNP503
    nearest = pairwise_distances(data, samples).min(-1)
    return jnp.mean(nearest <= radii)


def coverage_stable(samples, data, k=3):
    radii = jnp.sort(pairwise_distances(data, data), axis=-1, stable=True)[:, k]
    nearest = pairwise_distances(data, samples).min(-1)
    return jnp.mean(nearest <= radii)


def check_samples(samples):
    # project shape (not a thread): a NumPy function jax.numpy does not have
    return jnp.asarray_chkfinite(samples)  # reported: JNP502
