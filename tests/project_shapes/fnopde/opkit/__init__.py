"""opkit: Fourier neural operators for 1D PDEs in plain JAX."""
from .checkpoint import load, save
from .config import DataConfig, ModelConfig, TrainConfig
from .data import PDEDataset, solve_heat
from .layers import init_fno, init_fno_ok
from .losses import LOSSES, set_sobolev_weight
from .metrics import Evaluator, EvaluatorOk, relative_errors, summary, summary_ok
from .model import FNO, FNOOk, make_grid, make_grid_half
from .optim import adam_init
from .steps import make_eval_step, make_train_step, make_train_step_ok
from .trainer import Trainer, TrainerOk
from .utils import KeyStream, MetricLogger

__all__ = ["load", "save", "DataConfig", "ModelConfig", "TrainConfig", "PDEDataset", "solve_heat", "init_fno",
           "init_fno_ok", "LOSSES", "set_sobolev_weight", "Evaluator", "EvaluatorOk", "relative_errors", "summary",
           "summary_ok", "FNO", "FNOOk", "make_grid", "make_grid_half", "adam_init", "make_eval_step",
           "make_train_step", "make_train_step_ok", "Trainer", "TrainerOk", "KeyStream", "MetricLogger"]
