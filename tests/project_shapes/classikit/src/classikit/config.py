"""Settings as dataclasses, shared by the subpackages."""
from dataclasses import dataclass


@dataclass(frozen=True)
class ModelConfig:
    features: int = 4
    hidden: int = 8
    classes: int = 3
    dtype: str = "float32"


@dataclass(frozen=True)
class WideModelConfig(ModelConfig):
    """The same model with float64 parameters (meant for runs with x64 enabled)."""
    dtype: str = "float64"


@dataclass(frozen=True)
class TrainConfig:
    learning_rate: float = 0.1
    steps: int = 8
    batch_size: int = 16
    seed: int = 0
