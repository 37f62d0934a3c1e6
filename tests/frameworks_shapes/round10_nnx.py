"""Flax NNX code as users write it (split/merge, nnx.jit, nnx.value_and_grad, nnx.List), held out (needs flax and optax)."""
import random

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


# framework shape (not a thread)
# The functional API: the model is split into its graph and state once, and a jax.jit function
# merges them back and squashes the output with np.tanh, on the tracer jax.jit passes.
def _split_forward(squash):
    graphdef, state = nnx.split(MLP(nnx.Rngs(0)))

    @jax.jit
    def forward(state, x):
        model = nnx.merge(graphdef, state)
        return squash(model(x))

    return forward(state, jnp.ones((2, 3)))


def _numpy_squash(y):
    return np.tanh(y)  # reported: JNP201


def case_numpy_tanh_after_merge_in_jit():
    return _split_forward(_numpy_squash)


def case_ok_jnp_tanh_after_merge_in_jit():
    return _split_forward(jnp.tanh)


# framework shape (not a thread)
# An nnx.jit train step with nnx.value_and_grad and has_aux: the loss function also reports the
# batch accuracy, made a Python float inside the differentiated function.
def _aux_step(as_float):
    @nnx.jit
    def train_step(model, optimizer, x, y):
        def loss_fn(model):
            logits = model(x)
            loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
            if as_float:
                accuracy = float((logits.argmax(-1) == y).mean())  # reported: JNP202
            else:
                accuracy = (logits.argmax(-1) == y).mean()
            return loss, accuracy
        (loss, accuracy), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model)
        optimizer.update(model, grads)
        return loss, accuracy

    model = MLP(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    return train_step(model, optimizer, jnp.ones((4, 3)), jnp.array([0, 1, 0, 1]))


def case_float_accuracy_in_aux_loss():
    return _aux_step(as_float=True)


def case_ok_array_accuracy_in_aux_loss():
    return _aux_step(as_float=False)


# framework shape (not a thread)
# A stack of layers kept in an nnx.List; between layers, units that are zero for the whole batch
# are pruned with a boolean mask, so the width depends on the values under nnx.jit.
class PrunedStack(nnx.Module):
    def __init__(self, prune, rngs):
        self.layers = nnx.List([nnx.Linear(3, 3, rngs=rngs) for _ in range(2)])
        self.prune = prune

    def __call__(self, x):
        for layer in self.layers:
            x = nnx.relu(layer(x))
            if self.prune:
                x = x[:, jnp.any(x != 0, axis=0)]  # reported: JNP203
            else:
                x = jnp.where(jnp.any(x != 0, axis=0), x, 0.0)
        return x.sum(-1)


def _pruned(prune):
    model = PrunedStack(prune, nnx.Rngs(0))
    return nnx.jit(lambda model, x: model(x))(model, jnp.ones((2, 3)))


def case_boolean_prune_in_layer_list():
    return _pruned(True)


def case_ok_where_prune_in_layer_list():
    return _pruned(False)


# framework shape (not a thread)
# An evaluation helper receives the model and a list of batches and converts every batch's
# predictions to NumPy inside the loop.
def _evaluate(model, batches):
    predictions = []
    for batch in batches:
        predictions.append(np.array(model(batch).argmax(-1)))  # reported: JNP101
    return np.concatenate(predictions)


def _evaluate_on_device(model, batches):
    predictions = []
    for batch in batches:
        predictions.append(model(batch).argmax(-1))
    return np.asarray(jnp.concatenate(predictions))


def _batches():
    return [jnp.full((4, 3), float(i)) for i in range(20)]


def case_numpy_predictions_per_batch():
    return _evaluate(MLP(nnx.Rngs(0)), _batches())


def case_ok_predictions_gathered_on_device():
    return _evaluate_on_device(MLP(nnx.Rngs(0)), _batches())


# framework shape (not a thread)
# Stochastic depth decided with Python's random module in __call__: under nnx.jit the draw
# happens once while tracing, so the same blocks are skipped on every call.
class StochasticDepth(nnx.Module):
    def __init__(self, host_random, rngs):
        self.block = nnx.Linear(3, 3, rngs=rngs)
        self.host_random = host_random
        self.rngs = rngs

    def __call__(self, x):
        if self.host_random:
            keep = random.random() < 0.5  # reported: JNP305
        else:
            keep = jax.random.uniform(self.rngs.depth()) < 0.5
        return x + jnp.where(keep, self.block(x), 0.0)


def _depth_outputs(host_random):
    model = StochasticDepth(host_random, nnx.Rngs(0, depth=1))
    forward = nnx.jit(lambda model, x: model(x))
    return [forward(model, jnp.ones((1, 3)))[0, 0] for _ in range(8)]


def case_host_random_depth_under_nnx_jit():
    return _depth_outputs(True)


def case_ok_rngs_depth_under_nnx_jit():
    return _depth_outputs(False)


# framework shape (not a thread)
# A module-level step counter incremented with a global statement inside the nnx.jit train step,
# to drive a logging schedule; it only moves while nnx.jit traces the step.
STEPS_DONE = 0


@nnx.jit
def _counted_step(model, optimizer, x, y):
    global STEPS_DONE
    STEPS_DONE += 1  # reported: JNP302
    grads = nnx.grad(lambda model: jnp.mean((model(x) - y) ** 2))(model)
    optimizer.update(model, grads)


@nnx.jit
def _plain_step(model, optimizer, x, y):
    grads = nnx.grad(lambda model: jnp.mean((model(x) - y) ** 2))(model)
    optimizer.update(model, grads)


def _train(step):
    model = MLP(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    for _ in range(4):
        step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 2)))
    return optimizer


def case_global_step_count_in_nnx_jit_step():
    _train(_counted_step)
    return STEPS_DONE


def case_ok_step_count_from_optimizer():
    return int(_train(_plain_step).step.value)


# framework shape (not a thread)
# A probe module records every hidden activation in a Python list attribute from __call__, to
# inspect them after an nnx.jit forward pass; the list keeps the tracers of the trace.
class Probed(nnx.Module):
    def __init__(self, record, rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)
        self.record = record
        self.seen = []

    def __call__(self, x):
        h = nnx.relu(self.linear(x))
        if self.record:
            self.seen.append(h)  # reported: JNP303
        return h.sum()


def _probed(record):
    model = Probed(record, nnx.Rngs(0))
    out = nnx.jit(lambda model, x: model(x))(model, jnp.ones((2, 3)))
    return out, [type(h).__name__ for h in model.seen]


def case_activation_list_attribute_under_nnx_jit():
    return _probed(True)


def case_ok_activation_returned_from_nnx_jit():
    return _probed(False)
