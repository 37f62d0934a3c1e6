"""Synthetic intermittent-demand series cut into windows. Everything here is NumPy, on the host;
batches come from NumPy's generator."""
import numpy as np

SCALE = np.float32(2.0)


def make_series(length=200, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(length, dtype=np.float32)
    noise = rng.normal(0.0, 0.3, length).astype(np.float32)
    # demand is never negative, and zero on many days
    return np.maximum(np.sin(t / 6.0) + noise, 0.0).astype(np.float32)


class WindowData:
    def __init__(self, series, window, horizon):
        count = len(series) - window - horizon + 1
        index = np.arange(window + horizon)[None, :] + np.arange(count)[:, None]
        cut = series[index] / SCALE
        self.x = cut[:, :window]
        self.y = cut[:, window:]

    def __len__(self):
        return len(self.x)

    def clip(self, limit=1.5):
        self.x[self.x > limit] = limit  # NumPy arrays take item assignment
        return self

    def split(self, fraction=0.75):
        cut = int(len(self) * fraction)
        return (self.x[:cut], self.y[:cut]), (self.x[cut:], self.y[cut:])

    def batches(self, batch_size, seed=0):
        order = np.random.default_rng(seed).permutation(len(self))
        for start in range(0, len(order) - batch_size + 1, batch_size):
            take = order[start:start + batch_size]
            yield self.x[take], self.y[take]


def load(cfg):
    series = make_series(seed=cfg.seed)
    return WindowData(series, cfg.model.window, cfg.model.horizon).clip()
