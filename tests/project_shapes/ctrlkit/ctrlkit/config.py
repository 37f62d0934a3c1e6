"""Configuration: frozen dynamics and planner configs inside a mutable run config."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class DynamicsConfig:
    name: str = "pendulum"
    dt: float = 0.05
    max_action: float = 2.0
    hidden: int = 32
    depth: int = 2


@dataclasses.dataclass(frozen=True)
class PlannerConfig:
    name: str = "mppi"
    cost: str = "swingup"
    horizon: int = 12
    n_samples: int = 64
    n_iters: int = 3
    temperature: float = 1.0
    noise_scale: float = 0.5
    n_elites: int = 8
    regularisation: float = 1e-3


@dataclasses.dataclass
class RunConfig:
    dynamics: DynamicsConfig = dataclasses.field(default_factory=DynamicsConfig)
    planner: PlannerConfig = dataclasses.field(default_factory=PlannerConfig)
    seed: int = 0
    episode_len: int = 20
    n_episodes: int = 3
    batch_size: int = 32
    learning_rate: float = 1e-3
    n_train_steps: int = 40
    buffer_size: int = 2000
    ensemble_size: int = 3
