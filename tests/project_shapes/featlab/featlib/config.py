"""Run settings, frozen so that they can be passed around and hashed."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ModelConfig:
    features: int = 6
    hidden: int = 16
    num_classes: int = 4
    embed_dims: tuple = (6, 12, 8)


@dataclass(frozen=True)
class TrainConfig:
    learning_rate: float = 1e-2
    steps: int = 6
    batch_size: int = 8
    seed: int = 0
    log_every: int = 2


@dataclass(frozen=True)
class Config:
    model: ModelConfig = field(default_factory=ModelConfig)
    train: TrainConfig = field(default_factory=TrainConfig)
    samples: int = 48
