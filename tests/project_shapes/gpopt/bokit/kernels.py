"""Covariance functions looked up by name; hyperparameters are logs in a dict."""
import jax.numpy as jnp
import numpy as np


def scaled_sq_dist(params, x1, x2):
    diff = (x1[:, None, :] - x2[None, :, :]) / jnp.exp(params["log_lengthscale"])
    return jnp.sum(diff ** 2, axis=-1)


def rbf(params, x1, x2):
    return jnp.exp(params["log_variance"]) * jnp.exp(-0.5 * scaled_sq_dist(params, x1, x2))


def matern52(params, x1, x2):
    d2 = scaled_sq_dist(params, x1, x2)
    # project shape (not a thread): the square root guarded after it is taken; zero distances give a nan gradient
    r = jnp.where(d2 > 0, jnp.sqrt(d2), 0.0)  # reported: JNP604
    return jnp.exp(params["log_variance"]) * (1.0 + jnp.sqrt(5.0) * r + 5.0 / 3.0 * d2) * jnp.exp(-jnp.sqrt(5.0) * r)


def matern52_ok(params, x1, x2):
    d2 = scaled_sq_dist(params, x1, x2)
    r = jnp.where(d2 > 0, jnp.sqrt(jnp.where(d2 > 0, d2, 1.0)), 0.0)
    return jnp.exp(params["log_variance"]) * (1.0 + jnp.sqrt(5.0) * r + 5.0 / 3.0 * d2) * jnp.exp(-jnp.sqrt(5.0) * r)


def periodic(params, x1, x2):
    diff = x1[:, None, :] - x2[None, :, :]
    # project shape (not a thread): NumPy's sine on the traced differences
    s = np.sin(np.pi * diff / jnp.exp(params["log_period"]))  # reported: JNP201
    return jnp.exp(params["log_variance"]) * jnp.exp(-2.0 * jnp.sum((s / jnp.exp(params["log_lengthscale"])) ** 2, -1))


def periodic_ok(params, x1, x2):
    diff = x1[:, None, :] - x2[None, :, :]
    s = jnp.sin(jnp.pi * diff / jnp.exp(params["log_period"]))
    return jnp.exp(params["log_variance"]) * jnp.exp(-2.0 * jnp.sum((s / jnp.exp(params["log_lengthscale"])) ** 2, -1))


KERNELS = {"rbf": rbf, "matern52": matern52, "matern52_ok": matern52_ok, "periodic": periodic,
           "periodic_ok": periodic_ok}
