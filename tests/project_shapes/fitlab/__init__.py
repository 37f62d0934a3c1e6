"""A small fitting package laid out as projects are: settings, data, models, losses and helpers in
their own modules, jitted steps in steps.py, the loops in train.py and eval.py."""
from .losses import mse
from .steps import predict, train_step

__all__ = ["mse", "predict", "train_step"]
