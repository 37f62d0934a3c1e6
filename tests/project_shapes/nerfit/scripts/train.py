"""Fit the field to the toy scene: `python scripts/train.py [checkpoint-dir]`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402
import math  # noqa: E402
import tempfile  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from nerfit import (KeyStream, MetricLogger, NeRFMLP, RayDataset, TrainConfig, create_train_state,  # noqa: E402
                    make_eval_step, make_train_step, save, set_sigma_noise)
from nerfit.steps import make_train_step_ok  # noqa: E402

CFG = TrainConfig()


def setup(cfg, encoding="nerf"):
    data = RayDataset(cfg)
    model = NeRFMLP(cfg.model, encoding=encoding)
    keys = KeyStream(cfg.seed)
    return data, model, keys, create_train_state(model, cfg, keys.next())


def train(cfg=CFG, ckpt_dir=None):
    data, model, keys, state = setup(cfg)
    step, eval_step = make_train_step(cfg), make_eval_step(cfg, model.apply)
    view = data.view(0)
    batches = data.batches(np.random.default_rng(cfg.seed), cfg.batch_rays)
    history, best, val_losses = [], -math.inf, []
    for it in range(cfg.steps):
        new_state, metrics = step(state, next(batches), keys.next())
        if ckpt_dir and it % cfg.ckpt_every == 0:
            # project shape (not a thread): the parameters the step started from, saved after it donated them
            save(os.path.join(ckpt_dir, f"ckpt_{it}.npz"), state.params, it)  # reported: JNP605
        state = new_state
        # project shape (not a thread): the loss copied to the host after every step
        history.append(jax.device_get(metrics["loss"]))  # reported: JNP101
        # project shape (not a thread): the best PSNR so far, read back on every step
        best = max(best, float(metrics["psnr"]))  # reported: JNP102
        # project shape (not a thread): every step formats the device loss
        print(f"step {it:3d} loss {metrics['loss']:.4f}")  # reported: JNP103
        if it % cfg.log_every == 0:
            # project shape (not a thread): the same NumPy view uploaded at every evaluation
            val_loss, _ = eval_step(state.params, view["rays_o"], view["rays_d"], view["rgb"], keys.next())  # reported: JNP104
            val_losses.append(val_loss)
    return state, history, best, val_losses


def train_ok(cfg=CFG, ckpt_dir=None):
    data, model, keys, state = setup(cfg, encoding="nerf_ok")
    step, eval_step = make_train_step_ok(cfg), make_eval_step(cfg, model.apply)
    view = jax.device_put(data.view(0))
    batches = data.batches(np.random.default_rng(cfg.seed), cfg.batch_rays)
    logger, losses = MetricLogger(), []
    for it in range(cfg.steps):
        if ckpt_dir and it % cfg.ckpt_every == 0:
            save(os.path.join(ckpt_dir, f"ckpt_{it}.npz"), state.params, it)
        state, metrics = step(state, next(batches), keys.next())
        losses.append(metrics["loss"])
        if it % cfg.log_every == 0:
            val_loss, _ = eval_step(state.params, view["rays_o"], view["rays_d"], view["rgb"], keys.next())
            logger.log(it, loss=metrics["loss"], psnr=metrics["psnr"], val_loss=val_loss)
    history = jax.device_get(jnp.stack(losses))
    return state, history, max(row["psnr"] for row in logger.rows)


def train_annealed(cfg=CFG, phases=(1.0, 0.0)):
    """Density noise for the first phase, none after it, with one step function."""
    data, model, keys, state = setup(cfg, encoding="nerf_ok")
    step = make_train_step_ok(cfg)
    batches = data.batches(np.random.default_rng(cfg.seed), cfg.batch_rays)
    losses = []
    for noise in phases:
        set_sigma_noise(noise)
        for _ in range(cfg.steps // len(phases)):
            state, metrics = step(state, next(batches), keys.next())
            losses.append(metrics["loss"])
    return jax.device_get(jnp.stack(losses))


def train_fixed_key(cfg=CFG):
    data, model, keys, state = setup(cfg, encoding="nerf_ok")
    step = make_train_step_ok(cfg)
    batches = data.batches(np.random.default_rng(cfg.seed), cfg.batch_rays)
    key = keys.next()
    losses = []
    for _ in range(cfg.steps):
        # project shape (not a thread): one key for the jitter and the noise of every step
        state, metrics = step(state, next(batches), key)  # reported: JNP601
        losses.append(metrics["loss"])
    return jax.device_get(jnp.stack(losses))


def train_pre_split(cfg=CFG, ok=False):
    """Keys for the whole run forked from the stream up front, in two halves."""
    data, model, keys, state = setup(cfg, encoding="nerf_ok")
    step = make_train_step_ok(cfg)
    batches = data.batches(np.random.default_rng(cfg.seed), cfg.batch_rays)
    half = cfg.steps // 2
    run_keys = list(keys.fork_ok(half)) + list(keys.fork_ok(half)) if ok else list(keys.fork(half)) + list(keys.fork(half))
    losses = []
    for key in run_keys:
        state, metrics = step(state, next(batches), key)
        losses.append(metrics["loss"])
    return jax.device_get(jnp.stack(losses))


def case_train():
    return train()[1]


def case_train_checkpoints():
    with tempfile.TemporaryDirectory() as ckpt_dir:
        return train(dataclasses.replace(CFG, steps=2), ckpt_dir=ckpt_dir)[1]


def case_train_debug_history():
    cfg = dataclasses.replace(CFG, debug=True, donate=False, steps=2)
    data, model, keys, state = setup(cfg)
    history = []
    step = make_train_step(cfg, history=history)
    batches = data.batches(np.random.default_rng(cfg.seed), cfg.batch_rays)
    for _ in range(cfg.steps):
        state, metrics = step(state, next(batches), keys.next())
    return history


def case_train_masked_loss():
    return train(dataclasses.replace(CFG, loss="masked", steps=2))[1]


def case_train_depth_loss():
    return train(dataclasses.replace(CFG, depth_weight=0.1, steps=2))[1]


def case_train_annealed():
    return train_annealed()


def case_train_fixed_key():
    return train_fixed_key()


def case_train_pre_split():
    return train_pre_split()


def case_ok_train():
    with tempfile.TemporaryDirectory() as ckpt_dir:
        return train_ok(ckpt_dir=ckpt_dir)[1]


def case_ok_train_masked_depth():
    return train_ok(dataclasses.replace(CFG, loss="masked_ok", depth_weight=0.1, steps=2))[1]


def case_ok_train_constant_noise():
    return train_annealed(phases=(0.5,))


def case_ok_train_pre_split():
    return train_pre_split(ok=True)


if __name__ == "__main__":
    state, history, best = train_ok(ckpt_dir=sys.argv[1] if len(sys.argv) > 1 else None)
    print(f"final loss {history[-1]:.4f}, best psnr {best:.2f}")
