"""Flax: the data fields of a ``TrainState`` given to a jitted step are the trace's (measured by
running Flax, ``framework_records``: ``step`` one array, ``params`` and ``opt_state`` trees of
them; ``apply_fn`` and ``tx`` static), also where a helper builds the state."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class Line(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


def make_state():
    model = Line()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((4, 3)))["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))


def loss(state, params, x, y):
    return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)


@jax.jit
def step_with_python_if(state, x, y):
    grads = jax.grad(lambda p: loss(state, p, x, y))(state.params)
    if state.step > 2:  # expect: JNP202
        grads = jax.tree_util.tree_map(lambda g: g / 2, grads)
    return state.apply_gradients(grads=grads)


@jax.jit
def step_with_where(state, x, y):
    grads = jax.grad(lambda p: loss(state, p, x, y))(state.params)
    scale = jnp.where(state.step > 2, 0.5, 1.0)
    return state.apply_gradients(grads=jax.tree_util.tree_map(lambda g: g * scale, grads))


@jax.jit
def step_with_static_field(state, x, y):
    if state.tx is not None:  # tx is a static field: a Python test of it is fine
        grads = jax.grad(lambda p: loss(state, p, x, y))(state.params)
        state = state.apply_gradients(grads=grads)
    return state


def case_python_if_on_step():
    return step_with_python_if(make_state(), jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_ok_where_on_step():
    return step_with_where(make_state(), jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_ok_python_if_on_static_field():
    return step_with_static_field(make_state(), jnp.ones((4, 3)), jnp.zeros((4, 1)))
