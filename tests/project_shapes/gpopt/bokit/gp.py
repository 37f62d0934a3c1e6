"""Exact GP regression: Gram matrices, the marginal likelihood, the posterior, a GP class."""
import functools

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np

from .kernels import KERNELS
from .priors import PRIORS

JITTER = 1e-6


def set_jitter(value):
    global JITTER
    JITTER = value


def init_params(key, dim, init_lengthscale=0.3):
    k_ls, k_var = jax.random.split(key)
    return {"log_lengthscale": jnp.log(init_lengthscale) + 0.1 * jax.random.normal(k_ls, (dim,)),
            "log_variance": 0.1 * jax.random.normal(k_var, ()),
            "log_noise": jnp.asarray(-4.0), "log_period": jnp.asarray(0.0)}


def gram(kernel, params, X):
    K = kernel(params, X, X)
    # project shape (not a thread): the module jitter read while the loss is traced, then kept by the compiled step
    return K + (jnp.exp(params["log_noise"]) + JITTER) * jnp.eye(X.shape[0])  # reported: JNP304


def gram_ok(kernel, params, X, jitter=1e-6):
    return kernel(params, X, X) + (jnp.exp(params["log_noise"]) + jitter) * jnp.eye(X.shape[0])


def add_noise(K, noise):
    """The noise added on the diagonal, as the NumPy prototype did it."""
    # project shape (not a thread): an in-place update of the diagonal of a JAX Gram matrix
    K[np.diag_indices_from(K)] += noise  # reported: JNP501
    return K


def add_noise_ok(K, noise):
    return K + noise * jnp.eye(K.shape[0], dtype=K.dtype)


def checked_cholesky(K):
    L = jnp.linalg.cholesky(K)
    # project shape (not a thread): a Python test of the traced factor, to fail early on an indefinite matrix
    if jnp.any(jnp.isnan(L)):  # reported: JNP202
        raise np.linalg.LinAlgError("Gram matrix is not positive definite; raise the jitter")
    return L


def neg_mll(params, X, y, kernel="matern52_ok", prior="none"):
    """The negative log marginal likelihood, minus the log prior."""
    L = jnp.linalg.cholesky(gram(KERNELS[kernel], params, X))
    alpha = jsl.cho_solve((L, True), y)
    nll = 0.5 * y @ alpha + jnp.sum(jnp.log(jnp.diag(L))) + 0.5 * y.shape[0] * jnp.log(2 * jnp.pi)
    return nll - PRIORS[prior](params)


def neg_mll_checked(params, X, y, kernel="matern52_ok", prior="none"):
    L = checked_cholesky(gram_ok(KERNELS[kernel], params, X))
    alpha = jsl.cho_solve((L, True), y)
    return 0.5 * y @ alpha + jnp.sum(jnp.log(jnp.diag(L))) - PRIORS[prior](params)


def neg_mll_ok(params, X, y, kernel="matern52_ok", prior="none", jitter=1e-6):
    L = jnp.linalg.cholesky(gram_ok(KERNELS[kernel], params, X, jitter))
    alpha = jsl.cho_solve((L, True), y)
    nll = 0.5 * y @ alpha + jnp.sum(jnp.log(jnp.diag(L))) + 0.5 * y.shape[0] * jnp.log(2 * jnp.pi)
    return nll - PRIORS[prior](params)


def posterior(kernel, params, X, y, Xs):
    """Posterior mean and variance of f at Xs."""
    L = jnp.linalg.cholesky(gram_ok(kernel, params, X))
    Ks = kernel(params, X, Xs)
    mu = Ks.T @ jsl.cho_solve((L, True), y)
    v = jsl.solve_triangular(L, Ks, lower=True)
    return mu, jnp.maximum(jnp.exp(params["log_variance"]) - jnp.sum(v ** 2, axis=0), 1e-12)


def posterior_mean(kernel, params, X, y, Xs):
    L = jnp.linalg.cholesky(gram_ok(kernel, params, X))
    # project shape (not a thread): SciPy's Cholesky solve looked for under jax.numpy.linalg
    alpha = jnp.linalg.cho_solve((L, True), y)  # reported: JNP502
    return kernel(params, X, Xs).T @ alpha


def posterior_mean_ok(kernel, params, X, y, Xs):
    L = jnp.linalg.cholesky(gram_ok(kernel, params, X))
    return kernel(params, X, Xs).T @ jsl.cho_solve((L, True), y)


LOSSES = {"mll": neg_mll, "mll_checked": neg_mll_checked, "mll_ok": neg_mll_ok}


class GP:
    """Binds a KernelConfig; hyperparameters and data are passed to predict."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.kernel = KERNELS[cfg.name]

    def init_params(self, key, dim):
        return init_params(key, dim, self.cfg.init_lengthscale)

    # project shape (not a thread): a method jitted with self, a plain object, as its first argument
    @jax.jit  # reported: JNP205
    def predict(self, params, X, y, Xs):
        return posterior(self.kernel, params, X, y, Xs)


class GPOk(GP):
    @functools.partial(jax.jit, static_argnums=0)
    def predict(self, params, X, y, Xs):
        return posterior(self.kernel, params, X, y, Xs)
