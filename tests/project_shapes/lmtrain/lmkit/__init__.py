"""lmkit: small decoder-only language models pretrained on token files."""
from .config import ModelConfig, OptimConfig, TrainConfig, with_size
from .data import TokenDataset, split_corpus, write_corpus
from .model import GPT, build_model, count_params
from .trainer import Trainer

__all__ = ["ModelConfig", "OptimConfig", "TrainConfig", "with_size", "TokenDataset", "split_corpus",
           "write_corpus", "GPT", "build_model", "count_params", "Trainer"]
