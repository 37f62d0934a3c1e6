"""Flax NNX and Optax code as users write it, held out (needs flax and optax to run)."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


# framework shape (not a thread)
# The blocks are kept in an nnx.List; __call__ runs each block's gate method (not its __call__),
# and the gate of one block kind squashes with NumPy. The model is applied in an nnx.jit function.
class NumpyGate(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def gate(self, x):
        return x * np.tanh(self.linear(x))  # reported: JNP201


class JnpGate(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def gate(self, x):
        return x * jnp.tanh(self.linear(x))


class Gated(nnx.Module):
    def __init__(self, block, rngs: nnx.Rngs):
        self.blocks = nnx.List([block(rngs) for _ in range(2)])

    def __call__(self, x):
        for block in self.blocks:
            x = block.gate(x)
        return x


@nnx.jit
def _gated_forward(model, x):
    return model(x)


def case_numpy_in_method_of_listed_blocks():
    return _gated_forward(Gated(NumpyGate, nnx.Rngs(0)), jnp.ones((2, 3)))


def case_ok_jnp_in_method_of_listed_blocks():
    return _gated_forward(Gated(JnpGate, nnx.Rngs(0)), jnp.ones((2, 3)))


# framework shape (not a thread)
# Task heads kept in a dict of submodules; __call__ asks the chosen head for its active units
# through a method that selects them with jnp.nonzero, under nnx.jit.
class Head(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)

    def active(self, x):
        h = self.linear(x)
        return h[jnp.nonzero(h > 0)]  # reported: JNP203

    def active_masked(self, x):
        h = self.linear(x)
        return jnp.where(h > 0, h, 0.0)


class MultiTask(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.heads = nnx.Dict({"cls": Head(rngs), "reg": Head(rngs)})

    def __call__(self, x, masked: bool = False):
        if masked:
            return self.heads["cls"].active_masked(x)
        return self.heads["cls"].active(x)


@nnx.jit(static_argnames="masked")
def _multitask_forward(model, x, masked):
    return model(x, masked)


def case_nonzero_in_method_of_dict_head():
    return _multitask_forward(MultiTask(nnx.Rngs(0)), jnp.ones((2, 3)), False)


def case_ok_where_in_method_of_dict_head():
    return _multitask_forward(MultiTask(nnx.Rngs(0)), jnp.ones((2, 3)), True)


# framework shape (not a thread)
# Iterative refinement with nnx.fori_loop: the body applies the model's refine method, which logs
# the estimate with print; the body is traced once, so the print runs once.
class Refiner(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def refine(self, x):
        print("estimate", x)  # reported: JNP301
        return x + 0.1 * self.linear(x)

    def refine_logged(self, x):
        jax.debug.print("estimate {x}", x=x)
        return x + 0.1 * self.linear(x)


def case_print_in_method_under_nnx_fori_loop():
    model = Refiner(nnx.Rngs(0))
    return nnx.fori_loop(0, 3, lambda i, carry: (carry[0], carry[0].refine(carry[1])),
                         (model, jnp.ones((2, 3))))


def case_ok_debug_print_in_method_under_nnx_fori_loop():
    model = Refiner(nnx.Rngs(0))
    return nnx.fori_loop(0, 3, lambda i, carry: (carry[0], carry[0].refine_logged(carry[1])),
                         (model, jnp.ones((2, 3))))


# framework shape (not a thread)
# The host loop of an nnx.jit step stops on divergence through a helper that tests the loss: the
# helper's comparison is a device bool, and the if pulls it to the host every step.
class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 2, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


@nnx.jit
def _train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def _diverged(loss):
    return jnp.isnan(loss) | (loss > 1e3)


def case_if_on_helper_test_every_step():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    losses = []
    for _ in range(5):
        loss = _train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 2)))
        if _diverged(loss):  # reported: JNP102
            break
        losses.append(loss)
    return losses


def case_ok_helper_test_after_loop():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    losses = []
    for _ in range(5):
        losses.append(_train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 2))))
    return bool(_diverged(jnp.stack(losses)).any()), losses


# framework shape (not a thread)
# A model class picked from a registry dict by name and built in a factory; an nnx.jit function
# calls its embed method, which normalises with NumPy.
class NumpyEmbedder(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)

    def embed(self, x):
        h = self.linear(x)
        return h / np.linalg.norm(h, axis=-1, keepdims=True)  # reported: JNP201


class JnpEmbedder(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)

    def embed(self, x):
        h = self.linear(x)
        return h / jnp.linalg.norm(h, axis=-1, keepdims=True)


REGISTRY = {"numpy": NumpyEmbedder, "jnp": JnpEmbedder}


def _build(name, seed):
    return REGISTRY[name](nnx.Rngs(seed))


@nnx.jit
def _embed(model, x):
    return model.embed(x)


def case_numpy_in_method_of_registry_model():
    return _embed(_build("numpy", 0), jnp.ones((2, 3)))


def case_ok_jnp_in_method_of_registry_model():
    return _embed(_build("jnp", 0), jnp.ones((2, 3)))


# framework shape (not a thread)
# The functional API with a plain jax.grad (no jit): the model is split into a graphdef and its
# params, and the loss rebuilds it with nnx.merge and calls its score method, which clips the
# score with a Python float of its maximum.
class Scorer(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 1, rngs=rngs)

    def score(self, x):
        s = self.linear(x)
        return s / max(float(s.max()), 1.0)  # reported: JNP202

    def score_traced(self, x):
        s = self.linear(x)
        return s / jnp.maximum(s.max(), 1.0)


def _merged_grads(use_python_max):
    graphdef, params = nnx.split(Scorer(nnx.Rngs(0)))
    x = jnp.ones((4, 3))

    def loss(params):
        model = nnx.merge(graphdef, params)
        if use_python_max:
            return model.score(x).sum()
        return model.score_traced(x).sum()
    return jax.grad(loss)(params)


def case_float_in_method_of_merged_model_under_grad():
    return _merged_grads(True)


def case_ok_traced_max_in_method_of_merged_model_under_grad():
    return _merged_grads(False)
