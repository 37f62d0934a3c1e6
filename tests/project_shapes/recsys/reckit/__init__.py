"""reckit: implicit-feedback recommenders in JAX."""
from .config import ModelConfig, OptConfig, TrainConfig
from .data import Batcher, InteractionLog, unseen_candidates, unseen_candidates_ok
from .embeddings import lookup_checked, lookup_checked_ok, quantized_scores, quantized_scores_ok, sparse_sgd, sparse_sgd_ok
from .evaluation import (ITEM_CACHE, Evaluator, EvaluatorOk, Recommender, RecommenderOk, item_matrix, item_matrix_ok,
                         recommend, recommend_ok, retrieve, top_items, top_items_ok)
from .losses import LOSSES, set_temperature
from .models import MODELS, build_model
from .optim import make_optimizer
from .sampling import SAMPLERS, log_popularity, log_popularity_ok
from .training import Trainer, TrainerChecked, TrainerCheckedOk, TrainerOk, make_train_step, make_train_step_ok
from .utils import KeyStream, MetricLogger, load_checkpoint, save_checkpoint

__all__ = ["ModelConfig", "OptConfig", "TrainConfig", "Batcher", "InteractionLog", "unseen_candidates",
           "unseen_candidates_ok", "lookup_checked", "lookup_checked_ok", "quantized_scores", "quantized_scores_ok",
           "sparse_sgd", "sparse_sgd_ok", "ITEM_CACHE", "Evaluator", "EvaluatorOk", "Recommender", "RecommenderOk",
           "item_matrix", "item_matrix_ok", "recommend", "recommend_ok", "retrieve", "top_items", "top_items_ok",
           "LOSSES", "set_temperature", "MODELS", "build_model", "make_optimizer", "SAMPLERS", "log_popularity",
           "log_popularity_ok", "Trainer", "TrainerChecked", "TrainerCheckedOk", "TrainerOk", "make_train_step",
           "make_train_step_ok", "KeyStream", "MetricLogger", "load_checkpoint", "save_checkpoint"]
