"""tsflow: forecasters for intermittent demand, in NNX and in plain JAX."""
from .augment import drop_days, drop_days_with, jitter, jitter_with, scale_jitter, scale_jitter_by, set_noise_scale
from .config import ModelConfig, TrainConfig
from .data import WindowData, load
from .engine import Trainer, cosine_lr, scheduled_step, sgd_step
from .keys import KeyStream
from .losses import mse, safe_wape, wape
from .models import Float32Forecaster, Forecaster, SquashedForecaster, TanhForecaster, mlp

__all__ = [
    "drop_days", "drop_days_with", "jitter", "jitter_with", "scale_jitter", "scale_jitter_by",
    "set_noise_scale", "ModelConfig", "TrainConfig", "WindowData", "load", "Trainer", "cosine_lr",
    "scheduled_step", "sgd_step", "KeyStream", "mse", "safe_wape", "wape", "Float32Forecaster",
    "Forecaster", "SquashedForecaster", "TanhForecaster", "mlp",
]
