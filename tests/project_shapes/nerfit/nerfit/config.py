"""Settings: frozen model and render configs inside a mutable training config."""
import dataclasses

import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    width: int = 32
    depth: int = 3
    pos_freqs: int = 6
    dir_freqs: int = 2
    dtype: object = jnp.bfloat16
    box: float = 1.0


@dataclasses.dataclass(frozen=True)
class RenderConfig:
    near: float = 2.0
    far: float = 6.0
    n_coarse: int = 16
    n_fine: int = 8
    white_bkgd: bool = True
    jitter: str = "key"
    chunk: int = 64


@dataclasses.dataclass
class TrainConfig:
    model: ModelConfig = dataclasses.field(default_factory=ModelConfig)
    render: RenderConfig = dataclasses.field(default_factory=RenderConfig)
    image_size: int = 8
    n_views: int = 6
    batch_rays: int = 32
    lr: float = 5e-3
    steps: int = 12
    seed: int = 0
    loss: str = "mse"
    depth_weight: float = 0.0
    log_every: int = 4
    ckpt_every: int = 6
    debug: bool = False
    donate: bool = True
