"""nerfit: fit a small radiance field to posed images by volume rendering."""
from .checkpoint import count_params, load, save
from .config import ModelConfig, RenderConfig, TrainConfig
from .data import RayDataset
from .keys import KeyStream
from .logger import MetricLogger
from .models import NeRFMLP, set_sigma_noise
from .rendering import render_rays
from .steps import make_eval_step, make_train_step
from .train_state import create_train_state

__all__ = ["count_params", "load", "save", "ModelConfig", "RenderConfig", "TrainConfig", "RayDataset",
           "KeyStream", "MetricLogger", "NeRFMLP", "set_sigma_noise", "render_rays", "make_eval_step", "make_train_step",
           "create_train_state"]
