"""Flax Linen, train_state and Optax code as users write it, held out (needs flax and optax to run)."""
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


# framework shape (not a thread)
# A custom layer inside an nn.Sequential built inline and given to jax.jit; the layer prints its input.
class Scale(nn.Module):
    @nn.compact
    def __call__(self, x):
        s = self.param("s", nn.initializers.ones, (x.shape[-1],))
        print("scale input", x)  # reported: JNP301
        return x * s


class ScaleQuiet(nn.Module):
    @nn.compact
    def __call__(self, x):
        s = self.param("s", nn.initializers.ones, (x.shape[-1],))
        jax.debug.print("scale input {}", x)
        return x * s


def case_print_in_layer_of_inline_sequential():
    model = nn.Sequential([nn.Dense(4), Scale()])
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    predict = jax.jit(nn.Sequential([nn.Dense(4), Scale()]).apply)
    return [predict(variables, jnp.ones((2, 3))) for _ in range(2)]


def case_ok_debug_print_in_layer_of_inline_sequential():
    model = nn.Sequential([nn.Dense(4), ScaleQuiet()])
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    predict = jax.jit(nn.Sequential([nn.Dense(4), ScaleQuiet()]).apply)
    return [predict(variables, jnp.ones((2, 3))) for _ in range(2)]


# framework shape (not a thread)
# A method named by string in a partial of apply, then jitted; the method squashes with NumPy.
class AutoEncoder(nn.Module):
    def setup(self):
        self.enc = nn.Dense(2)
        self.dec = nn.Dense(4)

    def __call__(self, x):
        return self.dec(self.enc(x))

    def encode(self, x):
        return np.tanh(self.enc(x))  # reported: JNP201


class AutoEncoderJnp(nn.Module):
    def setup(self):
        self.enc = nn.Dense(2)
        self.dec = nn.Dense(4)

    def __call__(self, x):
        return self.dec(self.enc(x))

    def encode(self, x):
        return jnp.tanh(self.enc(x))


def case_numpy_in_method_named_by_string():
    model = AutoEncoder()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 4)))
    encode = jax.jit(functools.partial(model.apply, method="encode"))
    return encode(variables, jnp.ones((2, 4)))


def case_ok_jnp_in_method_named_by_string():
    model = AutoEncoderJnp()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 4)))
    encode = jax.jit(functools.partial(model.apply, method="encode"))
    return encode(variables, jnp.ones((2, 4)))


# framework shape (not a thread)
# A submodule assigned in setup selects the active units with jnp.nonzero; the state is built by a
# helper from the module and applied through state.apply_fn in a jitted eval step.
class Gate(nn.Module):
    @nn.compact
    def __call__(self, h):
        active = jnp.nonzero(h > 0)[0]  # reported: JNP203
        return h.at[active].multiply(2.0)


class GateWhere(nn.Module):
    @nn.compact
    def __call__(self, h):
        return jnp.where(h > 0, 2.0 * h, h)


class Gated(nn.Module):
    gate: type = Gate

    def setup(self):
        self.dense = nn.Dense(4)
        self.gate_layer = self.gate()

    def __call__(self, x):
        return self.gate_layer(self.dense(x).sum(0))


def _create_state(module, x):
    params = module.init(jax.random.PRNGKey(0), x)["params"]
    return train_state.TrainState.create(apply_fn=module.apply, params=params, tx=optax.sgd(0.1))


@jax.jit
def _eval_step(state, x):
    return state.apply_fn({"params": state.params}, x)


def case_nonzero_in_setup_submodule_through_apply_fn():
    return _eval_step(_create_state(Gated(), jnp.ones((2, 3))), jnp.ones((2, 3)))


def case_ok_where_in_setup_submodule_through_apply_fn():
    return _eval_step(_create_state(Gated(gate=GateWhere), jnp.ones((2, 3))), jnp.ones((2, 3)))


# framework shape (not a thread)
# A block lifted with nn.jit inside an eagerly applied model; the block tests its activations with a Python if.
class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(4)(x)
        if h.mean() > 0:  # reported: JNP202
            h = nn.relu(h)
        return h


class BlockWhere(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(4)(x)
        return jnp.where(h.mean() > 0, nn.relu(h), h)


class Tower(nn.Module):
    block: type = Block

    @nn.compact
    def __call__(self, x):
        return nn.jit(self.block)()(x)


def case_python_if_in_nn_jit_block():
    model = Tower()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return model.apply(variables, jnp.ones((2, 3)))


def case_ok_where_in_nn_jit_block():
    model = Tower(block=BlockWhere)
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return model.apply(variables, jnp.ones((2, 3)))


# framework shape (not a thread)
# The metrics dict of a jitted TrainState step pulled to the host with jax.device_get every step.
class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


@jax.jit
def _train_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), {"loss": loss}


def _regression_state():
    model = Regressor()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((4, 3)))["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(1e-3))


def case_device_get_of_metrics_every_step():
    state = _regression_state()
    history = []
    for _ in range(10):
        state, metrics = _train_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        history.append(jax.device_get(metrics))  # reported: JNP101
    return history


def case_ok_metrics_kept_on_device():
    state = _regression_state()
    history = []
    for _ in range(10):
        state, metrics = _train_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        history.append(metrics)
    return jax.device_get(history)
