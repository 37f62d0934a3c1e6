"""Factories of the jitted steps; loop.py and evaluate.py call them."""
import jax
import jax.numpy as jnp

from classikit.config import TrainConfig
from classikit.data import pipeline
from classikit.models import apply

from . import callbacks


def cross_entropy(logits, labels):
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=-1))


def _descend(params, grads, lr):
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


def make_train_step(cfg: TrainConfig, forward=apply):
    def loss_fn(params, x, y):
        return cross_entropy(forward(params, x), y)

    def step(params, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        return _descend(params, grads, cfg.learning_rate), loss

    return jax.jit(step)


def make_scheduled_step(cfg: TrainConfig):
    def loss_fn(params, x, y):
        return cross_entropy(apply(params, x), y)

    def step(params, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        # project shape (not a thread): the scale callbacks.decay_lr() rebinds, read in a jitted step
        lr = cfg.learning_rate * callbacks.LR_SCALE  # reported: JNP304
        return _descend(params, grads, lr), loss

    return jax.jit(step)


def make_scheduled_step_ok(cfg: TrainConfig):
    def loss_fn(params, x, y):
        return cross_entropy(apply(params, x), y)

    def step(params, x, y, lr_scale):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        return _descend(params, grads, cfg.learning_rate * lr_scale), loss

    return jax.jit(step)


def make_counted_step(cfg: TrainConfig):
    def step(params, x, y):
        loss, grads = jax.value_and_grad(lambda p: cross_entropy(apply(p, x), y))(params)
        callbacks.record(callbacks.on_step(loss))
        return _descend(params, grads, cfg.learning_rate), loss

    return jax.jit(step)


def make_augmented_step(cfg: TrainConfig):
    def step(params, x, y):
        x = pipeline.augment(x)
        loss, grads = jax.value_and_grad(lambda p: cross_entropy(apply(p, x), y))(params)
        return _descend(params, grads, cfg.learning_rate), loss

    return jax.jit(step)


def make_keyed_step(cfg: TrainConfig):
    def step(params, key, x, y):
        x = pipeline.augment_with_key(key, x)
        loss, grads = jax.value_and_grad(lambda p: cross_entropy(apply(p, x), y))(params)
        return _descend(params, grads, cfg.learning_rate), loss

    return jax.jit(step)


def make_eval_step(forward=apply):
    def step(params, x):
        return forward(params, x)

    return jax.jit(step)
