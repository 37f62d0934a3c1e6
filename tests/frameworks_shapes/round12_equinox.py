"""Equinox code as users write it (restarts, array fields, multi-head models, logging, sinc features, clipping), held out (needs equinox and optax)."""
import logging
import time
from typing import Any, Callable

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


# framework shape (not a thread)
# After https://github.com/patrick-kidger/equinox/issues/686: a Module keeps a jax.jit-wrapped
# function as a field; every random restart builds the Module again, with a new wrapper, which
# eqx.filter_jit takes as a new static value, so the step compiles again at every restart.
class Trajectory(eqx.Module):
    layer: eqx.nn.Linear
    forward: Callable

    def __init__(self, key, wrapped):
        self.layer = eqx.nn.Linear(1, 3, key=key)
        self.forward = jax.jit(jnp.tanh) if wrapped else jnp.tanh

    def __call__(self, t):
        return self.forward(self.layer(t))


_trajectory_optim = optax.sgd(0.1)


@eqx.filter_jit
def _fit_step(model, opt_state, ts, ys):
    loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((jax.vmap(m)(ts) - ys) ** 2))(model)
    updates, opt_state = _trajectory_optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


def _restarts(wrapped):
    ts, ys = jnp.linspace(0.0, 1.0, 8)[:, None], jnp.zeros((8, 3))
    losses = []
    for seed in range(4):
        model = Trajectory(jax.random.PRNGKey(seed), wrapped)
        opt_state = _trajectory_optim.init(eqx.filter(model, eqx.is_array))
        for _ in range(3):
            model, opt_state, loss = _fit_step(model, opt_state, ts, ys)  # reported: JNP602
        losses.append(loss)
    return losses


def case_jit_wrapped_field_rebuilt_every_restart():
    return _restarts(True)


def case_ok_plain_function_field_every_restart():
    return _restarts(False)


# framework shape (not a thread)
# The number of features a head keeps is stored as a JAX array field; eqx.filter_jit traces array
# fields, so the slice bound is a tracer (a Python int field would stay static).
class Truncated(eqx.Module):
    linear: eqx.nn.Linear
    keep: Any

    def __call__(self, x):
        return self.linear(x)[: self.keep].sum()  # reported: JNP202


def _truncated(keep):
    model = Truncated(eqx.nn.Linear(3, 4, key=jax.random.PRNGKey(0)), keep)
    return eqx.filter_jit(lambda model, x: model(x))(model, jnp.ones(3))


def case_array_field_as_slice_bound_under_filter_jit():
    return _truncated(jnp.asarray(2))


def case_ok_int_field_as_slice_bound_under_filter_jit():
    return _truncated(2)


# framework shape (not a thread)
# A multi-head model stacks its heads' outputs with np.stack under eqx.filter_jit.
class MultiHead(eqx.Module):
    heads: list
    use_numpy: bool = eqx.field(static=True)

    def __init__(self, key, use_numpy):
        self.heads = [eqx.nn.Linear(3, 2, key=k) for k in jax.random.split(key, 3)]
        self.use_numpy = use_numpy

    def __call__(self, x):
        if self.use_numpy:
            return np.stack([head(x) for head in self.heads])  # reported: JNP201
        return jnp.stack([head(x) for head in self.heads])


def _heads(use_numpy):
    model = MultiHead(jax.random.PRNGKey(0), use_numpy)
    return eqx.filter_jit(lambda model, x: model(x))(model, jnp.ones(3))


def case_numpy_stack_of_heads_under_filter_jit():
    return _heads(True)


def case_ok_jnp_stack_of_heads_under_filter_jit():
    return _heads(False)


# framework shape (not a thread)
# The loss logs its value with the logging module; under eqx.filter_jit the record is written
# once, while tracing, and holds a tracer instead of the loss.
logger = logging.getLogger("round12_equinox")


def _logged_loss(model, x, y):
    loss = jnp.mean((jax.vmap(model)(x) - y) ** 2)
    logger.info("loss %s", loss)  # reported: JNP301
    return loss


def _debug_printed_loss(model, x, y):
    loss = jnp.mean((jax.vmap(model)(x) - y) ** 2)
    jax.debug.print("loss {}", loss)
    return loss


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _log_losses(loss_fn):
    handler = _Records()
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    step = eqx.filter_jit(eqx.filter_value_and_grad(loss_fn))
    for _ in range(3):
        step(model, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    logger.removeHandler(handler)
    return handler.messages


def case_loss_logged_with_logging_under_filter_jit():
    return _log_losses(_logged_loss)


def case_ok_loss_printed_with_debug_print_under_filter_jit():
    return _log_losses(_debug_printed_loss)


# framework shape (not a thread)
# A noisy forward pass seeds its noise from the clock inside eqx.filter_jit: the clock is read
# once, while tracing, so every call draws the same noise.
@eqx.filter_jit
def _clock_seeded_forward(model, x):
    key = jax.random.PRNGKey(int(time.time() * 1000) % 2 ** 31)  # reported: JNP305
    return model(x + 0.1 * jax.random.normal(key, x.shape))


@eqx.filter_jit
def _key_seeded_forward(model, x, key):
    return model(x + 0.1 * jax.random.normal(key, x.shape))


def case_clock_seeded_noise_under_filter_jit():
    model = eqx.nn.Linear(3, 3, key=jax.random.PRNGKey(0))
    first = _clock_seeded_forward(model, jnp.ones(3))
    time.sleep(0.01)
    return bool(jnp.array_equal(first, _clock_seeded_forward(model, jnp.ones(3))))


def case_ok_key_seeded_noise_under_filter_jit():
    model = eqx.nn.Linear(3, 3, key=jax.random.PRNGKey(0))
    first = _key_seeded_forward(model, jnp.ones(3), jax.random.PRNGKey(1))
    return bool(jnp.array_equal(first, _key_seeded_forward(model, jnp.ones(3), jax.random.PRNGKey(2))))


# framework shape (not a thread)
# Sinc features guard z == 0 with jnp.where; padded rows give z exactly 0, where sin(z) / z still
# runs under eqx.filter_grad and its slope is nan.
class SincFeatures(eqx.Module):
    linear: eqx.nn.Linear
    guarded: bool = eqx.field(static=True)

    def __call__(self, x):
        z = self.linear(x)
        if self.guarded:
            safe = jnp.where(z == 0, 1.0, z)
            return jnp.where(z == 0, 1.0, jnp.sin(safe) / safe)
        return jnp.where(z == 0, 1.0, jnp.sin(z) / z)  # reported: JNP604


def _sinc_grads(guarded):
    model = SincFeatures(eqx.nn.Linear(3, 2, use_bias=False, key=jax.random.PRNGKey(0)), guarded)
    x = jnp.concatenate([jnp.ones((2, 3)), jnp.zeros((2, 3))])
    grads = eqx.filter_grad(lambda m: jnp.mean(jax.vmap(m)(x) ** 2))(model)
    return bool(jnp.isnan(grads.linear.weight).any())


def case_where_guarded_sinc_under_filter_grad():
    return _sinc_grads(False)


def case_ok_double_where_sinc_under_filter_grad():
    return _sinc_grads(True)


# framework shape (not a thread)
# Updates are clipped element-wise with jnp.clip's NumPy keywords a_min/a_max, which JAX removed.
def _clip_updates(numpy_keywords):
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    grads = eqx.filter_grad(lambda m: jnp.mean(jax.vmap(m)(jnp.ones((4, 3))) ** 2))(model)
    params = eqx.filter(grads, eqx.is_array)
    if numpy_keywords:
        clipped = jax.tree.map(lambda g: jnp.clip(g, a_min=-0.1, a_max=0.1), params)  # reported: JNP503
    else:
        clipped = jax.tree.map(lambda g: jnp.clip(g, min=-0.1, max=0.1), params)
    return eqx.apply_updates(model, jax.tree.map(lambda g: -g, clipped))


def case_clip_with_numpy_keywords():
    return _clip_updates(True)


def case_ok_clip_with_jax_keywords():
    return _clip_updates(False)
