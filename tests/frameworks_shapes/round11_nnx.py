"""Flax NNX code as users write it (nnx.while_loop, custom Variables, Rngs streams, top-p sampling), held out (needs flax and optax)."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 3, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


# framework shape (not a thread)
# A fixed-point solver runs nnx.while_loop until the update is small; the body measures the
# update with np.abs, on the tracer the loop passes.
def _residual(update, use_numpy):
    if use_numpy:
        return np.abs(update).max()  # reported: JNP201
    return jnp.abs(update).max()


def _fixed_point(use_numpy):
    model = MLP(nnx.Rngs(0))

    def cond(carry):
        _, _, residual, step = carry
        return (residual > 1e-3) & (step < 20)

    def body(carry):
        model, z, _, step = carry
        new_z = 0.5 * jnp.tanh(model(z))
        return model, new_z, _residual(new_z - z, use_numpy), step + 1

    return nnx.while_loop(cond, body, (model, jnp.ones(3), jnp.asarray(1.0), 0))[1]


def case_numpy_abs_in_while_loop_body():
    return _fixed_point(True)


def case_ok_jnp_abs_in_while_loop_body():
    return _fixed_point(False)


# framework shape (not a thread)
# A custom nnx.Variable counts the forward passes for a learning-rate-free warm-up; __call__
# compares the count with the warm-up length in a Python if, under nnx.jit.
class Count(nnx.Variable):
    pass


class WarmedUp(nnx.Module):
    def __init__(self, rngs, warmup, use_where):
        self.linear = nnx.Linear(3, 3, rngs=rngs)
        self.calls = Count(jnp.asarray(0))
        self.warmup = warmup
        self.use_where = use_where

    def __call__(self, x):
        self.calls[...] += 1
        if self.use_where:
            return jnp.where(self.calls[...] < self.warmup, 0.1, 1.0) * self.linear(x)
        if self.calls[...] < self.warmup:  # reported: JNP202
            return 0.1 * self.linear(x)
        return self.linear(x)


def _warmed_up(use_where):
    model = WarmedUp(nnx.Rngs(0), 3, use_where)
    forward = nnx.jit(lambda model, x: model(x))
    return [forward(model, jnp.ones(3)) for _ in range(4)]


def case_variable_counter_tested_with_if_under_jit():
    return _warmed_up(False)


def case_ok_variable_counter_selected_with_where_under_jit():
    return _warmed_up(True)


# framework shape (not a thread)
# Rollback on divergence: every step of the nnx.jit loop keeps a host copy of the parameters,
# pulled from the device with jax.device_get of nnx.state, to restore if the loss explodes.
@nnx.jit
def _train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def case_host_copy_of_params_every_step():
    model = MLP(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    last_good = None
    for _ in range(10):
        _train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 3)))
        last_good = jax.device_get(nnx.state(model, nnx.Param))  # reported: JNP101
    return last_good


def case_ok_device_copy_of_params_every_step():
    model = MLP(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    last_good = None
    for _ in range(10):
        _train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 3)))
        last_good = jax.tree.map(jnp.copy, nnx.state(model, nnx.Param))
    return jax.device_get(last_good)


# framework shape (not a thread)
# A dropout stream is made afresh from the same seed at the start of every epoch, so every epoch
# drops the same units.
class Dropped(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)
        self.dropout = nnx.Dropout(0.5)

    def __call__(self, x, rngs):
        return self.dropout(self.linear(x), rngs=rngs)


def _epoch_masks(fresh_seed_per_epoch):
    model = Dropped(nnx.Rngs(0))
    shared = nnx.Rngs(dropout=jax.random.key(1))
    masks = []
    for epoch in range(2):
        if fresh_seed_per_epoch:
            rngs = nnx.Rngs(dropout=jax.random.key(1))  # reported: JNP601
        else:
            rngs = shared
        masks.append(model(jnp.ones(3), rngs) == 0)
    return bool(jnp.array_equal(masks[0], masks[1]))


def case_dropout_stream_reseeded_every_epoch():
    return _epoch_masks(True)


def case_ok_dropout_stream_kept_across_epochs():
    return _epoch_masks(False)


# framework shape (not a thread)
# Nucleus (top-p) sampling in an nnx.jit decoder: the sorted logits are cut where the cumulative
# probability passes p, a slice whose length depends on the values.
class Decoder(nnx.Module):
    def __init__(self, rngs, masked):
        self.head = nnx.Linear(3, 6, rngs=rngs)
        self.masked = masked

    def __call__(self, x, key, top_p=0.9):
        logits = jnp.sort(self.head(x))[::-1]
        cumulative = jnp.cumsum(jax.nn.softmax(logits))
        if self.masked:
            kept = jnp.where(cumulative - jax.nn.softmax(logits) < top_p, logits, -jnp.inf)
        else:
            cutoff = jnp.sum(cumulative < top_p) + 1
            kept = logits[:cutoff]  # reported: JNP202
        return jax.random.categorical(key, kept)


def _sample(masked):
    model = Decoder(nnx.Rngs(0), masked)
    return nnx.jit(lambda model, x, key: model(x, key))(model, jnp.ones(3), jax.random.key(0))


def case_top_p_slice_under_jit():
    return _sample(False)


def case_ok_top_p_mask_under_jit():
    return _sample(True)


# framework shape (not a thread)
# The functional API with donation: the state is split from the model once and donated to a
# jax.jit step; the model object, which still holds the donated arrays, is evaluated afterwards.
def _functional_training(evaluate_merged):
    model = MLP(nnx.Rngs(0))
    graphdef, state = nnx.split(model)

    @functools.partial(jax.jit, donate_argnums=0)
    def step(state, x):
        def loss_fn(state):
            return jnp.mean(nnx.merge(graphdef, state)(x) ** 2)
        grads = jax.grad(loss_fn)(state)
        return jax.tree.map(lambda p, g: p - 0.1 * g, state, grads)

    for _ in range(3):
        state = step(state, jnp.ones((2, 3)))
    if evaluate_merged:
        return nnx.merge(graphdef, state)(jnp.ones((2, 3)))
    return model(jnp.ones((2, 3)))  # reported: JNP605


def case_model_evaluated_after_its_state_was_donated():
    return _functional_training(False)


def case_ok_model_merged_from_returned_state():
    return _functional_training(True)
