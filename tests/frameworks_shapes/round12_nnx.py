"""Flax NNX code as users write it (positions, Gaussian policies, aux metrics, module statistics, throughput, ensembles), held out (needs flax and optax)."""
import time

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
# Positions for a padded batch are made with jnp.arange up to the longest sequence, which the
# batch's lengths give as a traced value under nnx.jit.
class PositionalEmbedder(nnx.Module):
    def __init__(self, rngs, from_lengths):
        self.tokens = nnx.Embed(16, 4, rngs=rngs)
        self.positions = nnx.Embed(16, 4, rngs=rngs)
        self.from_lengths = from_lengths

    def __call__(self, tokens, lengths):
        if self.from_lengths:
            positions = jnp.arange(lengths.max())  # reported: JNP202
        else:
            positions = jnp.arange(tokens.shape[1])
        return self.tokens(tokens[:, :positions.shape[0]]) + self.positions(positions)


def _embed(from_lengths):
    model = PositionalEmbedder(nnx.Rngs(0), from_lengths)
    tokens = jnp.ones((2, 5), jnp.int32)
    return nnx.jit(lambda model, tokens, lengths: model(tokens, lengths))(model, tokens, jnp.array([3, 5]))


def case_arange_to_the_longest_length_under_jit():
    return _embed(True)


def case_ok_arange_to_the_padded_length_under_jit():
    return _embed(False)


# framework shape (not a thread)
# A Gaussian policy keeps its log standard deviation as an nnx.Param and exponentiates it with
# np.exp; under nnx.jit the Param's value is a tracer.
class GaussianPolicy(nnx.Module):
    def __init__(self, rngs, use_numpy):
        self.mean = nnx.Linear(3, 2, rngs=rngs)
        self.log_std = nnx.Param(jnp.zeros(2))
        self.use_numpy = use_numpy

    def __call__(self, x, key):
        if self.use_numpy:
            std = np.exp(self.log_std[...])  # reported: JNP201
        else:
            std = jnp.exp(self.log_std[...])
        return self.mean(x) + std * jax.random.normal(key, (2,))


def _act(use_numpy):
    policy = GaussianPolicy(nnx.Rngs(0), use_numpy)
    return nnx.jit(lambda policy, x, key: policy(x, key))(policy, jnp.ones(3), jax.random.key(1))


def case_numpy_exp_of_log_std_param_under_jit():
    return _act(True)


def case_ok_jnp_exp_of_log_std_param_under_jit():
    return _act(False)


# framework shape (not a thread)
# The nnx.jit step returns the accuracy as the aux output of nnx.value_and_grad; the loop logs it
# as a Python float every step.
@nnx.jit
def _train_step(model, optimizer, x, y):
    def loss_fn(model):
        logits = model(x)
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
        return loss, {"accuracy": (logits.argmax(-1) == y).mean()}
    (_, aux), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model)
    optimizer.update(model, grads)
    return aux


def _classifier():
    model = MLP(nnx.Rngs(0))
    return model, nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)


def case_aux_accuracy_logged_as_float_every_step():
    model, optimizer = _classifier()
    accuracies = []
    for _ in range(10):
        aux = _train_step(model, optimizer, jnp.ones((4, 3)), jnp.array([0, 1, 2, 0]))
        accuracies.append(float(aux["accuracy"]))  # reported: JNP102
    return accuracies


def case_ok_aux_accuracy_fetched_after_the_loop():
    model, optimizer = _classifier()
    accuracies = []
    for _ in range(10):
        aux = _train_step(model, optimizer, jnp.ones((4, 3)), jnp.array([0, 1, 2, 0]))
        accuracies.append(aux["accuracy"])
    return [float(accuracy) for accuracy in jax.device_get(accuracies)]


# framework shape (not a thread)
# Activation statistics for a dashboard are written into a module-level dict from __call__;
# under nnx.jit the dict receives a tracer, once, while the step is traced.
ACTIVATION_STATS = {}


class Statistic(nnx.Variable):
    pass


class Probed(nnx.Module):
    def __init__(self, rngs, in_variable):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 3, rngs=rngs)
        self.hidden_mean = Statistic(jnp.zeros(()))
        self.in_variable = in_variable

    def __call__(self, x):
        h = nnx.relu(self.hidden(x))
        if self.in_variable:
            self.hidden_mean[...] = h.mean()
        else:
            ACTIVATION_STATS["hidden_mean"] = h.mean()  # reported: JNP303
        return self.out(h)


def _probe(in_variable):
    model = Probed(nnx.Rngs(0), in_variable)
    nnx.jit(lambda model, x: model(x))(model, jnp.ones((2, 3)))
    if in_variable:
        return model.hidden_mean[...] + 1.0
    return ACTIVATION_STATS["hidden_mean"] + 1.0


def case_statistics_written_to_a_global_dict_under_jit():
    return _probe(False)


def case_ok_statistics_kept_in_a_variable_under_jit():
    return _probe(True)


# framework shape (not a thread)
# Training throughput is measured around a loop of nnx.jit steps; nothing waits for the last
# step, so the clock stops while the device still works.
@nnx.jit
def _regression_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def _throughput(wait):
    model, optimizer = _classifier()
    x, y = jnp.ones((64, 3)), jnp.zeros((64, 3))
    _regression_step(model, optimizer, x, y)
    start = time.time()
    for _ in range(20):
        loss = _regression_step(model, optimizer, x, y)
    if wait:
        loss.block_until_ready()
        return 20 / (time.time() - start)
    return 20 / (time.time() - start)  # reported: JNP603


def case_throughput_without_waiting():
    return _throughput(False)


def case_ok_throughput_after_block_until_ready():
    return _throughput(True)


# framework shape (not a thread)
# After https://github.com/jax-ml/jax/issues/22990 (and jax-ml/jax#19812): a layer annotates its
# key parameter with jax.random.KeyArray, which JAX removed in 0.4.24; the class fails to define.
def case_key_annotated_with_key_array():
    class NoisyLinear(nnx.Module):
        def __init__(self, rngs):
            self.linear = nnx.Linear(3, 3, rngs=rngs)

        def __call__(self, x, key: jax.random.KeyArray):  # reported: JNP504
            return self.linear(x + 0.1 * jax.random.normal(key, x.shape))

    return NoisyLinear(nnx.Rngs(0))(jnp.ones(3), jax.random.key(1))


def case_ok_key_annotated_with_array():
    class NoisyLinear(nnx.Module):
        def __init__(self, rngs):
            self.linear = nnx.Linear(3, 3, rngs=rngs)

        def __call__(self, x, key: jax.Array):
            return self.linear(x + 0.1 * jax.random.normal(key, x.shape))

    return NoisyLinear(nnx.Rngs(0))(jnp.ones(3), jax.random.key(1))


# framework shape (not a thread)
# A deep ensemble builds every member from the same key, so every member starts with the same
# parameters and the ensemble is one model several times.
def _ensemble(distinct):
    key = jax.random.key(0)
    if distinct:
        members = [MLP(nnx.Rngs(member_key)) for member_key in jax.random.split(key, 3)]
    else:
        members = [MLP(nnx.Rngs(key)) for _ in range(3)]  # reported: JNP601
    outputs = [member(jnp.ones(3)) for member in members]
    return bool(jnp.array_equal(outputs[0], outputs[1]))


def case_ensemble_members_from_one_key():
    return _ensemble(False)


def case_ok_ensemble_members_from_split_keys():
    return _ensemble(True)
