"""Denoising score-matching objectives, looked up by name in LOSSES."""
import jax.numpy as jnp

from .schedule import min_snr_weight, q_sample

LAST_ERRORS = None


def eps_loss(apply_fn, params, x0, t, noise, sched):
    global LAST_ERRORS
    err = jnp.sum((apply_fn(params, q_sample(sched, x0, t, noise), t) - noise) ** 2, -1)
    # project shape (not a thread): the per-sample errors kept in a module global for a histogram
    LAST_ERRORS = err  # reported: JNP302
    return jnp.mean(err)


def min_snr_loss(apply_fn, params, x0, t, noise, sched):
    weights = min_snr_weight(sched, t)
    pred = apply_fn(params, q_sample(sched, x0, t, noise), t)
    return jnp.mean(weights * jnp.sum((pred - noise) ** 2, -1))


def interior_loss(apply_fn, params, x0, t, noise, sched):
    """Leaves out t == 0, whose targets are almost the data itself."""
    err = jnp.sum((apply_fn(params, q_sample(sched, x0, t, noise), t) - noise) ** 2, -1)
    # project shape (not a thread): a boolean mask on the traced timesteps
    return jnp.mean(err[t > 0])  # reported: JNP203


def interior_loss_where(apply_fn, params, x0, t, noise, sched):
    err = jnp.sum((apply_fn(params, q_sample(sched, x0, t, noise), t) - noise) ** 2, -1)
    keep = t > 0
    return jnp.sum(jnp.where(keep, err, 0.0)) / jnp.maximum(keep.sum(), 1)


LOSSES = {"eps": eps_loss, "min_snr": min_snr_loss, "interior": interior_loss,
          "interior_where": interior_loss_where}
