"""Flax Linen, train_state and Optax code as users write it, held out (needs flax and optax to run)."""
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


# framework shape (not a thread)
# A base class whose __call__ calls an abstract hook, features(), that each subclass implements;
# one subclass squashes with NumPy. The model is applied by a jax.jit of its apply.
class Backbone(nn.Module):
    def features(self, x):
        raise NotImplementedError

    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(self.features(nn.Dense(4)(x)))


class NumpyBackbone(Backbone):
    def features(self, x):
        return np.tanh(x)  # reported: JNP201


class JnpBackbone(Backbone):
    def features(self, x):
        return jnp.tanh(x)


def _backbone_jitted(model):
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.PRNGKey(0), x)
    return jax.jit(model.apply)(variables, x)


def case_numpy_in_abstract_hook_of_subclass():
    return _backbone_jitted(NumpyBackbone())


def case_ok_jnp_in_abstract_hook_of_subclass():
    return _backbone_jitted(JnpBackbone())


# framework shape (not a thread)
# Two methods of one model chosen with jax.lax.cond, eagerly (no jit); each branch applies the
# model with method=. lax.cond traces both branches, and one tests its input with a Python if.
class Gate(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)

    def expand(self, x):
        return self(x) * 2.0

    def shrink(self, x):
        if x.mean() > 0:  # reported: JNP202
            return self(x) * 0.5
        return self(x)

    def shrink_masked(self, x):
        return jnp.where(x.mean() > 0, self(x) * 0.5, self(x))


def case_python_if_in_method_chosen_by_lax_cond():
    model = Gate()
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.PRNGKey(0), x)
    return jax.lax.cond(x.sum() > 0,
                        lambda v, x: model.apply(v, x, method=Gate.expand),
                        lambda v, x: model.apply(v, x, method=Gate.shrink), variables, x)


def case_ok_where_in_method_chosen_by_lax_cond():
    model = Gate()
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.PRNGKey(0), x)
    return jax.lax.cond(x.sum() > 0,
                        lambda v, x: model.apply(v, x, method=Gate.expand),
                        lambda v, x: model.apply(v, x, method=Gate.shrink_masked), variables, x)


# framework shape (not a thread)
# model.init inside a jitted init function, called once per ensemble member with its own key; the
# model's custom initializer draws from NumPy's global generator, which runs once at trace time,
# so every member starts from the same weights.
class Scaled(nn.Module):
    numpy_init: bool = True

    @nn.compact
    def __call__(self, x):
        if self.numpy_init:
            scale = self.param("scale", lambda key, shape: jnp.asarray(np.random.normal(size=shape).astype(np.float32)), (3,))  # reported: JNP305
        else:
            scale = self.param("scale", nn.initializers.normal(1.0), (3,))
        return x * scale


@jax.jit
def _init_numpy(key):
    return Scaled().init(key, jnp.ones((2, 3)))


@jax.jit
def _init_keyed(key):
    return Scaled(numpy_init=False).init(key, jnp.ones((2, 3)))


def case_numpy_initializer_in_jitted_init():
    return [_init_numpy(key) for key in jax.random.split(jax.random.PRNGKey(0), 3)]


def case_ok_keyed_initializer_in_jitted_init():
    return [_init_keyed(key) for key in jax.random.split(jax.random.PRNGKey(0), 3)]


# framework shape (not a thread)
# Gradient accumulation with optax.MultiSteps in a TrainState; the host loop asks the MultiSteps
# whether this step applied the update (has_updated gives a device bool) and tests it in Python.
class Linear1(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


@jax.jit
def _accum_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def _accum_state(multi):
    params = Linear1().init(jax.random.PRNGKey(0), jnp.ones((4, 3)))["params"]
    return train_state.TrainState.create(apply_fn=Linear1().apply, params=params, tx=multi)


def case_bool_of_has_updated_every_step():
    multi = optax.MultiSteps(optax.adam(1e-2), every_k_schedule=4)
    state = _accum_state(multi)
    applied = []
    for _ in range(8):
        state, loss = _accum_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        if multi.has_updated(state.opt_state):  # reported: JNP102
            applied.append(loss)
    return applied


def case_ok_python_counter_every_step():
    multi = optax.MultiSteps(optax.adam(1e-2), every_k_schedule=4)
    state = _accum_state(multi)
    applied = []
    for step in range(1, 9):
        state, loss = _accum_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        if step % 4 == 0:
            applied.append(loss)
    return applied


# framework shape (not a thread)
# The step is jitted inside the loop around functools.partial(train_step, model): every partial is
# a new function to jax.jit, so every step traces and compiles again.
def _partial_step(model, state, x, y):
    def loss_fn(params):
        return jnp.mean((model.apply({"params": params}, x) - y) ** 2)
    return state.apply_gradients(grads=jax.grad(loss_fn)(state.params))


def case_jit_of_new_partial_every_step():
    model = Linear1()
    state = _accum_state(optax.sgd(0.1))
    for _ in range(5):
        state = jax.jit(functools.partial(_partial_step, model))(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))  # reported: JNP602
    return state


def case_ok_one_jit_of_partial():
    model = Linear1()
    state = _accum_state(optax.sgd(0.1))
    step = jax.jit(functools.partial(_partial_step, model))
    for _ in range(5):
        state = step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    return state


# framework shape (not a thread)
# After init, the padding row of an nn.Embed table is zeroed by item assignment into the params
# dict's array.
class Tokens(nn.Module):
    @nn.compact
    def __call__(self, ids):
        return nn.Embed(10, 4)(ids).sum(axis=-2)


def case_item_assignment_into_embedding_param():
    variables = Tokens().init(jax.random.PRNGKey(0), jnp.zeros((2, 5), dtype=jnp.int32))
    variables["params"]["Embed_0"]["embedding"][0] = 0.0  # reported: JNP501
    return variables


def case_ok_at_set_into_embedding_param():
    variables = Tokens().init(jax.random.PRNGKey(0), jnp.zeros((2, 5), dtype=jnp.int32))
    table = variables["params"]["Embed_0"]["embedding"]
    variables["params"]["Embed_0"]["embedding"] = table.at[0].set(0.0)
    return variables
