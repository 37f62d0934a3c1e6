"""Trainer: the optimiser, the jitted train and eval steps, the loss history."""
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from . import data, optim
from .losses import LOSSES


class TrainState(NamedTuple):
    params: dict
    opt_state: tuple


class Trainer:
    def __init__(self, model, cfg, donate=False):
        self.model, self.cfg = model, cfg
        self.tx = optim.make_optimizer(cfg.optim)
        self.loss_fn = functools.partial(LOSSES[cfg.loss], model)
        self.grad_norms = []
        self.history = []
        self.valid_history = []
        self.step = jax.jit(self._train_step, donate_argnums=(0,) if donate else ())
        self.eval_step = jax.jit(self._eval_step)

    def init(self, key):
        params = self.model.init(key)
        return TrainState(params, self.tx.init(params))

    def _train_step(self, state, graph, key):
        if self.cfg.augment_in_step:
            # project shape (not a thread): a host-random rotation drawn while tracing, the same every step
            graph = data.rotate(graph, data.random_rotation())  # reported: JNP305
        loss, grads = jax.value_and_grad(self.loss_fn)(state.params, graph, key)
        if self.cfg.debug:
            # project shape (not a thread): a debugging print of the loss inside the step
            print(f"train loss {loss}")  # reported: JNP301
        # project shape (not a thread): a skipped update when the traced loss is not finite
        if self.cfg.skip_nonfinite and not jnp.isfinite(loss):  # reported: JNP202
            return state, {"loss": loss}
        # project shape (not a thread): the gradient norms kept on the trainer for a plot
        self.grad_norms.append(optax.tree.norm(grads))  # reported: JNP303
        updates, opt_state = self.tx.update(grads, state.opt_state, state.params)
        return TrainState(optax.apply_updates(state.params, updates), opt_state), {"loss": loss}

    def _eval_step(self, params, graph):
        return self.loss_fn(params, graph)

    def fit(self, state, loader, key, steps=None):
        batches = loader.forever()
        for _ in range(steps or self.cfg.steps):
            key, sub = jax.random.split(key)
            state, metrics = self.step(state, next(batches), sub)
            # project shape (not a thread): the loss read back to the host on every step
            self.history.append(np.asarray(metrics["loss"]))  # reported: JNP101
        return state

    def validate(self, params, loader):
        losses = [self.eval_step(params, graph) for graph in loader]
        self.valid_history.append(jnp.mean(jnp.stack(losses)))
        return self.valid_history[-1]

    def improved(self):
        # project shape (not a thread): the best validation loss of a Python list of device scalars
        return self.valid_history[-1] <= jnp.min(self.valid_history)  # reported: JNP505
