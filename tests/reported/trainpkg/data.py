"""Host-side data helpers (NumPy)."""
import numpy as np


def load_posterior():
    """Posterior samples as they come back from a sampler run on the host."""
    return np.linspace(0.0, 1.0, 32, dtype=np.float32)


def initial_positions():
    return np.random.default_rng(0).normal(size=(8, 2)).astype(np.float32)
