"""Flax NNX and Optax code as users write it, held out (needs flax and optax to run)."""
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


# framework shape (not a thread)
# nnx.grad (not value_and_grad) in an nnx.jit step; the loss function checks for NaN with a Python if.
class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


def _checked_loss(model, x, y):
    loss = jnp.mean((model(x) - y) ** 2)
    if jnp.isnan(loss):  # reported: JNP202
        raise FloatingPointError("nan loss")
    return loss


def _plain_loss(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@nnx.jit
def _grad_step(model, optimizer, x, y):
    grads = nnx.grad(_checked_loss)(model, x, y)
    optimizer.update(model, grads)


@nnx.jit
def _grad_step_plain(model, optimizer, x, y):
    grads = nnx.grad(_plain_loss)(model, x, y)
    optimizer.update(model, grads)


def case_nan_if_in_loss_under_nnx_grad():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    return _grad_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_ok_plain_loss_under_nnx_grad():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    return _grad_step_plain(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))


# framework shape (not a thread)
# An NNX module method other than __call__ called from an nnx.jit function applies NumPy.
class AutoEncoder(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.enc = nnx.Linear(4, 2, rngs=rngs)
        self.dec = nnx.Linear(2, 4, rngs=rngs)

    def encode(self, x):
        return np.tanh(self.enc(x))  # reported: JNP201

    def __call__(self, x):
        return self.dec(jnp.tanh(self.enc(x)))


class AutoEncoderJnp(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.enc = nnx.Linear(4, 2, rngs=rngs)
        self.dec = nnx.Linear(2, 4, rngs=rngs)

    def encode(self, x):
        return jnp.tanh(self.enc(x))

    def __call__(self, x):
        return self.dec(jnp.tanh(self.enc(x)))


@nnx.jit
def _embed(model, x):
    return model.encode(x)


def case_numpy_in_nnx_method_other_than_call():
    return _embed(AutoEncoder(nnx.Rngs(0)), jnp.ones((2, 4)))


def case_ok_jnp_in_nnx_method_other_than_call():
    return _embed(AutoEncoderJnp(nnx.Rngs(0)), jnp.ones((2, 4)))


# framework shape (not a thread)
# The step is built by a factory over a loss function; the loss turns the error into a Python float.
def _make_step(loss_fn):
    @nnx.jit
    def step(model, optimizer, x, y):
        loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
        optimizer.update(model, grads)
        return loss
    return step


def _float_mae(model, x, y):
    err = jnp.abs(model(x) - y).mean()
    return err + 0.0 * float(err)  # reported: JNP202


def _mae(model, x, y):
    return jnp.abs(model(x) - y).mean()


def case_float_in_loss_given_to_step_factory():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    return _make_step(_float_mae)(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_ok_loss_given_to_step_factory():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    return _make_step(_mae)(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))


# framework shape (not a thread)
# nnx.vmap of a prediction function over a batch; the module's __call__ takes int() of an argmax.
class Picker(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 5, rngs=rngs)

    def __call__(self, x):
        return int(self.linear(x).argmax())  # reported: JNP202


class PickerArray(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 5, rngs=rngs)

    def __call__(self, x):
        return self.linear(x).argmax()


@nnx.vmap(in_axes=(None, 0))
def _pick(model, x):
    return model(x)


def case_int_in_nnx_vmapped_call():
    return _pick(Picker(nnx.Rngs(0)), jnp.ones((6, 3)))


def case_ok_array_in_nnx_vmapped_call():
    return _pick(PickerArray(nnx.Rngs(0)), jnp.ones((6, 3)))


# framework shape (not a thread)
# An optax.chain optimiser driven by an nnx.jit step; the loop keeps the best loss with a Python comparison.
@nnx.jit
def _chain_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(_plain_loss)(model, x, y)
    optimizer.update(model, grads)
    return loss


def case_best_loss_compared_every_step():
    model = Net(nnx.Rngs(0))
    tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(1e-3))
    optimizer = nnx.Optimizer(model, tx, wrt=nnx.Param)
    best = float("inf")
    for _ in range(10):
        loss = _chain_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        if loss < best:  # reported: JNP102
            best = loss
    return best


def case_ok_best_loss_on_device():
    model = Net(nnx.Rngs(0))
    tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(1e-3))
    optimizer = nnx.Optimizer(model, tx, wrt=nnx.Param)
    best = jnp.inf
    for _ in range(10):
        loss = _chain_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        best = jnp.minimum(best, loss)
    return best
