"""Step factories: each jits a step defined inside it, the loss looked up by name."""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from .losses import LOSSES
from .optim import adam_update, adam_update_ok


def make_train_step(model, cfg):
    loss_fn = LOSSES[cfg.loss]

    def objective(params, u, target, grid):
        if cfg.input_noise > 0:
            # project shape (not a thread): host noise drawn while the step is traced, the same on every call
            u = u + cfg.input_noise * np.random.standard_normal(u.shape).astype(np.float32)  # reported: JNP305
        return loss_fn(model.apply(params, u, grid), target)

    def step(params, opt_state, u, target, grid):
        loss, grads = jax.value_and_grad(objective)(params, u, target, grid)
        params, opt_state = adam_update(grads, opt_state, params, cfg.lr)
        return params, opt_state, loss

    return jax.jit(step, donate_argnums=(0, 1) if cfg.donate else ())


def make_train_step_ok(model, cfg):
    loss_fn = LOSSES[cfg.loss]

    def objective(params, u, target, grid, key):
        u = u + cfg.input_noise * jax.random.normal(key, u.shape)
        return loss_fn(model.apply(params, u, grid), target)

    @functools.partial(jax.jit, donate_argnums=(0, 1))
    def step(params, opt_state, u, target, grid, key):
        loss, grads = jax.value_and_grad(objective)(params, u, target, grid, key)
        params, opt_state, norm = adam_update_ok(grads, opt_state, params, cfg.lr)
        return params, opt_state, {"loss": loss, "grad_norm": norm}

    return step


def make_eval_step(model, loss_name="rel_l2_ok"):
    loss_fn = LOSSES[loss_name]

    @jax.jit
    def evaluate(params, u, target, grid):
        pred = model.apply(params, u, grid)
        return loss_fn(pred, target), jnp.max(jnp.abs(pred - target))

    return evaluate
