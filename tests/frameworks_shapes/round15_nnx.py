"""Flax NNX code as users write it (attention heads, gated layer stacks under nnx.scan, shared Rngs streams, step factories, weight monitors on split states, annealed static temperatures, drawn-then-split keys, step counters), held out (needs flax and optax)."""
import functools

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs, din=4, dout=2):
        self.hidden = nnx.Linear(din, 8, rngs=rngs)
        self.out = nnx.Linear(8, dout, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


def _data():
    return jnp.arange(32.0).reshape(8, 4) / 32.0, jnp.ones((8, 2))


# framework shape (not a thread)
# A single-head attention Module normalises its scores with jnp.softmax, as if jax.numpy had
# NumPy-style extras; softmax lives in jax.nn, so the call fails.
class Attention(nnx.Module):
    def __init__(self, rngs, jnp_softmax):
        self.query = nnx.Linear(4, 4, rngs=rngs)
        self.key = nnx.Linear(4, 4, rngs=rngs)
        self.jnp_softmax = jnp_softmax

    def __call__(self, x):
        scores = self.query(x) @ self.key(x).T / 2.0
        if self.jnp_softmax:
            weights = jnp.softmax(scores, axis=-1)  # reported: JNP502
        else:
            weights = jax.nn.softmax(scores, axis=-1)
        return weights @ x


def case_jnp_softmax_in_an_attention_module():
    x, _ = _data()
    return Attention(nnx.Rngs(0), True)(x)


def case_ok_jax_nn_softmax_in_an_attention_module():
    x, _ = _data()
    return Attention(nnx.Rngs(0), False)(x)


# framework shape (not a thread)
# A stack of gated layers is built with nnx.vmap and run with nnx.scan; each layer skips itself
# with a Python `if` on its learned gate, which nnx.scan hands to the body as a tracer.
class GatedLayer(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(4, 4, rngs=rngs)
        self.gate = nnx.Param(jnp.ones(()))


@nnx.vmap(in_axes=0, out_axes=0)
def _make_stack(rngs):
    return GatedLayer(rngs)


def _run_stack(python_if):
    stack = _make_stack(nnx.Rngs(0).split(3))

    @nnx.scan(in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)
    def forward(x, layer):
        if python_if:
            if layer.gate[...] > 0:  # reported: JNP202
                return nnx.relu(layer.linear(x))
            return x
        return jnp.where(layer.gate[...] > 0, nnx.relu(layer.linear(x)), x)

    x, _ = _data()
    return forward(x, stack)


def case_python_if_on_a_gate_under_nnx_scan():
    return _run_stack(True)


def case_ok_where_on_a_gate_under_nnx_scan():
    return _run_stack(False)


# framework shape (not a thread)
# One key seeds both streams of nnx.Rngs: the parameter stream and the dropout stream start
# from the same key, so the first dropout key is the key that drew the first weights.
class Regularised(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(4, 8, rngs=rngs)
        self.dropout = nnx.Dropout(0.5, rngs=rngs)

    def __call__(self, x):
        return self.dropout(self.linear(x))


def case_one_key_for_the_params_and_dropout_streams():
    key = jax.random.PRNGKey(0)
    rngs = nnx.Rngs(params=key, dropout=key)  # reported: JNP601
    return bool((rngs.params() == rngs.dropout()).all()), Regularised(rngs)


def case_ok_split_keys_for_the_params_and_dropout_streams():
    params_key, dropout_key = jax.random.split(jax.random.PRNGKey(0))
    rngs = nnx.Rngs(params=params_key, dropout=dropout_key)
    return bool((rngs.params() == rngs.dropout()).all()), Regularised(rngs)


# framework shape (not a thread)
# A factory returns the nnx.jit train step together with a list the step fills with its losses
# for a plot; the append runs only while nnx.jit traces, so the list holds one tracer.
def make_train_step(returned_losses):
    seen_losses = []

    @nnx.jit
    def train_step(model, optimizer, x, y):
        loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
        optimizer.update(model, grads)
        if not returned_losses:
            seen_losses.append(loss)  # reported: JNP303
        return loss
    return train_step, seen_losses


def _fit(returned_losses):
    model = MLP(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
    step, seen = make_train_step(returned_losses)
    x, y = _data()
    losses = [step(model, optimizer, x, y) for _ in range(3)]
    return len(seen), len(losses)


def case_loss_list_filled_inside_a_factory_made_step():
    return _fit(False)


def case_ok_losses_returned_by_a_factory_made_step():
    return _fit(True)


# framework shape (not a thread)
# A weight monitor splits the model into its graph and state, merges it inside jax.jit, and
# reports the largest weight over the layers with jnp.max of a Python list of layer maxima.
def _largest_weight(stacked):
    model = MLP(nnx.Rngs(0))
    graphdef, state = nnx.split(model)

    @jax.jit
    def largest(state):
        merged = nnx.merge(graphdef, state)
        maxima = [jnp.abs(layer.kernel[...]).max() for layer in (merged.hidden, merged.out)]
        if stacked:
            return jnp.max(jnp.stack(maxima))
        return jnp.max(maxima)  # reported: JNP505
    return largest(state)


def case_jnp_max_of_a_list_of_layer_maxima():
    return _largest_weight(False)


def case_ok_jnp_max_of_stacked_layer_maxima():
    return _largest_weight(True)


# framework shape (not a thread)
# Sampling anneals a softmax temperature every round and hands it to the nnx.jit sampler as a
# static argument; every new temperature compiles the sampler again.
@functools.partial(nnx.jit, static_argnames="temperature")
def _sample_static(model, x, key, temperature):
    return jax.random.categorical(key, model(x) / temperature)


@nnx.jit
def _sample_traced(model, x, key, temperature):
    return jax.random.categorical(key, model(x) / temperature)


def _anneal(static):
    model, (x, _) = MLP(nnx.Rngs(0)), _data()
    keys = jax.random.split(jax.random.PRNGKey(1), 4)
    sampler = _sample_static if static else _sample_traced
    samples = []
    for round_index, key in enumerate(keys):
        temperature = 1.0 / (1 + round_index)
        if static:
            samples.append(sampler(model, x, key, temperature=temperature))  # reported: JNP602
        else:
            samples.append(sampler(model, x, key, jnp.asarray(temperature)))
    return len(samples)


def case_annealed_static_temperature():
    return _anneal(True)


def case_ok_annealed_traced_temperature():
    return _anneal(False)


# framework shape (not a thread)
# A script draws its synthetic inputs from the root key and then splits the same key into the
# model's parameter and dropout seeds.
def case_inputs_drawn_then_key_split_for_the_model():
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (8, 4))
    params_key, dropout_key = jax.random.split(key)  # reported: JNP606
    model = Regularised(nnx.Rngs(params=params_key, dropout=dropout_key))
    return model(x)


def case_ok_key_split_before_inputs_are_drawn():
    data_key, params_key, dropout_key = jax.random.split(jax.random.PRNGKey(0), 3)
    x = jax.random.normal(data_key, (8, 4))
    model = Regularised(nnx.Rngs(params=params_key, dropout=dropout_key))
    return model(x)


# framework shape (not a thread)
# A custom Variable counts the optimiser steps for a warm-up and asks for an int64 counter so it
# never overflows; x64 is off, so JAX warns and gives int32.
class StepCount(nnx.Variable):
    pass


class WarmupScale(nnx.Module):
    def __init__(self, wide_counter):
        if wide_counter:
            self.count = StepCount(jnp.zeros((), dtype=jnp.int64))  # reported: JNP402
        else:
            self.count = StepCount(jnp.zeros((), dtype=jnp.int32))

    def __call__(self, x):
        self.count[...] += 1
        return x * jnp.minimum(1.0, self.count[...] / 100)


def case_int64_step_counter_variable():
    return WarmupScale(True)(jnp.ones(3))


def case_ok_int32_step_counter_variable():
    return WarmupScale(False)(jnp.ones(3))
