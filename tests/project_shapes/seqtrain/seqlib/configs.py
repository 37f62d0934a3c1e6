"""Run settings as frozen dataclasses; scripts/ builds them, the package reads them."""
from dataclasses import dataclass, field

import jax.numpy as jnp

# Rebound by scripts/sweep.py between runs; the loss reads it.
LABEL_SMOOTHING = 0.0
# Rebound by scripts/sweep.py too, but only read on the host to name the run.
RUN_NAME = "default"


@dataclass(frozen=True)
class ModelConfig:
    features: int = 6
    hidden: int = 12
    classes: int = 4
    param_dtype: object = jnp.float32


@dataclass(frozen=True)
class PreciseModelConfig(ModelConfig):
    """The same model with float64 parameters (meant for runs with x64 enabled)."""
    param_dtype: object = jnp.float64


@dataclass(frozen=True)
class OptimConfig:
    learning_rate: float = 0.05
    steps: int = 6
    log_every: int = 3


@dataclass(frozen=True)
class RunConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    optim: OptimConfig = field(default_factory=OptimConfig)
    seed: int = 0
    batch_size: int = 8
    examples: int = 32
