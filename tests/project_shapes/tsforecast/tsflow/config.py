"""Run settings: a frozen model config and a mutable training config holding it."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ModelConfig:
    window: int = 16
    horizon: int = 4
    hidden: int = 32


@dataclass
class TrainConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    learning_rate: float = 1e-2
    epochs: int = 3
    batch_size: int = 16
    seed: int = 0
    log_every: int = 50
