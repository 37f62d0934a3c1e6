"""Training. `Trainer` drives an NNX model with an Optax optimizer through a step it jits in
`__init__`; `sgd_step` and `scheduled_step` update the plain-JAX model's parameter list."""
import functools
import math

import jax
import jax.numpy as jnp
import optax
from flax import nnx

from .losses import mse
from .models import mlp


def _train_step(model, optimizer, x, y, loss_fn):
    def objective(model):
        return loss_fn(model(x), y)

    loss, grads = nnx.value_and_grad(objective)(model)
    optimizer.update(model, grads)
    return loss


def _checked_train_step(model, optimizer, x, y, loss_fn):
    loss = _train_step(model, optimizer, x, y, loss_fn)
    # project shape (not a thread): a NaN guard on the traced loss inside the jitted step
    if jnp.isnan(loss):  # reported: JNP202
        raise FloatingPointError("the loss is nan")
    return loss


def _guarded_train_step(model, optimizer, x, y, loss_fn):
    loss = _train_step(model, optimizer, x, y, loss_fn)
    return jnp.where(jnp.isnan(loss), jnp.inf, loss)


class Trainer:
    def __init__(self, model, cfg, loss_fn=mse, check_nan=False):
        self.model = model
        self.cfg = cfg
        self.optimizer = nnx.Optimizer(model, optax.adam(cfg.learning_rate), wrt=nnx.Param)
        step_fn = _checked_train_step if check_nan else _guarded_train_step
        self.step = nnx.jit(functools.partial(step_fn, loss_fn=loss_fn))
        self.history = []

    def fit(self, data, verbose=False):
        for epoch in range(self.cfg.epochs):
            for i, (xb, yb) in enumerate(data.batches(self.cfg.batch_size, seed=epoch)):
                loss = self.step(self.model, self.optimizer, xb, yb)
                # project shape (not a thread): the loss read back as a Python float every step
                self.history.append(loss.item())  # reported: JNP102
                if verbose:
                    # project shape (not a thread): every step formats the loss when verbose
                    print(f"epoch {epoch} batch {i}: loss {loss:.4f}")  # reported: JNP103
        return self.history

    def fit_on_device(self, data, verbose=False):
        for epoch in range(self.cfg.epochs):
            for i, (xb, yb) in enumerate(data.batches(self.cfg.batch_size, seed=epoch)):
                loss = self.step(self.model, self.optimizer, xb, yb)
                self.history.append(loss)
                if verbose and i % self.cfg.log_every == 0:
                    print(f"epoch {epoch} batch {i}: loss {loss:.4f}")
        return jnp.stack(self.history)


def _sgd(params, x, y, lr, apply_fn=mlp.apply_cast, loss_fn=mse):
    loss, grads = jax.value_and_grad(lambda p: loss_fn(apply_fn(p, x), y))(params)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), loss


sgd_step = jax.jit(_sgd, donate_argnums=0)
scheduled_step = jax.jit(_sgd, static_argnames="lr")


def cosine_lr(base, step, total):
    return base * 0.5 * (1.0 + math.cos(math.pi * step / total))
