"""Settings: frozen model and data configs inside a mutable training config."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    width: int = 8
    modes: int = 6
    n_layers: int = 2
    activation: str = "gelu"
    filter: str = "none"
    debug: bool = False


@dataclasses.dataclass(frozen=True)
class DataConfig:
    n_grid: int = 32
    n_train: int = 20
    n_test: int = 8
    viscosity: float = 0.05
    t_final: float = 0.5
    n_times: int = 4


@dataclasses.dataclass
class TrainConfig:
    model: ModelConfig = dataclasses.field(default_factory=ModelConfig)
    data: DataConfig = dataclasses.field(default_factory=DataConfig)
    loss: str = "rel_l2"
    lr: float = 1e-3
    batch_size: int = 8
    steps: int = 6
    seed: int = 0
    input_noise: float = 0.0
    log_every: int = 2
    donate: bool = True
