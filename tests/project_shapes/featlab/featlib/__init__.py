"""featlib: small Flax and Equinox models for tabular features, and the steps that train them."""
from .config import Config, ModelConfig, TrainConfig
from .data import Batch, batches, make_split
from .models import (
    MLP,
    SoftmaxClassifier,
    Classifier,
    Encoder,
    LoggedMLP,
    Normalizer,
    ProjectionHead,
    SafeEncoder,
    SafeNormalizer,
    SafeProjectionHead,
)
from .rng import next_key, reseed
from .steps import (
    create_augmented_step,
    create_batched_step,
    create_eqx_step,
    create_train_step,
    create_weighted_step,
    embed,
    make_predict,
)

__all__ = [
    "Config", "ModelConfig", "TrainConfig", "Batch", "batches", "make_split",
    "MLP", "LoggedMLP", "Classifier", "SoftmaxClassifier", "Normalizer", "SafeNormalizer",
    "Encoder", "SafeEncoder", "ProjectionHead", "SafeProjectionHead", "next_key", "reseed",
    "create_train_step", "create_weighted_step", "create_batched_step", "create_augmented_step",
    "create_eqx_step", "embed", "make_predict",
]
