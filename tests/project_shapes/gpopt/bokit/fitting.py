"""Hyperparameter fitting with Optax: a step factory, a fitter class, random restarts."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax

from .gp import LOSSES, init_params, neg_mll


def make_fit_step(kernel, prior="none", lr=0.05, donate=True, loss="mll"):
    """An Adam step on the negative log marginal likelihood, jitted, donating the parameters and state."""
    opt = optax.adam(lr)
    loss_fn = functools.partial(LOSSES[loss], kernel=kernel, prior=prior)

    def step(params, opt_state, X, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, X, y)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return opt, jax.jit(step, donate_argnums=(0, 1) if donate else ())


class HyperFitter:
    """Fits the hyperparameters; the step is jitted from a method in __init__."""

    def __init__(self, kernel, prior="none", lr=0.05):
        self.opt = optax.adam(lr)
        self.loss_fn = functools.partial(neg_mll, kernel=kernel, prior=prior)
        self.losses = []
        self.step = jax.jit(self._step)

    def _step(self, params, opt_state, X, y):
        loss, grads = jax.value_and_grad(self.loss_fn)(params, X, y)
        updates, opt_state = self.opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    def fit(self, params, X, y, n_steps):
        opt_state = self.opt.init(params)
        for _ in range(n_steps):
            params, opt_state, loss = self.step(params, opt_state, X, y)
            # project shape (not a thread): the loss read back on every step of the fit
            self.losses.append(float(loss))  # reported: JNP102
        return params


class HyperFitterOk(HyperFitter):
    def fit(self, params, X, y, n_steps):
        opt_state = self.opt.init(params)
        losses = []
        for _ in range(n_steps):
            params, opt_state, loss = self.step(params, opt_state, X, y)
            losses.append(loss)
        self.losses.extend(np.asarray(jnp.stack(losses)).tolist())
        return params


def fit_restarts(fitter, key, X, y, n_restarts, n_steps):
    """Fits from several random starts and keeps the best by final loss."""
    best, best_loss = None, np.inf
    for _ in range(n_restarts):
        # project shape (not a thread): every restart starts from the same key, so from the same point
        params = fitter.fit(init_params(key, X.shape[1]), X, y, n_steps)  # reported: JNP601
        if fitter.losses[-1] < best_loss:
            best, best_loss = params, fitter.losses[-1]
    return best


def fit_restarts_ok(fitter, key, X, y, n_restarts, n_steps):
    best, best_loss = None, np.inf
    for k in jax.random.split(key, n_restarts):
        params = fitter.fit(init_params(k, X.shape[1]), X, y, n_steps)
        if fitter.losses[-1] < best_loss:
            best, best_loss = params, fitter.losses[-1]
    return best


def to_host(params):
    """The hyperparameters as NumPy arrays, for logs and checkpoints."""
    # project shape (not a thread): the tree map under its old top-level name
    return jax.tree_map(np.asarray, params)  # reported: JNP504


def to_host_ok(params):
    return jax.tree_util.tree_map(np.asarray, params)
