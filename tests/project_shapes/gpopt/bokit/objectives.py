"""Test functions in NumPy on the unit cube, an initial design, and the observations so far."""
import numpy as np


def branin(x):
    """Branin on [0, 1]^2 (rescaled to [-5, 10] x [0, 15]); minimum 0.397887."""
    x1, x2 = 15.0 * x[:, 0] - 5.0, 15.0 * x[:, 1]
    b, c = 5.1 / (4 * np.pi ** 2), 5.0 / np.pi
    return (x2 - b * x1 ** 2 + c * x1 - 6.0) ** 2 + 10.0 * (1 - 1 / (8 * np.pi)) * np.cos(x1) + 10.0


def forrester(x):
    """Forrester on [0, 1]; minimum -6.02074."""
    return (6.0 * x[:, 0] - 2.0) ** 2 * np.sin(12.0 * x[:, 0] - 4.0)


OBJECTIVES = {"branin": (branin, 2, 0.397887), "forrester": (forrester, 1, -6.02074)}


def initial_design(rng, n, dim):
    """A random Latin hypercube, float32."""
    cells = np.stack([rng.permutation(n) for _ in range(dim)], axis=1)
    return ((cells + rng.uniform(size=(n, dim))) / n).astype(np.float32)


def grid(n_per_dim, dim):
    """A regular grid over the unit cube, (n_per_dim ** dim, dim) float32."""
    axes = np.meshgrid(*[np.linspace(0.0, 1.0, n_per_dim, dtype=np.float32)] * dim, indexing="ij")
    return np.stack([a.ravel() for a in axes], axis=1)


class Observations:
    """The points evaluated so far, kept on the host."""

    def __init__(self, dim):
        self.X = np.zeros((0, dim), np.float32)
        self.y = np.zeros((0,), np.float32)

    def add(self, X, y):
        self.X = np.concatenate([self.X, np.asarray(X, np.float32).reshape(-1, self.X.shape[1])])
        self.y = np.concatenate([self.y, np.asarray(y, np.float32).reshape(-1)])

    def standardized(self):
        """X and y with zero mean and unit variance, float32."""
        mean, std = self.y.mean(), self.y.std() + 1e-6
        return self.X, ((self.y - mean) / std).astype(np.float32)

    def best(self):
        i = int(np.argmin(self.y))
        return self.X[i], float(self.y[i])
