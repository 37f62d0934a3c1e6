"""Train a score model on 2-D toy data: `python scripts/train.py [--loss eps] [--verbose]`."""
import argparse
import dataclasses
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from scorekit import Loader, ScoreModel, TrainConfig, Trainer, load_dataset  # noqa: E402
from scorekit import checkpoint, optim  # noqa: E402
from scorekit.schedule import make_schedule, min_snr_weight  # noqa: E402

CFG = TrainConfig()


def build(cfg=CFG, donate=False, jitter=0.0):
    data = load_dataset(cfg.dataset, cfg.num_train, seed=cfg.seed)
    loader = Loader(data, cfg.batch_size, seed=cfg.seed, jitter=jitter)
    model = ScoreModel(cfg.model)
    trainer = Trainer(model, cfg, donate=donate)
    init_key, train_key = jax.random.split(jax.random.key(cfg.seed))
    return loader, model, trainer, trainer.init(init_key), train_key


def update_ratio(new_params, params):
    deltas = jax.tree_util.tree_map(lambda a, b: jnp.linalg.norm(a - b) / jnp.linalg.norm(b), new_params, params)
    return jnp.mean(jnp.stack(jax.tree_util.tree_leaves(deltas)))


def train(cfg=CFG, verbose=False, log_each_step=False, donate=False, lr_phases=None):
    loader, model, trainer, state, key = build(cfg, donate=donate)
    batches = loader.forever()
    for phase, lr in enumerate(lr_phases or [cfg.lr]):
        optim.set_learning_rate(lr)
        for i in range(cfg.steps):
            key, sub = jax.random.split(key)
            new_state, metrics = trainer.step(state, next(batches), sub)
            if donate:
                # project shape (not a thread): the update ratio reads the parameters the step donated
                metrics["update_ratio"] = update_ratio(new_state.params, state.params)  # reported: JNP605
            state = new_state
            if log_each_step:
                trainer.logger.log(i, **metrics)
            elif i % cfg.log_every == 0:
                trainer.logger.log(i, **metrics)
            if verbose:
                # project shape (not a thread): every step formats the device metrics
                print(f"{phase}:{i:4d} | " + " | ".join(f"{k}={v:.4f}" for k, v in metrics.items()))  # reported: JNP103
    return state, trainer


def train_ratio_before_donation(cfg=CFG):
    loader, model, trainer, state, key = build(cfg, donate=True)
    batches = loader.forever()
    for i in range(cfg.steps):
        key, sub = jax.random.split(key)
        old = jax.tree_util.tree_map(jnp.copy, state.params)
        state, metrics = trainer.step(state, next(batches), sub)
        metrics["update_ratio"] = update_ratio(state.params, old)
    return state


def with_loss(name, **model_options):
    return dataclasses.replace(CFG, loss=name, model=dataclasses.replace(CFG.model, **model_options))


def case_min_snr_loss():
    return train(with_loss("min_snr"))


def case_ok_min_snr_weights_on_host():
    sched = make_schedule(CFG.schedule)
    return min_snr_weight(sched, np.arange(CFG.schedule.num_steps))


def case_interior_loss():
    return train(with_loss("interior"))


def case_ok_interior_loss_where():
    return train(with_loss("interior_where"))


def case_check_inputs():
    return train(with_loss("eps", check_inputs=True))


def case_half_precision():
    return train(with_loss("eps", half_precision=True))


def case_ok_full_precision():
    return train()


def case_jitter_in_step():
    cfg = dataclasses.replace(CFG, jitter=0.05)
    loader, model, trainer, state, key = build(cfg)
    return trainer.fit(state, loader, key)


def case_ok_jitter_in_loader():
    loader, model, trainer, state, key = build(jitter=0.05)
    return trainer.fit(state, loader, key)


def case_learning_rate_decay():
    return train(lr_phases=[CFG.lr, CFG.lr / 10])


def case_log_each_step():
    state, trainer = train(log_each_step=True)
    return trainer.logger.recent_mean_np("loss")


def case_recent_mean():
    state, trainer = train()
    return trainer.logger.recent_mean("loss")


def case_verbose():
    return train(verbose=True)


def case_donated_update_ratio():
    return train(donate=True)


def case_ok_update_ratio_before_donation():
    return train_ratio_before_donation()


def _checkpoints(folder, steps=(1, 2, 3)):
    loader, model, trainer, state, key = build()
    for step in steps:
        key, sub = jax.random.split(key)
        state, _ = trainer.step(state, next(iter(loader)), sub)
        checkpoint.save(folder, state.params, step)
    return state.params


def case_average_checkpoints():
    with tempfile.TemporaryDirectory() as folder:
        template = _checkpoints(folder)
        return checkpoint.average(checkpoint.checkpoints(folder)[-2:], template)


def case_ok_average_checkpoints_tree_util():
    with tempfile.TemporaryDirectory() as folder:
        template = _checkpoints(folder)
        return checkpoint.average_tree_util(checkpoint.checkpoints(folder)[-2:], template)


def _widen(widen):
    old = ScoreModel(CFG.model).init(jax.random.key(0))
    new = ScoreModel(CFG.model).init(jax.random.key(1), in_dim=3)
    return widen(new, old)


def case_widen_input():
    return _widen(checkpoint.widen_input)


def case_ok_widen_input_at():
    return _widen(checkpoint.widen_input_at)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--loss", default=CFG.loss)
    parser.add_argument("--steps", type=int, default=CFG.steps)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    cfg = dataclasses.replace(CFG, loss=args.loss, steps=args.steps)
    state, trainer = train(cfg, verbose=args.verbose)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        checkpoint.save(args.out, state.ema, cfg.steps)
    print("final loss", trainer.logger.recent_mean_np("loss"))


if __name__ == "__main__":
    main()
