"""Flax NNX models (needs flax to run)."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


# https://github.com/google/flax/issues/743
# print in an NNX module's __call__ under nnx.jit shows a tracer, once.
class Model(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        y = self.linear(x)
        print("activation", y)  # reported: JNP301
        return y


class ModelDebug(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        y = self.linear(x)
        jax.debug.print("activation {}", y)
        return y


@nnx.jit
def _forward(model, x):
    return model(x)


def case_print_in_nnx_call():
    model = Model(nnx.Rngs(0))
    for _ in range(5):
        _forward(model, jnp.ones((2, 3)))


def case_ok_debug_print_in_nnx_call():
    model = ModelDebug(nnx.Rngs(0))
    for _ in range(5):
        _forward(model, jnp.ones((2, 3)))


# https://github.com/p-doom/jasmine/issues/158
# The loss of each NNX training step pulled to the host with float() for logging.
@nnx.jit
def _train_step(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


class Plain(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


def case_float_loss_every_nnx_step():
    model = Plain(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.01), wrt=nnx.Param)
    losses = []
    for _ in range(50):
        loss = _train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        losses.append(float(loss))  # reported: JNP102
    return losses


def case_ok_loss_read_every_ten_steps():
    model = Plain(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.01), wrt=nnx.Param)
    losses = []
    for step in range(50):
        loss = _train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        if step % 10 == 0:
            losses.append(float(loss))
    return losses
