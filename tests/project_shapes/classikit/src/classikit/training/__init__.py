"""Steps (built by factories), callbacks, and the training and evaluation loops."""
from .steps import make_eval_step, make_train_step

__all__ = ["make_eval_step", "make_train_step"]
