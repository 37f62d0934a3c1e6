"""Configuration: frozen environment and agent settings inside a mutable training config."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class EnvConfig:
    gravity: float = 9.8
    cart_mass: float = 1.0
    pole_mass: float = 0.1
    pole_length: float = 0.5
    force: float = 10.0
    dt: float = 0.02
    max_steps: int = 200


@dataclass(frozen=True)
class AgentConfig:
    hidden: int = 64
    num_actions: int = 2
    gamma: float = 0.99
    learning_rate: float = 1e-3
    tau: float = 0.01
    mixed_precision: bool = False


@dataclass
class TrainConfig:
    env: EnvConfig = field(default_factory=EnvConfig)
    agent: AgentConfig = field(default_factory=AgentConfig)
    seed: int = 0
    total_steps: int = 300
    warmup: int = 64
    batch_size: int = 32
    buffer_size: int = 5000
    eps_start: float = 1.0
    eps_end: float = 0.05
    eps_decay_steps: int = 200
    log_every: int = 50
    verbose: bool = False
