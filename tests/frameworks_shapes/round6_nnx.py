"""Flax NNX and Optax code as users write it, held out (needs flax and optax to run)."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


# framework shape (not a thread)
# A recurrent cell run over time with nnx.scan, the cell broadcast to every step (in_axes None);
# the step prints the hidden state it computes.
class Cell(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)


def _step_print(h, cell, x):
    h = jnp.tanh(cell.linear(h) + x)
    print("hidden", h)  # reported: JNP301
    return h, h


def _step_quiet(h, cell, x):
    h = jnp.tanh(cell.linear(h) + x)
    jax.debug.print("hidden {}", h)
    return h, h


def case_print_in_step_scanned_over_time():
    scan = nnx.scan(_step_print, in_axes=(nnx.Carry, None, 0), out_axes=(nnx.Carry, 0))
    return scan(jnp.zeros((3,)), Cell(nnx.Rngs(0)), jnp.ones((5, 3)))


def case_ok_debug_print_in_step_scanned_over_time():
    scan = nnx.scan(_step_quiet, in_axes=(nnx.Carry, None, 0), out_axes=(nnx.Carry, 0))
    return scan(jnp.zeros((3,)), Cell(nnx.Rngs(0)), jnp.ones((5, 3)))


# framework shape (not a thread)
# Methods calling methods: __call__ -> embed -> pool; the pooling method takes a NumPy median. The
# model is given to an nnx.jit function.
class Pooler(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.proj = nnx.Linear(3, 4, rngs=rngs)

    def pool(self, h):
        return np.median(h, axis=0)  # reported: JNP201

    def embed(self, x):
        return self.pool(nnx.relu(self.proj(x)))

    def __call__(self, x):
        return self.embed(x).sum()


class PoolerJnp(Pooler):
    def pool(self, h):
        return jnp.median(h, axis=0)


@nnx.jit
def _pooled(model, x):
    return model(x)


def case_numpy_median_in_method_called_by_method():
    return _pooled(Pooler(nnx.Rngs(0)), jnp.ones((5, 3)))


def case_ok_jnp_median_in_method_called_by_method():
    return _pooled(PoolerJnp(nnx.Rngs(0)), jnp.ones((5, 3)))


# framework shape (not a thread)
# An nnx.Optimizer loop that logs every 2 steps by reading the optimizer's own step counter with
# int() in the host loop: one device sync per step.
class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


@nnx.jit
def _train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def case_int_of_optimizer_step_every_step():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
    logged = []
    for _ in range(6):
        loss = _train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        if int(optimizer.step.value) % 2 == 0:  # reported: JNP102
            logged.append(loss)
    return logged


def case_ok_python_step_counter():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
    logged = []
    for step in range(1, 7):
        loss = _train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        if step % 2 == 0:
            logged.append(loss)
    return logged


# framework shape (not a thread)
# A BatchNorm model in train mode under an nnx.jit step; __call__ branches in Python on the running
# mean that BatchNorm keeps as a BatchStat (use_running_average is the static test).
class Normed(nnx.Module):
    def __init__(self, rngs: nnx.Rngs, test_stats: bool = True):
        self.linear = nnx.Linear(3, 4, rngs=rngs)
        self.bn = nnx.BatchNorm(4, rngs=rngs)
        self.test_stats = test_stats

    def __call__(self, x):
        h = self.bn(self.linear(x))
        if self.test_stats:
            if self.bn.mean.value.max() > 10.0:  # reported: JNP202
                h = h * 0.5
        elif not self.bn.use_running_average:
            h = h * 0.5
        return h


@nnx.jit
def _normed_step(model, x):
    return model(x).mean()


def case_python_if_on_batchnorm_running_mean():
    model = Normed(nnx.Rngs(0))
    model.train()
    return _normed_step(model, jnp.ones((8, 3)))


def case_ok_python_if_on_static_batchnorm_flag():
    model = Normed(nnx.Rngs(0), test_stats=False)
    model.train()
    return _normed_step(model, jnp.ones((8, 3)))


# framework shape (not a thread)
# A method of the Module decorated with @nnx.jit (the model is its self); the method tests the
# confidence of its prediction with a Python if.
class Predictor(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 2, rngs=rngs)

    @nnx.jit
    def predict(self, x):
        probs = nnx.softmax(self.linear(x))
        if probs.max() < 0.9:  # reported: JNP202
            return jnp.zeros_like(probs)
        return probs

    @nnx.jit
    def predict_masked(self, x):
        probs = nnx.softmax(self.linear(x))
        return jnp.where(probs.max() < 0.9, jnp.zeros_like(probs), probs)


def case_python_if_in_jitted_method():
    return Predictor(nnx.Rngs(0)).predict(jnp.ones((2, 3)))


def case_ok_where_in_jitted_method():
    return Predictor(nnx.Rngs(0)).predict_masked(jnp.ones((2, 3)))


# framework shape (not a thread)
# Evaluation with nnx.vmap over examples, the model broadcast (in_axes None); the per-example
# function keeps the positive logits with a boolean mask.
def _positive_logits(model, x):
    logits = model(x)
    return logits[logits > 0].sum()  # reported: JNP203


def _positive_logits_where(model, x):
    logits = model(x)
    return jnp.where(logits > 0, logits, 0.0).sum()


def case_boolean_mask_under_nnx_vmap():
    return nnx.vmap(_positive_logits, in_axes=(None, 0))(Net(nnx.Rngs(0)), jnp.ones((5, 3)))


def case_ok_where_under_nnx_vmap():
    return nnx.vmap(_positive_logits_where, in_axes=(None, 0))(Net(nnx.Rngs(0)), jnp.ones((5, 3)))
