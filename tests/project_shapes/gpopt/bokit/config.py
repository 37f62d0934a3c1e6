"""Settings: frozen kernel and acquisition configs inside a mutable run config."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class KernelConfig:
    name: str = "matern52_ok"
    prior: str = "none"
    init_lengthscale: float = 0.3


@dataclasses.dataclass(frozen=True)
class AcqConfig:
    name: str = "ei_ok"
    beta: float = 2.0
    beta_decay: float = 0.8
    n_candidates: int = 128
    debug: bool = False


@dataclasses.dataclass
class BOConfig:
    kernel: KernelConfig = dataclasses.field(default_factory=KernelConfig)
    acq: AcqConfig = dataclasses.field(default_factory=AcqConfig)
    objective: str = "branin"
    n_init: int = 6
    n_iters: int = 4
    fit_steps: int = 10
    n_restarts: int = 3
    lr: float = 0.05
    seed: int = 0
    donate: bool = True
    log_every: int = 2
