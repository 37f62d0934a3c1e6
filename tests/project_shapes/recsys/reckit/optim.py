"""Optax optimisers looked up by name, behind a warmup-cosine schedule and global-norm clipping."""
import optax

OPTIMIZERS = {
    "adam": lambda cfg, schedule: optax.adam(schedule),
    "adamw": lambda cfg, schedule: optax.adamw(schedule, weight_decay=cfg.weight_decay),
    "sgd": lambda cfg, schedule: optax.sgd(schedule, momentum=0.9),
}


def make_schedule(cfg, total_steps):
    return optax.warmup_cosine_decay_schedule(0.0, cfg.lr, cfg.warmup, max(total_steps, cfg.warmup + 1))


def make_optimizer(cfg, total_steps):
    return optax.chain(optax.clip_by_global_norm(1.0), OPTIMIZERS[cfg.name](cfg, make_schedule(cfg, total_steps)))
