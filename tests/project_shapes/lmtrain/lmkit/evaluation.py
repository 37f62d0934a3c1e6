"""Evaluation: validation loss and perplexity over fixed windows, token-level statistics."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from .losses import logits_of, token_nll


class TokenStats:
    """Per-token losses of a model on a dataset's fixed validation windows."""

    def __init__(self, static, dataset, batch_size, n_batches):
        self.static = static
        self.batches = list(dataset.eval_batches(batch_size, n_batches))

    # project shape (not a thread): a method of an ordinary class jitted with its self
    @jax.jit  # reported: JNP205
    def token_losses(self, params, x, y):
        return token_nll(logits_of(eqx.combine(params, self.static), x), y)

    def all_token_losses(self, params):
        return [self.token_losses(params, x, y) for x, y in self.batches]


class TokenStatsOk:
    def __init__(self, static, dataset, batch_size, n_batches):
        self.static = static
        self.batches = list(dataset.eval_batches(batch_size, n_batches))
        self.token_losses = jax.jit(lambda params, x, y: token_nll(logits_of(eqx.combine(params, static), x), y))

    def all_token_losses(self, params):
        return [self.token_losses(params, x, y) for x, y in self.batches]


def validation_loss(eval_step, params, batches):
    losses = [eval_step(params, x, y) for x, y in batches]
    # project shape (not a thread): the mean of a Python list of device scalars
    return jnp.mean(losses)  # reported: JNP505


def validation_loss_stacked(eval_step, params, batches):
    return jnp.mean(jnp.stack([eval_step(params, x, y) for x, y in batches]))


def make_metrics_step(eval_step):
    @jax.jit
    def metrics_step(params, x, y):
        loss = eval_step(params, x, y)
        # project shape (not a thread): NumPy's exp of the traced loss
        return {"loss": loss, "perplexity": np.exp(loss)}  # reported: JNP201

    return metrics_step


def make_metrics_step_ok(eval_step):
    @jax.jit
    def metrics_step(params, x, y):
        loss = eval_step(params, x, y)
        return {"loss": loss, "perplexity": jnp.exp(loss)}

    return metrics_step
