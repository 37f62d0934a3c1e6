"""The optimiser: AdamW on a warmup-cosine schedule behind global-norm clipping."""
import optax


def make_schedule(cfg):
    return optax.warmup_cosine_decay_schedule(0.0, cfg.lr, cfg.warmup, cfg.decay_steps)


def make_optimizer(cfg):
    return optax.chain(optax.clip_by_global_norm(cfg.clip),
                       optax.adamw(make_schedule(cfg), weight_decay=cfg.weight_decay))
