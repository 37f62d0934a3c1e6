"""NNX forecasters: an encoder and a decoder around a learned level."""
import jax.numpy as jnp
import numpy as np
from flax import nnx


class Forecaster(nnx.Module):
    def __init__(self, cfg, *, rngs):
        self.encode = nnx.Linear(cfg.window, cfg.hidden, rngs=rngs)
        self.decode = nnx.Linear(cfg.hidden, cfg.horizon, rngs=rngs)
        # project shape (not a thread): float64 asked for with x64 off
        self.level = nnx.Param(jnp.zeros((cfg.horizon,), dtype=jnp.float64))  # reported: JNP402

    def __call__(self, x):
        h = nnx.relu(self.encode(x))
        return nnx.relu(self.decode(h) + self.level[...])


class Float32Forecaster(Forecaster):
    def __init__(self, cfg, *, rngs):
        self.encode = nnx.Linear(cfg.window, cfg.hidden, rngs=rngs)
        self.decode = nnx.Linear(cfg.hidden, cfg.horizon, rngs=rngs)
        self.level = nnx.Param(jnp.zeros((cfg.horizon,), dtype=jnp.float32))


class SquashedForecaster(Float32Forecaster):
    def __call__(self, x):
        # project shape (not a thread): a NumPy ufunc on the encoder's traced output
        h = np.tanh(self.encode(x))  # reported: JNP201
        return nnx.relu(self.decode(h) + self.level[...])


class TanhForecaster(Float32Forecaster):
    def __call__(self, x):
        h = jnp.tanh(self.encode(x))
        return nnx.relu(self.decode(h) + self.level[...])
