"""Evaluation of the plain-JAX model: jitted metrics, a recursive rollout, post-processing."""
from functools import partial

import jax
import jax.numpy as jnp

from .models import mlp


@jax.jit
def predict(params, x):
    return mlp.apply_cast(params, x)


@jax.jit
def masked_mae(pred, target):
    valid = ~jnp.isnan(target)
    # project shape (not a thread): boolean-mask indexing gives a shape jit cannot know
    return jnp.abs(pred[valid] - target[valid]).mean()  # reported: JNP203


@jax.jit
def masked_mae_where(pred, target):
    valid = ~jnp.isnan(target)
    err = jnp.where(valid, jnp.abs(pred - jnp.nan_to_num(target)), 0.0)
    return err.sum() / valid.sum()


@jax.jit
def eval_loss(params, x, y):
    return jnp.mean((mlp.apply_cast(params, x) - y) ** 2)


@jax.jit
def rollout(params, x, steps):
    window, outputs = x, []
    # project shape (not a thread): the number of steps is a traced argument
    for _ in range(steps):  # reported: JNP202
        nxt = mlp.apply_cast(params, window)[:, :1]
        outputs.append(nxt)
        window = jnp.concatenate([window[:, 1:], nxt], axis=1)
    return jnp.concatenate(outputs, axis=1)


@partial(jax.jit, static_argnames="steps")
def rollout_static(params, x, steps):
    window, outputs = x, []
    for _ in range(steps):
        nxt = mlp.apply_cast(params, window)[:, :1]
        outputs.append(nxt)
        window = jnp.concatenate([window[:, 1:], nxt], axis=1)
    return jnp.concatenate(outputs, axis=1)


def postprocess(pred, floor=0.0):
    # project shape (not a thread): NumPy-style clipping of the JAX forecasts from predict()
    pred[pred < floor] = floor  # reported: JNP501
    return pred


def postprocess_where(pred, floor=0.0):
    return jnp.where(pred < floor, floor, pred)
