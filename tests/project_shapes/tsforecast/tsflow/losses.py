"""Losses for non-negative forecasts."""
import jax.numpy as jnp


def mse(pred, target):
    return jnp.mean((pred - target) ** 2)


def wape(pred, target):
    """Absolute error over each window's total demand, 0 for windows without demand."""
    scale = jnp.abs(target).sum(axis=-1)
    err = jnp.abs(pred - target).sum(axis=-1)
    # project shape (not a thread): windows without demand divide by 0 in the dropped branch,
    # and the gradient through jnp.where is nan
    ratio = jnp.where(scale > 0, err / scale, 0.0)  # reported: JNP604
    return jnp.mean(ratio)


def safe_wape(pred, target):
    scale = jnp.abs(target).sum(axis=-1)
    err = jnp.abs(pred - target).sum(axis=-1)
    safe = jnp.where(scale > 0, scale, 1.0)
    return jnp.mean(jnp.where(scale > 0, err / safe, 0.0))
