"""Flax NNX and Optax code as users write it, held out (needs flax and optax to run)."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


# framework shape (not a thread)
# Layers created with nnx.vmap over split rngs and run with nnx.scan over the depth; the scanned
# layer applies a NumPy activation to the carry.
class ScanLayer(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, h):
        return np.exp(-self.linear(h))  # reported: JNP201


class ScanLayerJnp(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, h):
        return jnp.exp(-self.linear(h))


def _scan_depth(layer_class, x):
    @nnx.split_rngs(splits=3)
    @nnx.vmap(in_axes=(0,), out_axes=0)
    def create(rngs):
        return layer_class(rngs)

    @nnx.scan(in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)
    def forward(h, layer):
        return layer(h)

    return forward(x, create(nnx.Rngs(0)))


def case_numpy_in_layer_under_nnx_scan():
    return _scan_depth(ScanLayer, jnp.ones((2, 4)))


def case_ok_jnp_in_layer_under_nnx_scan():
    return _scan_depth(ScanLayerJnp, jnp.ones((2, 4)))


# framework shape (not a thread)
# A custom nnx.Variable counts the calls; the model is split into params and the counter and rebuilt
# by nnx.merge in a jax.jit step, where __call__ tests the counter's value with a Python if.
class Calls(nnx.Variable):
    pass


class WarmedUp(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)
        self.calls = Calls(jnp.array(0))

    def __call__(self, x):
        self.calls.value += 1
        if self.calls.value > 10:  # reported: JNP202
            return self.linear(x)
        return x


class WarmedUpWhere(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)
        self.calls = Calls(jnp.array(0))

    def __call__(self, x):
        self.calls.value += 1
        return jnp.where(self.calls.value > 10, self.linear(x), x)


def _split_merge_step(model, x):
    graphdef, params, calls = nnx.split(model, nnx.Param, Calls)

    @jax.jit
    def step(params, calls, x):
        model = nnx.merge(graphdef, params, calls)
        y = model(x)
        return y, nnx.state(model, Calls)

    return step(params, calls, x)


def case_python_if_on_variable_value_after_merge():
    return _split_merge_step(WarmedUp(nnx.Rngs(0)), jnp.ones((2, 3)))


def case_ok_where_on_variable_value_after_merge():
    return _split_merge_step(WarmedUpWhere(nnx.Rngs(0)), jnp.ones((2, 3)))


# framework shape (not a thread)
# The module keeps its nnx.Rngs and draws a dropout-like mask from a stream in __call__; the kept
# units are selected with the boolean mask under nnx.jit.
class Sparsify(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.rngs = rngs
        self.linear = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        keep = jax.random.bernoulli(self.rngs.mask(), 0.5, h.shape)
        return h[keep].sum()  # reported: JNP203


class SparsifyWhere(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.rngs = rngs
        self.linear = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        keep = jax.random.bernoulli(self.rngs.mask(), 0.5, h.shape)
        return jnp.where(keep, h, 0.0).sum()


@nnx.jit
def _sparse_sum(model, x):
    return model(x)


def case_boolean_mask_from_rngs_stream_under_nnx_jit():
    return _sparse_sum(Sparsify(nnx.Rngs(params=0, mask=1)), jnp.ones((2, 4)))


def case_ok_where_mask_from_rngs_stream_under_nnx_jit():
    return _sparse_sum(SparsifyWhere(nnx.Rngs(params=0, mask=1)), jnp.ones((2, 4)))


# framework shape (not a thread)
# An ensemble created with nnx.split_rngs + nnx.vmap and applied with nnx.vmap over the members;
# each member prints its output.
class Expert(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 2, rngs=rngs)

    def __call__(self, x):
        y = self.linear(x)
        print("expert output", y)  # reported: JNP301
        return y


class ExpertQuiet(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 2, rngs=rngs)

    def __call__(self, x):
        y = self.linear(x)
        jax.debug.print("expert output {}", y)
        return y


def _ensemble_outputs(expert_class, x):
    @nnx.split_rngs(splits=4)
    @nnx.vmap(in_axes=(0,), out_axes=0)
    def create(rngs):
        return expert_class(rngs)

    @nnx.vmap(in_axes=(0, None), out_axes=0)
    def apply(expert, x):
        return expert(x)

    experts = create(nnx.Rngs(0))
    return [apply(experts, x) for _ in range(2)]


def case_print_in_expert_under_nnx_vmap():
    return _ensemble_outputs(Expert, jnp.ones((2, 3)))


def case_ok_debug_print_in_expert_under_nnx_vmap():
    return _ensemble_outputs(ExpertQuiet, jnp.ones((2, 3)))


# framework shape (not a thread)
# nnx.MultiMetric updated inside an nnx.jit train step; the host loop reads the running loss with
# float(metrics.compute()[...]) after every step.
class Regressor(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


@nnx.jit
def _train_step(model, optimizer, metrics, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    metrics.update(loss=loss)


def _metric_training():
    model = Regressor(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
    metrics = nnx.MultiMetric(loss=nnx.metrics.Average("loss"))
    return model, optimizer, metrics


def case_float_of_metric_every_step():
    model, optimizer, metrics = _metric_training()
    history = []
    for _ in range(20):
        _train_step(model, optimizer, metrics, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        history.append(float(metrics.compute()["loss"]))  # reported: JNP102
    return history


def case_ok_metric_read_after_the_loop():
    model, optimizer, metrics = _metric_training()
    for _ in range(20):
        _train_step(model, optimizer, metrics, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    return float(metrics.compute()["loss"])


# framework shape (not a thread)
# A block wrapped with nnx.remat inside an nnx.jit model; the block keeps its positive units with
# jnp.nonzero.
class Positive(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        return h[jnp.nonzero(h > 0)].sum()  # reported: JNP203


class PositiveWhere(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        return jnp.where(h > 0, h, 0.0).sum()


@nnx.jit
def _remat_apply(block, x):
    return nnx.remat(lambda block, x: block(x))(block, x)


def case_nonzero_in_block_under_nnx_remat():
    return _remat_apply(Positive(nnx.Rngs(0)), jnp.ones((2, 4)))


def case_ok_where_in_block_under_nnx_remat():
    return _remat_apply(PositiveWhere(nnx.Rngs(0)), jnp.ones((2, 4)))
