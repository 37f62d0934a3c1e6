"""Learning-rate schedules (linear warmup, cosine decay) and the optimiser built on them."""
import math

import optax


def warmup_cosine(cfg):
    return optax.warmup_cosine_decay_schedule(0.0, cfg.lr, cfg.warmup_steps, cfg.decay_steps, cfg.min_lr)


def lr_at(step, cfg):
    """The same schedule written out, for the logs."""
    # project shape (not a thread): a Python branch on the step, which Optax passes traced
    if step < cfg.warmup_steps:  # reported: JNP202
        return cfg.lr * (step + 1) / cfg.warmup_steps
    progress = min(1.0, (step - cfg.warmup_steps) / max(1, cfg.decay_steps - cfg.warmup_steps))
    return cfg.min_lr + 0.5 * (cfg.lr - cfg.min_lr) * (1 + math.cos(math.pi * progress))


def make_optimizer(cfg, hand_schedule=False):
    learning_rate = (lambda count: lr_at(count, cfg)) if hand_schedule else warmup_cosine(cfg)
    return optax.chain(optax.clip_by_global_norm(cfg.clip_norm),
                       optax.adamw(learning_rate, weight_decay=cfg.weight_decay))
