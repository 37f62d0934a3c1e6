"""Trainer: owns the schedule, the jitted train and eval steps and the metric logger."""
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from . import optim
from .losses import LOSSES
from .metrics import MetricLogger
from .schedule import make_schedule, timesteps_and_noise


class TrainState(NamedTuple):
    params: list
    opt_state: dict
    ema: list


class Trainer:
    def __init__(self, model, cfg, donate=False):
        self.model, self.cfg = model, cfg
        self.sched = jax.device_put(make_schedule(cfg.schedule))
        self.loss_fn = functools.partial(LOSSES[cfg.loss], model)
        self.logger = MetricLogger()
        self.last_grad_norm = None
        self.step = jax.jit(self._train_step, donate_argnums=(0,) if donate else ())
        self.eval_loss = jax.jit(self._eval_loss)

    def init(self, key):
        params = self.model.init(key)
        return TrainState(params, optim.adam_init(params), jax.tree_util.tree_map(jnp.copy, params))

    def _train_step(self, state, x0, key):
        if self.cfg.jitter:
            # project shape (not a thread): jitter drawn by NumPy while tracing, the same every step
            x0 = x0 + self.cfg.jitter * np.random.standard_normal(x0.shape).astype(np.float32)  # reported: JNP305
        t, noise = timesteps_and_noise(key, x0, self.cfg.schedule.num_steps)
        loss, grads = jax.value_and_grad(self.loss_fn)(state.params, x0, t, noise, self.sched)
        # project shape (not a thread): the gradient norm kept on the trainer for the logger
        self.last_grad_norm = optim.global_norm(grads)  # reported: JNP303
        params, opt_state = optim.adam_update(grads, state.opt_state, state.params)
        decay = self.cfg.ema_decay
        ema = jax.tree_util.tree_map(lambda e, p: decay * e + (1.0 - decay) * p, state.ema, params)
        return TrainState(params, opt_state, ema), {"loss": loss}

    def _eval_loss(self, params, x0, key):
        t, noise = timesteps_and_noise(key, x0, self.cfg.schedule.num_steps)
        return self.loss_fn(params, x0, t, noise, self.sched)

    def fit(self, state, loader, key, steps=None):
        batches = loader.forever()
        for i in range(steps or self.cfg.steps):
            key, sub = jax.random.split(key)
            state, metrics = self.step(state, next(batches), sub)
            if i % self.cfg.log_every == 0:
                self.logger.log(i, **metrics)
        return state
