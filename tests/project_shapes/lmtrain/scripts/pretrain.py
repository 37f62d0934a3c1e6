"""Pretrain a small GPT on a token file: `python scripts/pretrain.py [--size micro] [--loss token_mean_z]`."""
import argparse
import dataclasses
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from lmkit import TrainConfig, Trainer, build_model, split_corpus, with_size, write_corpus  # noqa: E402
from lmkit.evaluation import validation_loss, validation_loss_stacked  # noqa: E402
from lmkit.schedule import lr_at  # noqa: E402

CFG = TrainConfig()


def build(cfg=CFG, donate=True, hand_schedule=False):
    corpus = write_corpus(cfg.corpus_tokens, cfg.model.vocab_size, seed=cfg.seed)
    train_data, valid_data = split_corpus(corpus, cfg.model.seq_len)
    init_key, key = jax.random.split(jax.random.key(cfg.seed))
    trainer = Trainer(build_model(cfg.model, init_key), cfg, donate=donate, hand_schedule=hand_schedule)
    return train_data, valid_data, trainer, key


def train(cfg=CFG, verbose=False, nan_guard=False, hand_schedule=False):
    train_data, valid_data, trainer, key = build(cfg, hand_schedule=hand_schedule)
    rng = np.random.default_rng(cfg.seed)
    params, opt_state = trainer.init()
    valid_x, valid_y = valid_data.get_batch(np.random.default_rng(1), cfg.batch_size)
    history, valid_history = [], []
    for it in range(cfg.steps):
        x, y = train_data.get_batch(rng, cfg.batch_size)
        key, sub = jax.random.split(key)
        params, opt_state, metrics = trainer.step(params, opt_state, x, y, sub)
        # project shape (not a thread): the loss copied to the host after every step
        history.append(jax.device_get(metrics["loss"]))  # reported: JNP101
        if verbose:
            # project shape (not a thread): every step formats the device loss
            print(f"it {it:4d} loss {metrics['loss']:.4f} lr {lr_at(it, cfg.optim):.2e}")  # reported: JNP103
        # project shape (not a thread): a nan check that reads the loss back on every step
        if nan_guard and math.isnan(metrics["loss"]):  # reported: JNP102
            raise FloatingPointError(f"loss is nan at step {it}")
        if (it + 1) % cfg.eval_every == 0:
            # project shape (not a thread): the same NumPy validation batch uploaded at every evaluation
            valid_history.append(trainer.eval_step(params, valid_x, valid_y))  # reported: JNP104
    return params, history, valid_history


def train_ok(cfg=CFG, verbose=False):
    train_data, valid_data, trainer, key = build(cfg)
    rng = np.random.default_rng(cfg.seed)
    params, opt_state = trainer.init()
    valid_x, valid_y = map(jnp.asarray, valid_data.get_batch(np.random.default_rng(1), cfg.batch_size))
    losses, valid_history = [], []
    for it in range(cfg.steps):
        x, y = train_data.get_batch(rng, cfg.batch_size)
        key, sub = jax.random.split(key)
        params, opt_state, metrics = trainer.step(params, opt_state, x, y, sub)
        losses.append(metrics["loss"])
        if verbose and it % cfg.log_every == 0:
            print(f"it {it:4d} loss {float(metrics['loss']):.4f} lr {lr_at(it, cfg.optim):.2e}")
        if (it + 1) % cfg.eval_every == 0:
            valid_history.append(trainer.eval_step(params, valid_x, valid_y))
    history = np.asarray(jnp.stack(losses))
    if np.isnan(history).any():
        raise FloatingPointError("loss became nan")
    return params, history, valid_history


def train_with_ema(cfg=CFG, decay=0.9):
    train_data, valid_data, trainer, key = build(cfg)
    rng = np.random.default_rng(cfg.seed)
    params, opt_state = trainer.init()
    ema = params
    for it in range(cfg.steps):
        x, y = train_data.get_batch(rng, cfg.batch_size)
        key, sub = jax.random.split(key)
        params, opt_state, metrics = trainer.step(params, opt_state, x, y, sub)
        # project shape (not a thread): the average starts as the parameters the first step donated
        ema = jax.tree.map(lambda e, p: decay * e + (1 - decay) * p, ema, params)  # reported: JNP605
    return params, ema


def train_with_ema_ok(cfg=CFG, decay=0.9):
    train_data, valid_data, trainer, key = build(cfg)
    rng = np.random.default_rng(cfg.seed)
    params, opt_state = trainer.init()
    ema = jax.tree.map(jnp.copy, params)
    for it in range(cfg.steps):
        x, y = train_data.get_batch(rng, cfg.batch_size)
        key, sub = jax.random.split(key)
        params, opt_state, metrics = trainer.step(params, opt_state, x, y, sub)
        ema = jax.tree.map(lambda e, p: decay * e + (1 - decay) * p, ema, params)
    return params, ema


def train_quick(cfg=CFG):
    """A short run to check that the loss goes down."""
    train_data, valid_data, trainer, key = build(cfg)
    rng = np.random.default_rng(cfg.seed)
    params, opt_state = trainer.init()
    for it in range(cfg.steps):
        x, y = train_data.get_batch(rng, cfg.batch_size)
        # project shape (not a thread): one dropout key for every step
        params, opt_state, metrics = trainer.step(params, opt_state, x, y, key)  # reported: JNP601
    return validation_loss_stacked(trainer.eval_step, params, valid_data.eval_batches(cfg.batch_size, cfg.eval_batches))


def train_padded(cfg=CFG):
    """Train on consecutive windows, the last batch of each pass padded to the batch size."""
    train_data, valid_data, trainer, key = build(cfg)
    params, opt_state = trainer.init()
    losses = []
    for epoch in range(2):
        for x, y in train_data.eval_batches(cfg.batch_size, cfg.steps):
            key, sub = jax.random.split(key)
            params, opt_state, metrics = trainer.step(params, opt_state, x, y, sub)
            losses.append(metrics["loss"])
    return params, jnp.stack(losses)


def with_options(size="micro", **options):
    model_options = {k: options.pop(k) for k in ("arch", "dropout") if k in options}
    return dataclasses.replace(with_size(CFG, size, **model_options), **options)


def case_ok_train():
    return train_ok(with_options(), verbose=True)


def case_ok_train_bf16_cast():
    return train_ok(with_options(arch="bf16_cast"))


def case_train_verbose():
    return train(with_options(), verbose=True)


def case_train_nan_guard():
    return train(with_options(), nan_guard=True)


def case_train_history():
    return train(with_options())


def case_ema():
    return train_with_ema(with_options())


def case_ok_ema_copy():
    return train_with_ema_ok(with_options())


def case_one_key():
    return train_quick(with_options())


def case_boolean_mask_loss():
    return train(with_options(loss="token_mean_indexed"))


def case_sequence_mean_padded():
    params, losses = train_padded(with_options(loss="sequence_mean", steps=3))
    return losses


def case_ok_sequence_mean_safe_padded():
    params, losses = train_padded(with_options(loss="sequence_mean_safe", steps=3))
    return losses


def case_hand_schedule():
    return train(with_options(), hand_schedule=True)


def case_host_dropout_seed():
    return train(with_options(fresh_dropout_seed=False))


def case_debug_print():
    return train(with_options(debug=True))


def case_checked_ids():
    return train(with_options(arch="checked"))


def case_bf16():
    return train(with_options(arch="bf16"))


def case_learned_positions():
    return train(with_options(arch="learned_pos"))


def case_validation_loss():
    train_data, valid_data, trainer, key = build(with_options())
    params, _ = trainer.init()
    return validation_loss(trainer.eval_step, params, valid_data.eval_batches(CFG.batch_size, CFG.eval_batches))


def case_ok_validation_loss_stacked():
    train_data, valid_data, trainer, key = build(with_options())
    params, _ = trainer.init()
    return validation_loss_stacked(trainer.eval_step, params, valid_data.eval_batches(CFG.batch_size, CFG.eval_batches))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="micro")
    parser.add_argument("--loss", default="token_mean")
    parser.add_argument("--steps", type=int, default=CFG.steps)
    args = parser.parse_args()
    train_ok(with_options(args.size, loss=args.loss, steps=args.steps), verbose=True)
