"""Run configuration: named model sizes as dicts, frozen model and optimiser configs, a mutable run config."""
import dataclasses

SIZES = {
    "nano": dict(n_layer=1, n_head=2, d_model=32),
    "micro": dict(n_layer=2, n_head=2, d_model=32),
    "mini": dict(n_layer=2, n_head=4, d_model=64),
}


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    vocab_size: int = 64
    seq_len: int = 16
    n_layer: int = 2
    n_head: int = 2
    d_model: int = 32
    dropout: float = 0.1
    arch: str = "gpt"

    @classmethod
    def from_size(cls, name, **overrides):
        return cls(**{**SIZES[name], **overrides})


@dataclasses.dataclass(frozen=True)
class OptimConfig:
    lr: float = 3e-3
    min_lr: float = 3e-4
    warmup_steps: int = 4
    decay_steps: int = 40
    weight_decay: float = 0.01
    clip_norm: float = 1.0


@dataclasses.dataclass
class TrainConfig:
    model: ModelConfig = dataclasses.field(default_factory=ModelConfig)
    optim: OptimConfig = dataclasses.field(default_factory=OptimConfig)
    loss: str = "token_mean"
    batch_size: int = 8
    grad_accum: int = 2
    steps: int = 12
    eval_every: int = 6
    eval_batches: int = 2
    log_every: int = 4
    corpus_tokens: int = 4096
    seed: int = 0
    debug: bool = False
    fresh_dropout_seed: bool = True


def with_size(cfg, size, **overrides):
    return dataclasses.replace(cfg, model=ModelConfig.from_size(size, **overrides))
