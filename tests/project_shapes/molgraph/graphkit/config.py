"""Frozen model and optimiser settings inside a mutable training config."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    num_species: int = 4
    hidden: int = 32
    num_layers: int = 3
    num_rbf: int = 16
    cutoff: float = 3.0
    layer: str = "schnet"          # or "attention"
    readout: str = "sum"           # or "mean", "max"
    degree_norm: bool = False
    edge_dropout: float = 0.0
    check_indices: bool = False


@dataclasses.dataclass(frozen=True)
class OptimConfig:
    lr: float = 3e-3
    warmup: int = 5
    decay_steps: int = 200
    clip: float = 10.0
    weight_decay: float = 1e-4


@dataclasses.dataclass
class TrainConfig:
    model: ModelConfig = dataclasses.field(default_factory=ModelConfig)
    optim: OptimConfig = dataclasses.field(default_factory=OptimConfig)
    loss: str = "energy"
    num_train: int = 48
    num_valid: int = 16
    batch_size: int = 8
    max_atoms: int = 6
    steps: int = 10
    log_every: int = 5
    augment_in_step: bool = False
    skip_nonfinite: bool = False
    debug: bool = False
    seed: int = 0
