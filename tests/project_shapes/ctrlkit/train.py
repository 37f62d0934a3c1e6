"""Fit the learned pendulum dynamics on random transitions of the NumPy plant: `python train.py`."""
import argparse
import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from ctrlkit import (KeyStream, PendulumPlant, ReplayBuffer, RunConfig, Trainer, collect_random, dims,
                     make_ensemble, make_ensemble_ok, make_model, make_optimizer, make_train_step, one_step_error,
                     tree_distance, tree_distance_ok)

CFG = RunConfig()


def collect(cfg=CFG):
    plant = PendulumPlant(cfg.dynamics.dt, cfg.dynamics.max_action, seed=cfg.seed)
    buffer = ReplayBuffer(cfg.buffer_size, *dims(cfg.dynamics))
    rng = np.random.default_rng(cfg.seed)
    return collect_random(plant, buffer, rng, cfg.n_episodes, cfg.episode_len, cfg.dynamics.max_action)


def new_model(cfg, buffer, keys):
    return make_model(cfg.dynamics, *dims(cfg.dynamics), keys(), buffer.statistics())


def train(cfg=CFG, fit="fit_ok", donate=False):
    buffer, keys = collect(cfg), KeyStream(cfg.seed)
    trainer = Trainer(cfg, new_model(cfg, buffer, keys), donate=donate)
    model = getattr(trainer, fit)(buffer, np.random.default_rng(cfg.seed), cfg.n_train_steps)
    return model, trainer.history, buffer


def train_validated(cfg=CFG, fit="fit_validated_ok", n_epochs=3):
    buffer, keys = collect(cfg), KeyStream(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    train_split, valid_split = buffer.split(0.2, rng)
    trainer = Trainer(cfg, new_model(cfg, buffer, keys))
    return getattr(trainer, fit)(train_split, valid_split, rng, n_epochs)


def train_measured(cfg=CFG, donate=True):
    """Trains with the bare step, then reports how far the parameters moved from their start."""
    buffer, keys = collect(cfg), KeyStream(cfg.seed)
    optimizer = make_optimizer(cfg)
    params, static, step = make_train_step(new_model(cfg, buffer, keys), optimizer, donate=donate)
    opt_state = optimizer.init(params)
    initial = params
    rng = np.random.default_rng(cfg.seed)
    for _ in range(cfg.n_train_steps):
        params, opt_state, loss = step(params, opt_state, *buffer.sample(rng, cfg.batch_size))
    # project shape (not a thread): the first parameters read after the donating steps deleted them
    return tree_distance_ok(params, initial), loss  # reported: JNP605


def train_measured_ok(cfg=CFG, donate=True):
    buffer, keys = collect(cfg), KeyStream(cfg.seed)
    optimizer = make_optimizer(cfg)
    params, static, step = make_train_step(new_model(cfg, buffer, keys), optimizer, donate=donate)
    opt_state = optimizer.init(params)
    initial = jax.tree.map(jnp.copy, params)
    rng = np.random.default_rng(cfg.seed)
    for _ in range(cfg.n_train_steps):
        params, opt_state, loss = step(params, opt_state, *buffer.sample(rng, cfg.batch_size))
    return tree_distance_ok(params, initial), loss


def ensemble_spread(members, buffer):
    xs, us, _ = buffer.sample(np.random.default_rng(1), 16)
    predictions = jnp.stack([jax.vmap(m)(xs, us) for m in members])
    return jnp.mean(jnp.std(predictions, axis=0))


def case_fit():
    return train(fit="fit")[1]


def case_validated():
    return train_validated(fit="fit_validated")[1]


def case_measured():
    return train_measured()


def case_ensemble():
    buffer = collect()
    return ensemble_spread(make_ensemble(CFG.dynamics, *dims(CFG.dynamics), KeyStream(1)(), 3), buffer)


def arrays(model):
    return eqx.filter(model, eqx.is_array)


def case_tree_distance():
    model, _, buffer = train()
    return tree_distance(arrays(model), arrays(new_model(CFG, buffer, KeyStream(CFG.seed))))


def case_ok_fit():
    return train()[1]


def case_ok_validated():
    return train_validated()[1]


def case_ok_measured():
    return train_measured(donate=False), train_measured_ok()


def case_ok_ensemble():
    buffer = collect()
    return ensemble_spread(make_ensemble_ok(CFG.dynamics, *dims(CFG.dynamics), KeyStream(1)(), 3), buffer)


def case_ok_tree_distance():
    model, _, buffer = train()
    return tree_distance_ok(arrays(model), arrays(new_model(CFG, buffer, KeyStream(CFG.seed))))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=CFG.n_train_steps)
    args = parser.parse_args()
    cfg = dataclasses.replace(CFG, n_train_steps=args.steps)
    model, history, buffer = train(cfg)
    error = one_step_error(model, buffer.x[:buffer.size], buffer.u[:buffer.size], buffer.x_next[:buffer.size])
    print(f"final loss {history[-1]:.5f}, one-step error {float(error):.5f}")
