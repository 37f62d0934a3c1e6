"""A small sequence classifier: settings as dataclasses (configs.py), NumPy data (data.py), pure
functions for the model (model.py), a Trainer whose steps are jitted in __init__ (trainer.py),
metrics (metrics.py) and helpers re-exported from utils/. scripts/ drives it."""
from .configs import ModelConfig, OptimConfig, PreciseModelConfig, RunConfig
from .trainer import Trainer
from .utils import KeySeq, log_scalar, make_key, noise_like

__all__ = [
    "KeySeq", "ModelConfig", "OptimConfig", "PreciseModelConfig", "RunConfig", "Trainer",
    "log_scalar", "make_key", "noise_like",
]
