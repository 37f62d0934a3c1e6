"""Settings: frozen model and kernel configs inside a mutable run config."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    name: str = "logistic"
    n_features: int = 3
    prior_scale: float = 1.0


@dataclasses.dataclass(frozen=True)
class KernelConfig:
    name: str = "hmc"
    step_size: float = 0.1
    n_leapfrog: int = 5
    target_accept: float = 0.8


@dataclasses.dataclass
class RunConfig:
    model: ModelConfig = dataclasses.field(default_factory=ModelConfig)
    kernel: KernelConfig = dataclasses.field(default_factory=KernelConfig)
    n_data: int = 64
    n_chains: int = 2
    n_warmup: int = 6
    n_samples: int = 8
    batch_size: int = 16
    seed: int = 0
    log_every: int = 4
    donate: bool = True
    debug: bool = False
