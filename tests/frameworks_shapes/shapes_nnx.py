"""Flax NNX and Optax code as users write it (needs flax and optax to run)."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


# framework shape (not a thread)
# An NNX module whose __call__ calls another method of it, which prints the tracer.
class Encoder(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)

    def embed(self, x):
        h = self.linear(x)
        print("embedding", h)  # reported: JNP301
        return h

    def __call__(self, x):
        return nnx.relu(self.embed(x))


class EncoderDebug(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)

    def embed(self, x):
        h = self.linear(x)
        jax.debug.print("embedding {}", h)
        return h

    def __call__(self, x):
        return nnx.relu(self.embed(x))


@nnx.jit
def _encode(model, x):
    return model(x)


def case_print_in_method_called_from_nnx_call():
    model = Encoder(nnx.Rngs(0))
    return [_encode(model, jnp.ones((2, 3))) for _ in range(3)]


def case_ok_debug_print_in_method_called_from_nnx_call():
    model = EncoderDebug(nnx.Rngs(0))
    return [_encode(model, jnp.ones((2, 3))) for _ in range(3)]


# framework shape (not a thread)
# The nnx.Optimizer training loop pulls the loss to NumPy on every step.
class Regressor(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


@nnx.jit
def _train_step(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def case_numpy_loss_every_nnx_step():
    model = Regressor(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    history = []
    for _ in range(20):
        loss = _train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        history.append(np.asarray(loss))  # reported: JNP101
    return history


def case_ok_loss_kept_on_device():
    model = Regressor(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    history = []
    for _ in range(20):
        history.append(_train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1))))
    return np.asarray(jnp.stack(history))


# framework shape (not a thread)
# An NNX module two subclasses deep; a Python float of a tracer in its __call__.
class Layer(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)


class Residual(Layer):
    pass


class ScaledResidual(Residual):
    def __call__(self, x):
        h = self.linear(x)
        return x + h / float(jnp.max(jnp.abs(h)))  # reported: JNP202


class ScaledResidualJnp(Residual):
    def __call__(self, x):
        h = self.linear(x)
        return x + h / jnp.max(jnp.abs(h))


def case_float_in_nnx_subclass_of_subclass():
    return _encode(ScaledResidual(nnx.Rngs(0)), jnp.ones((2, 3)))


def case_ok_jnp_in_nnx_subclass_of_subclass():
    return _encode(ScaledResidualJnp(nnx.Rngs(0)), jnp.ones((2, 3)))


# framework shape (not a thread)
# The loss of an nnx.value_and_grad inside nnx.jit tested with a Python if.
@nnx.jit
def _guarded_step(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    if loss < 1e3:  # reported: JNP202
        optimizer.update(model, grads)
    return loss


@nnx.jit
def _guarded_step_cond(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    grads = jax.tree.map(lambda g: jnp.where(loss < 1e3, g, jnp.zeros_like(g)), grads)
    optimizer.update(model, grads)
    return loss


def case_python_if_on_nnx_loss():
    model = Regressor(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(1e-2), wrt=nnx.Param)
    return _guarded_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_ok_where_on_nnx_loss():
    model = Regressor(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(1e-2), wrt=nnx.Param)
    return _guarded_step_cond(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))


# framework shape (not a thread)
# A module passed to a helper that applies it under nnx.jit; NumPy on the output in the helper's step.
def _fit(model, x):
    @nnx.jit
    def step(m, batch):
        out = m(batch)
        return np.square(out).sum()  # reported: JNP201
    return step(model, x)


def _fit_jnp(model, x):
    @nnx.jit
    def step(m, batch):
        out = m(batch)
        return jnp.square(out).sum()
    return step(model, x)


def case_numpy_on_module_output_in_nested_step():
    return _fit(Regressor(nnx.Rngs(0)), jnp.ones((4, 3)))


def case_ok_jnp_on_module_output_in_nested_step():
    return _fit_jnp(Regressor(nnx.Rngs(0)), jnp.ones((4, 3)))


# framework shape (not a thread)
# nnx.vmap over a module's method called with an in-place NumPy-style update on the tracer.
class Stats(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        h[0] = 0.0  # reported: JNP501
        return h


class StatsAt(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        return h.at[0].set(0.0)


def case_item_assignment_in_nnx_call():
    return _encode(Stats(nnx.Rngs(0)), jnp.ones(3))


def case_ok_at_set_in_nnx_call():
    return _encode(StatsAt(nnx.Rngs(0)), jnp.ones(3))
