"""Heat-equation pairs solved spectrally in NumPy, and a loader that pads the last batch."""
import numpy as np


def random_fields(rng, n, n_grid, n_modes=4):
    """Smooth periodic initial conditions: a few random Fourier modes."""
    x = np.linspace(0.0, 1.0, n_grid, endpoint=False)
    k = np.arange(1, n_modes + 1)
    amp = rng.normal(size=(n, n_modes)) / k
    phase = rng.uniform(0.0, 2 * np.pi, size=(n, n_modes))
    return np.sum(amp[:, :, None] * np.sin(2 * np.pi * k[None, :, None] * x + phase[:, :, None]), axis=1)


def solve_heat(u0, viscosity, t):
    """The exact solution at time t, mode by mode."""
    k = np.fft.rfftfreq(u0.shape[-1], d=1.0 / u0.shape[-1])
    return np.fft.irfft(np.fft.rfft(u0, axis=-1) * np.exp(-viscosity * (2 * np.pi * k) ** 2 * t), n=u0.shape[-1])


class PDEDataset:
    """Initial conditions, solutions at t_final and the grid, all NumPy (float64)."""

    def __init__(self, cfg, split="train"):
        rng = np.random.default_rng(0 if split == "train" else 1)
        n = cfg.n_train if split == "train" else cfg.n_test
        self.grid = np.linspace(0.0, 1.0, cfg.n_grid, endpoint=False)
        self.inputs = random_fields(rng, n, cfg.n_grid)
        self.targets = solve_heat(self.inputs, cfg.viscosity, cfg.t_final)
        self.cfg = cfg

    def trajectory(self, index):
        times = np.linspace(0.0, self.cfg.t_final, self.cfg.n_times + 1)
        return np.stack([solve_heat(self.inputs[index], self.cfg.viscosity, t) for t in times])

    def batches(self, rng, batch_size):
        """Shuffled batches; the last one is padded with zero fields to keep one shape."""
        while True:
            order = rng.permutation(len(self.inputs))
            for start in range(0, len(order), batch_size):
                idx = order[start:start + batch_size]
                x, y = self.inputs[idx], self.targets[idx]
                if len(idx) < batch_size:
                    pad = batch_size - len(idx)
                    x = np.concatenate([x, np.zeros((pad, x.shape[1]))])
                    y = np.concatenate([y, np.zeros((pad, y.shape[1]))])
                yield x.astype(np.float32), y.astype(np.float32)
