"""A small classifier package in a src/ layout: settings in config.py, the model in models/, the
jitted steps (built by factories) and the loops in training/, data in data/, keys and metrics in
utils/."""
from .config import ModelConfig, TrainConfig, WideModelConfig
from .models import apply, init

__all__ = ["ModelConfig", "TrainConfig", "WideModelConfig", "apply", "init"]
