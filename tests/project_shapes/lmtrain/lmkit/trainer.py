"""Trainer: the model split into its arrays and the rest, gradient accumulation over micro-batches,
the jitted train and eval steps."""
import functools

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

from . import schedule
from .losses import LOSSES

TOKENS_SEEN = 0


class Trainer:
    def __init__(self, model, cfg, donate=True, hand_schedule=False):
        self.cfg = cfg
        self.params, self.static = eqx.partition(model, eqx.is_inexact_array)
        self.tx = schedule.make_optimizer(cfg.optim, hand_schedule=hand_schedule)
        self.loss_fn = LOSSES[cfg.loss]
        self.traced_steps = 0
        self.step = jax.jit(self._train_step, donate_argnums=(0, 1) if donate else ())
        self.eval_step = jax.jit(self._eval_step)

    def init(self):
        return self.params, self.tx.init(self.params)

    def model(self, params):
        return eqx.combine(params, self.static)

    def _loss(self, params, x, y, key):
        return self.loss_fn(self.model(params), x, y, key)

    def _accumulate(self, params, x, y, key):
        n = self.cfg.grad_accum
        xs, ys = x.reshape(n, -1, x.shape[-1]), y.reshape(n, -1, y.shape[-1])
        keys = jax.random.split(key, n)
        loss, grads = 0.0, jax.tree.map(jnp.zeros_like, params)
        for i in range(n):
            micro_loss, micro_grads = jax.value_and_grad(self._loss)(params, xs[i], ys[i], keys[i])
            loss = loss + micro_loss / n
            grads = jax.tree.map(lambda g, m: g + m / n, grads, micro_grads)
        return loss, grads

    def _train_step(self, params, opt_state, x, y, key):
        global TOKENS_SEEN
        if not self.cfg.fresh_dropout_seed:
            # project shape (not a thread): a dropout seed drawn on the host while tracing, the same every step
            key = jax.random.key(np.random.randint(2 ** 31))  # reported: JNP305
        loss, grads = self._accumulate(params, x, y, key)
        if self.cfg.debug:
            # project shape (not a thread): the loss printed from inside the step
            print("step loss:", loss)  # reported: JNP301
        # project shape (not a thread): a step counter kept on the trainer
        self.traced_steps += 1  # reported: JNP303
        # project shape (not a thread): the tokens-seen counter advanced inside the step
        TOKENS_SEEN += x.size  # reported: JNP302
        updates, opt_state = self.tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, {"loss": loss, "grad_norm": optax.tree.norm(grads)}

    def _eval_step(self, params, x, y):
        return self.loss_fn(self.model(params), x, y)


@functools.partial(jax.jit, static_argnames=("loss_fn", "tx"))
def microbatch_step(params, opt_state, xs, ys, key, n_micro, loss_fn, tx):
    """One update from micro-batches stacked on the first axis, n_micro of them used."""
    keys = jax.random.split(key, xs.shape[0])
    loss, grads = 0.0, jax.tree.map(jnp.zeros_like, params)
    # project shape (not a thread): the number of micro-batches passed as a traced argument
    for i in range(n_micro):  # reported: JNP202
        micro_loss, micro_grads = jax.value_and_grad(loss_fn)(params, xs[i], ys[i], keys[i])
        loss = loss + micro_loss / n_micro
        grads = jax.tree.map(lambda g, m: g + m / n_micro, grads, micro_grads)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


@functools.partial(jax.jit, static_argnames=("loss_fn", "tx", "n_micro"))
def microbatch_step_static(params, opt_state, xs, ys, key, n_micro, loss_fn, tx):
    keys = jax.random.split(key, xs.shape[0])
    loss, grads = 0.0, jax.tree.map(jnp.zeros_like, params)
    for i in range(n_micro):
        micro_loss, micro_grads = jax.value_and_grad(loss_fn)(params, xs[i], ys[i], keys[i])
        loss = loss + micro_loss / n_micro
        grads = jax.tree.map(lambda g, m: g + m / n_micro, grads, micro_grads)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss
