"""Configuration: a frozen model and schedule config inside a mutable training config."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class ScheduleConfig:
    num_steps: int = 20
    beta_min: float = 1e-3
    beta_max: float = 0.3


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    hidden: int = 32
    depth: int = 2
    time_dim: int = 8
    half_precision: bool = False
    check_inputs: bool = False


@dataclasses.dataclass
class TrainConfig:
    dataset: str = "moons"
    num_train: int = 512
    batch_size: int = 64
    steps: int = 12
    lr: float = 2e-3
    ema_decay: float = 0.9
    jitter: float = 0.0
    log_every: int = 4
    seed: int = 0
    loss: str = "eps"
    model: ModelConfig = dataclasses.field(default_factory=ModelConfig)
    schedule: ScheduleConfig = dataclasses.field(default_factory=ScheduleConfig)
