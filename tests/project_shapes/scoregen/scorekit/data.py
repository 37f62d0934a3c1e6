"""Toy 2-D datasets in NumPy and a shuffling batch loader."""
import numpy as np


def make_moons(n, noise=0.05, seed=0):
    rng = np.random.default_rng(seed)
    theta = rng.uniform(0.0, np.pi, n)
    upper = rng.random(n) < 0.5
    x = np.where(upper, np.cos(theta), 1.0 - np.cos(theta))
    y = np.where(upper, np.sin(theta), 0.5 - np.sin(theta))
    return (np.stack([x, y], -1) + noise * rng.standard_normal((n, 2))).astype(np.float32)


def make_ring(n, radius=1.0, noise=0.05, seed=0):
    rng = np.random.default_rng(seed)
    theta = rng.uniform(0.0, 2 * np.pi, n)
    r = radius + noise * rng.standard_normal(n)
    return np.stack([r * np.cos(theta), r * np.sin(theta)], -1).astype(np.float32)


DATASETS = {"moons": make_moons, "ring": make_ring}


def load_dataset(name, n, seed=0, normalise=True):
    data = DATASETS[name](n, seed=seed)
    if normalise:
        data = (data - data.mean(0)) / data.std(0)
    return data


class Loader:
    """Shuffled float32 batches; `jitter` adds host-side Gaussian noise to each batch."""

    def __init__(self, data, batch_size, seed=0, jitter=0.0):
        self.data, self.batch_size, self.jitter = data, batch_size, jitter
        self.rng = np.random.default_rng(seed)

    def __iter__(self):
        order = self.rng.permutation(len(self.data))
        for start in range(0, len(order) - self.batch_size + 1, self.batch_size):
            batch = self.data[order[start:start + self.batch_size]]
            if self.jitter:
                batch = batch + self.jitter * self.rng.standard_normal(batch.shape).astype(np.float32)
            yield batch

    def forever(self):
        while True:
            yield from self
