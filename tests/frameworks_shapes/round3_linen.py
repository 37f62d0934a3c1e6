"""Flax Linen, train_state and Optax code as users write it, held out (needs flax and optax to run)."""
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


# framework shape (not a thread)
# A helper receives the module and returns its jitted apply; __call__ normalises with NumPy.
class Encoder(nn.Module):
    features: int = 8

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(self.features)(x)
        return h / np.linalg.norm(h, axis=-1, keepdims=True)  # reported: JNP201


class EncoderJnp(nn.Module):
    features: int = 8

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(self.features)(x)
        return h / jnp.linalg.norm(h, axis=-1, keepdims=True)


def _compile(module):
    return jax.jit(module.apply)


def case_numpy_norm_in_module_given_to_helper():
    encoder = Encoder()
    variables = encoder.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return _compile(encoder)(variables, jnp.ones((2, 3)))


def case_ok_jnp_norm_in_module_given_to_helper():
    encoder = EncoderJnp()
    variables = encoder.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return _compile(encoder)(variables, jnp.ones((2, 3)))


# framework shape (not a thread)
# A train step built in a closure over the model; the accuracy is pulled to Python inside it.
class Mlp(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(nn.relu(nn.Dense(16)(x)))


def _make_train_step(model, tx):
    @jax.jit
    def train_step(params, opt_state, x, y):
        def loss_fn(p):
            logits = model.apply({"params": p}, x)
            return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), logits
        (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        accuracy = (logits.argmax(-1) == y).mean().item()  # reported: JNP202
        return optax.apply_updates(params, updates), opt_state, {"loss": loss, "accuracy": accuracy}
    return train_step


def _make_train_step_array(model, tx):
    @jax.jit
    def train_step(params, opt_state, x, y):
        def loss_fn(p):
            logits = model.apply({"params": p}, x)
            return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), logits
        (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        accuracy = (logits.argmax(-1) == y).mean()
        return optax.apply_updates(params, updates), opt_state, {"loss": loss, "accuracy": accuracy}
    return train_step


def case_item_in_closure_built_step():
    model, tx = Mlp(), optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))["params"]
    step = _make_train_step(model, tx)
    return step(params, tx.init(params), jnp.ones((8, 4)), jnp.zeros(8, dtype=jnp.int32))


def case_ok_array_in_closure_built_step():
    model, tx = Mlp(), optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))["params"]
    step = _make_train_step_array(model, tx)
    return step(params, tx.init(params), jnp.ones((8, 4)), jnp.zeros(8, dtype=jnp.int32))


# framework shape (not a thread)
# A TrainState subclass carrying batch_stats; the step skips the update on a large loss with a Python if.
class BnNet(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Dense(8)(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        return nn.Dense(1)(nn.relu(x))


class BnState(train_state.TrainState):
    batch_stats: Any


def _bn_state():
    model = BnNet()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((4, 3)), train=False)
    return BnState.create(apply_fn=model.apply, params=variables["params"],
                          batch_stats=variables["batch_stats"], tx=optax.sgd(0.1))


@jax.jit
def _bn_step(state, x, y):
    def loss_fn(params):
        pred, updates = state.apply_fn({"params": params, "batch_stats": state.batch_stats}, x,
                                       train=True, mutable=["batch_stats"])
        return jnp.mean((pred - y) ** 2), updates
    (loss, updates), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    if loss > 100.0:  # reported: JNP202
        return state, loss
    state = state.apply_gradients(grads=grads, batch_stats=updates["batch_stats"])
    return state, loss


@jax.jit
def _bn_step_where(state, x, y):
    def loss_fn(params):
        pred, updates = state.apply_fn({"params": params, "batch_stats": state.batch_stats}, x,
                                       train=True, mutable=["batch_stats"])
        return jnp.mean((pred - y) ** 2), updates
    (loss, updates), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    grads = jax.tree.map(lambda g: jnp.where(loss > 100.0, 0.0, g), grads)
    state = state.apply_gradients(grads=grads, batch_stats=updates["batch_stats"])
    return state, loss


def case_python_if_on_loss_in_batch_stats_step():
    return _bn_step(_bn_state(), jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_ok_where_on_loss_in_batch_stats_step():
    return _bn_step_where(_bn_state(), jnp.ones((4, 3)), jnp.zeros((4, 1)))


# framework shape (not a thread)
# A module-level helper that __call__ uses on its activations converts them with NumPy.
def _standardise(h):
    return (h - h.mean()) / np.sqrt(h.var() + 1e-6)  # reported: JNP201


def _standardise_jnp(h):
    return (h - h.mean()) / jnp.sqrt(h.var() + 1e-6)


class Standardised(nn.Module):
    @nn.compact
    def __call__(self, x):
        return _standardise(nn.Dense(4)(x))


class StandardisedJnp(nn.Module):
    @nn.compact
    def __call__(self, x):
        return _standardise_jnp(nn.Dense(4)(x))


def case_numpy_helper_called_from_call():
    model = Standardised()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return jax.jit(model.apply)(variables, jnp.ones((2, 3)))


def case_ok_jnp_helper_called_from_call():
    model = StandardisedJnp()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return jax.jit(model.apply)(variables, jnp.ones((2, 3)))


# framework shape (not a thread)
# setup() builds a list of layers; __call__ stops early with a Python if on a NaN check.
class Stack(nn.Module):
    depth: int = 3

    def setup(self):
        self.layers = [nn.Dense(4) for _ in range(self.depth)]

    def __call__(self, x):
        for layer in self.layers:
            x = nn.tanh(layer(x))
            if jnp.isnan(x).any():  # reported: JNP202
                break
        return x


class StackNoBreak(nn.Module):
    depth: int = 3

    def setup(self):
        self.layers = [nn.Dense(4) for _ in range(self.depth)]

    def __call__(self, x):
        for layer in self.layers:
            x = nn.tanh(layer(x))
        return x


def case_nan_check_in_setup_layer_list():
    model = Stack()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 4)))
    return jax.jit(model.apply)(variables, jnp.ones((2, 4)))


def case_ok_no_check_in_setup_layer_list():
    model = StackNoBreak()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 4)))
    return jax.jit(model.apply)(variables, jnp.ones((2, 4)))


# framework shape (not a thread)
# The host loop over a TrainState step reads the loss as a Python float every iteration.
class Reg(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


@jax.jit
def _reg_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def _reg_state():
    model = Reg()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(1e-2))


def case_float_of_loss_every_step():
    state = _reg_state()
    history = []
    for _ in range(20):
        state, loss = _reg_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        history.append(float(loss))  # reported: JNP102
    return history


def case_ok_losses_fetched_after_loop():
    state = _reg_state()
    history = []
    for _ in range(20):
        state, loss = _reg_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        history.append(loss)
    return [float(v) for v in jax.device_get(history)]
