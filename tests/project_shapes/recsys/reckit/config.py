"""Frozen model and optimiser configs inside a mutable training config."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    name: str = "mf"
    n_users: int = 48
    n_items: int = 96
    dim: int = 16
    hidden: tuple = (32,)
    cosine: bool = False


@dataclasses.dataclass(frozen=True)
class OptConfig:
    name: str = "adamw"
    lr: float = 5e-2
    weight_decay: float = 1e-4
    warmup: int = 5


@dataclasses.dataclass
class TrainConfig:
    model: ModelConfig = dataclasses.field(default_factory=ModelConfig)
    opt: OptConfig = dataclasses.field(default_factory=OptConfig)
    loss: str = "bpr"
    sampler: str = "uniform"
    n_negatives: int = 4
    batch_size: int = 32
    epochs: int = 2
    seed: int = 0
    k: int = 10
    donate: bool = True
    log_every: int = 5
