"""Evaluation metrics: relative errors, energies, worst cases, robustness to perturbations."""
import functools

import jax
import jax.numpy as jnp


@jax.jit
def relative_errors(pred, target):
    return jnp.linalg.norm(pred - target, axis=-1) / jnp.linalg.norm(target, axis=-1)


def energy(u, grid):
    """The L2 energy of each field, integrated on the grid."""
    # project shape (not a thread): the trapezoid rule under its old NumPy name
    return jnp.trapz(u ** 2, grid, axis=-1)  # reported: JNP504


def energy_ok(u, grid):
    return jnp.trapezoid(u ** 2, grid, axis=-1)


def summary(pred, target):
    errs = relative_errors(pred, target)
    # project shape (not a thread): the mean of a Python list of device scalars
    return {"mean": jnp.mean([errs.mean(), errs.max()]), "errs": errs}  # reported: JNP505


def summary_ok(pred, target):
    errs = relative_errors(pred, target)
    return {"mean": jnp.mean(jnp.stack([errs.mean(), errs.max()])), "errs": errs}


def worst_cases(errs, k=3):
    # project shape (not a thread): NumPy's sort kind asked of JAX
    return jnp.argsort(errs, kind="stable")[::-1][:k]  # reported: JNP503


def worst_cases_ok(errs, k=3):
    return jnp.argsort(errs, stable=True)[::-1][:k]


def perturb(u, eps):
    """Inputs with white noise, to measure the operator's sensitivity."""
    # project shape (not a thread): NumPy's random module looked for under jax.numpy
    return u + eps * jnp.random.standard_normal(u.shape)  # reported: JNP502


def perturb_ok(u, eps, key):
    return u + eps * jax.random.normal(key, u.shape)


class Evaluator:
    """Scores a model's predictions on a fixed grid."""

    def __init__(self, model, grid):
        self.model, self.grid = model, grid

    # project shape (not a thread): a method jitted with self, a plain object, as its first argument
    @jax.jit  # reported: JNP205
    def score(self, params, u, target):
        return relative_errors(self.model.apply(params, u, self.grid), target).mean()


class EvaluatorOk:
    def __init__(self, model, grid):
        self.model, self.grid = model, grid

    @functools.partial(jax.jit, static_argnums=0)
    def score(self, params, u, target):
        return relative_errors(self.model.apply(params, u, self.grid), target).mean()
