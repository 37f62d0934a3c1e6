"""Train the operator on heat-equation pairs: `python scripts/train.py [checkpoint-dir]`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402
import tempfile  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from opkit import (FNO, FNOOk, KeyStream, MetricLogger, PDEDataset, TrainConfig, Trainer, TrainerOk,  # noqa: E402
                   adam_init, init_fno, init_fno_ok, make_eval_step, make_grid_half, make_train_step,
                   make_train_step_ok, save, set_sobolev_weight)
from opkit import optim  # noqa: E402

CFG = TrainConfig()
CFG_OK = dataclasses.replace(CFG, loss="rel_l2_ok")


def setup(cfg, model_cls=FNOOk):
    data = PDEDataset(cfg.data)
    model = model_cls(cfg.model)
    keys = KeyStream(cfg.seed)
    params = init_fno_ok(keys.next(), cfg.model)
    return data, model, keys, params


def train(cfg=CFG, ckpt_dir=None, model_cls=FNOOk):
    data, model, keys, params = setup(cfg, model_cls)
    opt_state = adam_init(params)
    step = make_train_step(model, cfg)
    evaluate = make_eval_step(model)
    batches = data.batches(np.random.default_rng(cfg.seed), cfg.batch_size)
    val = PDEDataset(cfg.data, "test")
    grid, val_losses = jnp.asarray(data.grid, jnp.float32), []
    for it in range(cfg.steps):
        u, target = next(batches)
        new_params, opt_state, loss = step(params, opt_state, u, target, grid)
        if ckpt_dir and it % cfg.log_every == 0:
            # project shape (not a thread): the parameters the step started from, saved after it donated them
            save(os.path.join(ckpt_dir, f"ckpt_{it}.npz"), params, it)  # reported: JNP605
        params = new_params
        # project shape (not a thread): every step formats the device loss
        print(f"step {it:3d} loss {loss:.4f}")  # reported: JNP103
        if it % cfg.log_every == 0:
            # project shape (not a thread): the same float64 NumPy validation set narrowed and uploaded at every evaluation
            val_loss, _ = evaluate(params, val.inputs, val.targets, val.grid)  # reported: JNP104 JNP403
            val_losses.append(val_loss)
    return params, val_losses


def train_ok(cfg=CFG_OK, ckpt_dir=None):
    data, model, keys, params = setup(cfg)
    opt_state = adam_init(params)
    step = make_train_step_ok(model, cfg)
    evaluate = make_eval_step(model)
    batches = data.batches(np.random.default_rng(cfg.seed), cfg.batch_size)
    val = PDEDataset(cfg.data, "test")
    val_u, val_y, grid = jax.device_put((val.inputs.astype(np.float32), val.targets.astype(np.float32),
                                         val.grid.astype(np.float32)))
    logger, val_losses = MetricLogger(), []
    for it in range(cfg.steps):
        u, target = next(batches)
        params, opt_state, metrics = step(params, opt_state, u, target, grid, keys.next())
        if ckpt_dir and it % cfg.log_every == 0:
            save(os.path.join(ckpt_dir, f"ckpt_{it}.npz"), params, it)
        if it % cfg.log_every == 0:
            logger.log(it, **metrics)
            val_losses.append(evaluate(params, val_u, val_y, grid)[0])
    return params, jnp.stack(val_losses), logger.last()


def train_phases(cfg=dataclasses.replace(CFG, loss="sobolev_annealed"), weights=(1.0, 0.01)):
    """Sobolev weight annealed between phases of the same compiled step."""
    data, model, keys, params = setup(cfg)
    opt_state = adam_init(params)
    step = make_train_step(model, dataclasses.replace(cfg, donate=False))
    batches = data.batches(np.random.default_rng(cfg.seed), cfg.batch_size)
    grid = jnp.asarray(data.grid, jnp.float32)
    losses = []
    for weight in weights:
        set_sobolev_weight(weight)
        for _ in range(cfg.steps):
            params, opt_state, loss = step(params, opt_state, *next(batches), grid)
        losses.append(loss)
    set_sobolev_weight(0.1)
    return losses


def train_with_trainer(cfg=dataclasses.replace(CFG_OK, input_noise=0.1), trainer_cls=Trainer):
    data, model, keys, _ = setup(cfg)
    trainer = trainer_cls(model, cfg, keys.next())
    batches = data.batches(np.random.default_rng(cfg.seed), cfg.batch_size)
    trainer.fit(batches, 2, jnp.asarray(data.grid, jnp.float32), keys)
    return trainer.history


def case_train():
    with tempfile.TemporaryDirectory() as tmp:
        return train(ckpt_dir=tmp)


def case_train_logged():
    return train(dataclasses.replace(CFG_OK, steps=4))


def case_train_padded_rel_l2():
    """The last batch of an epoch is padded: the relative loss's gradient is NaN."""
    cfg = dataclasses.replace(CFG, donate=False, steps=3)
    data, model, keys, params = setup(cfg)
    step = make_train_step(model, cfg)
    batches = data.batches(np.random.default_rng(cfg.seed), cfg.batch_size)
    opt_state, grid = adam_init(params), jnp.asarray(data.grid, jnp.float32)
    for _ in range(3):
        params, opt_state, loss = step(params, opt_state, *next(batches), grid)
    return params


def case_train_sobolev():
    return train(dataclasses.replace(CFG_OK, loss="sobolev", donate=False))


def case_train_interior():
    return train(dataclasses.replace(CFG_OK, loss="interior", donate=False))


def case_train_noisy():
    return train(dataclasses.replace(CFG_OK, input_noise=0.05, donate=False))


def case_train_debug():
    return train(dataclasses.replace(CFG_OK, model=dataclasses.replace(CFG.model, debug=True), donate=False), None, FNO)


def case_train_checked():
    cfg = dataclasses.replace(CFG_OK, model=dataclasses.replace(CFG.model, activation="gelu_checked"), donate=False)
    return train(cfg)


def case_train_sharp_filter():
    return train(dataclasses.replace(CFG_OK, model=dataclasses.replace(CFG.model, filter="sharp"), donate=False), None, FNO)


def case_train_phases():
    return train_phases()


def case_train_counters():
    updates, norms = optim.UPDATES, len(optim.GRAD_NORMS)
    train(dataclasses.replace(CFG_OK, donate=False, steps=6))
    return optim.UPDATES - updates, len(optim.GRAD_NORMS) - norms


def case_train_with_trainer():
    return train_with_trainer()


def case_init_fno():
    return init_fno(jax.random.key(0), CFG.model)


def case_half_grid_features():
    data, model, keys, params = setup(CFG, FNO)
    return model.features(jnp.asarray(data.inputs[:2], jnp.float32), make_grid_half(CFG.data.n_grid))


def case_ok_train():
    with tempfile.TemporaryDirectory() as tmp:
        return train_ok(ckpt_dir=tmp)


def case_ok_train_losses():
    return [train_ok(dataclasses.replace(CFG_OK, loss=name))[1] for name in ("interior_ok", "rel_l2_ok")]


def case_ok_train_filters():
    return [train_ok(dataclasses.replace(CFG_OK, model=dataclasses.replace(CFG.model, filter=name)))[1]
            for name in ("lowpass", "sharp_ok")]


def case_ok_train_with_trainer():
    return train_with_trainer(trainer_cls=TrainerOk)


def case_ok_half_grid_features():
    data, model, keys, params = setup(CFG)
    return model.features(jnp.asarray(data.inputs[:2], jnp.float32), make_grid_half(CFG.data.n_grid))


if __name__ == "__main__":
    params, val_losses, last = train_ok()
    print("validation", jax.device_get(val_losses), last)
