"""Synthetic logistic-regression data in NumPy, and minibatches of it."""
import numpy as np


def make_logistic_data(n, n_features, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, n_features)).astype(np.float32)
    true_theta = rng.normal(size=n_features).astype(np.float32)
    p = 1.0 / (1.0 + np.exp(-x @ true_theta))
    y = (rng.uniform(size=n) < p).astype(np.float32)
    return x, y, true_theta


class Dataset:
    """Features and labels held on the host, standardised once."""

    def __init__(self, cfg):
        x, y, self.true_theta = make_logistic_data(cfg.n_data, cfg.model.n_features, cfg.seed)
        self.x = (x - x.mean(0)) / x.std(0)
        self.y = y

    def __len__(self):
        return len(self.y)

    def minibatches(self, rng, size):
        while True:
            idx = rng.choice(len(self), size, replace=False)
            yield self.x[idx], self.y[idx]
