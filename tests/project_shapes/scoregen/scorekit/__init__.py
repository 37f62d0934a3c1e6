"""scorekit: small denoising diffusion models on 2-D toy data."""
from .config import ModelConfig, ScheduleConfig, TrainConfig
from .data import Loader, load_dataset
from .models import ScoreModel
from .sampling import Sampler, ddim_sample
from .schedule import make_schedule
from .trainer import Trainer

__all__ = ["ModelConfig", "ScheduleConfig", "TrainConfig", "Loader", "load_dataset", "ScoreModel",
           "Sampler", "ddim_sample", "make_schedule", "Trainer"]
