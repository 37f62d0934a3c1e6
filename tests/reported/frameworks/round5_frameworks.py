"""Fifth round, held out: Flax, Equinox and Optax code (needs flax, equinox and optax to run;
JNP601, JNP602)."""
from functools import partial
from typing import Callable

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax import nnx


# https://github.com/patrick-kidger/equinox/issues/498
# A block keeps its dropout key as a field so that __call__ needs no key argument: every call
# draws the same mask.
class KeyedDropoutBlock(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout
    key: jax.Array

    def __init__(self, key):
        init_key, self.key = jax.random.split(key)
        self.linear = eqx.nn.Linear(8, 8, key=init_key)
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x):
        return self.dropout(self.linear(x), key=self.key)  # reported: JNP601


def case_dropout_key_kept_as_field():
    block = KeyedDropoutBlock(jax.random.key(0))
    x = jnp.ones(8)
    return block(x), block(x)


class DropoutBlock(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.linear = eqx.nn.Linear(8, 8, key=key)
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x, *, key):
        return self.dropout(self.linear(x), key=key)


def case_ok_dropout_key_passed_per_call():
    block = DropoutBlock(jax.random.key(0))
    key_a, key_b = jax.random.split(jax.random.key(1))
    x = jnp.ones(8)
    return block(x, key=key_a), block(x, key=key_b)


# https://github.com/google-deepmind/optax/issues/353
# The optimizer is a static argument of the jitted step and train() builds a new one each time,
# so every training run compiles the step again though the optimizer is the same.
@partial(jax.jit, static_argnames=("optimizer",))
def train_step(optimizer, params, opt_state, batch):
    grads = jax.grad(lambda p: jnp.mean((batch @ p) ** 2))(params)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


def train(params, batch):
    optimizer = optax.adam(1e-2)
    opt_state = optimizer.init(params)
    for _ in range(5):
        params, opt_state = train_step(optimizer, params, opt_state, batch)  # reported: JNP602
    return params


def case_new_static_optimizer_per_training_run():
    return [train(jnp.ones(4), jnp.ones((3, 4))) for _ in range(3)]


OPTIMIZER = optax.adam(1e-2)


def train_shared(params, batch):
    opt_state = OPTIMIZER.init(params)
    for _ in range(5):
        params, opt_state = train_step(OPTIMIZER, params, opt_state, batch)
    return params


def case_ok_one_optimizer_for_every_run():
    return [train_shared(jnp.ones(4), jnp.ones((3, 4))) for _ in range(3)]


# https://github.com/google/flax/issues/1218
# A Linen transformer's training loop calls jax.jit(jax.value_and_grad(...)) on every batch.
class TinyEncoder(nn.Module):
    features: int = 8

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(self.features)(x)
        return nn.Dense(1)(nn.relu(x))


def encoder_loss(params, batch):
    return jnp.mean(TinyEncoder().apply(params, batch) ** 2)


def case_jit_of_value_and_grad_per_batch():
    params = TinyEncoder().init(jax.random.key(0), jnp.ones((2, 4)))
    batches = [jnp.ones((2, 4)) * i for i in range(4)]
    for batch in batches:
        loss, grads = jax.jit(jax.value_and_grad(encoder_loss))(params, batch)  # reported: JNP602
        params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)
    return loss


@jax.jit
def encoder_train_step(params, batch):
    loss, grads = jax.value_and_grad(encoder_loss)(params, batch)
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads), loss


def case_ok_jitted_train_step_defined_once():
    params = TinyEncoder().init(jax.random.key(0), jnp.ones((2, 4)))
    batches = [jnp.ones((2, 4)) * i for i in range(4)]
    for batch in batches:
        params, loss = encoder_train_step(params, batch)
    return loss


# https://github.com/google/flax/issues/5548
# A GAN re-creates its discriminator and its nnx.Optimizer at every epoch; the nnx.jit epoch
# function compiles again each time.
class Discriminator(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(2, 1, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


@nnx.jit
def train_one_epoch(dis, dis_opt, batch):
    def loss_fn(model):
        return jnp.mean(model(batch) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(dis)
    dis_opt.update(dis, grads)
    return loss


def case_discriminator_recreated_every_epoch():
    batch = jnp.ones((4, 2))
    for epoch in range(3):
        dis = Discriminator(nnx.Rngs(epoch))
        dis_opt = nnx.Optimizer(dis, optax.adam(1e-3), wrt=nnx.Param)
        loss = train_one_epoch(dis, dis_opt, batch)  # reported: JNP602
    return loss


def case_ok_discriminator_built_once():
    batch = jnp.ones((4, 2))
    dis = Discriminator(nnx.Rngs(0))
    dis_opt = nnx.Optimizer(dis, optax.adam(1e-3), wrt=nnx.Param)
    for _ in range(3):
        loss = train_one_epoch(dis, dis_opt, batch)
    return loss


# https://github.com/patrick-kidger/equinox/issues/686
# A module jits its kinematics function in __init__ and keeps it as a field; re-initialising the
# module for a second optimisation run makes the filter_jit step compile again.
class ForwardKinematicTrajectory(eqx.Module):
    trajectory: eqx.nn.Linear
    scale_mixer: jax.Array
    forward: Callable

    def __init__(self, fk_fn):
        self.trajectory = eqx.nn.Linear(1, 3, key=jax.random.PRNGKey(0))
        self.scale_mixer = jnp.ones(3)
        self.forward = jax.jit(fk_fn)

    def __call__(self, data):
        return self.forward(self.trajectory(data) * self.scale_mixer)


def trajectory_loss(model, X, y):
    return jnp.mean(jnp.square(jax.vmap(model)(X) - y))


TRAJECTORY_OPT = optax.adam(1e-2)


@eqx.filter_jit
def trajectory_step(model, opt_state, X, y):
    val, grads = eqx.filter_value_and_grad(trajectory_loss)(model, X, y)
    updates, opt_state = TRAJECTORY_OPT.update(grads, opt_state, model)
    return val, eqx.apply_updates(model, updates), opt_state


def case_module_with_jitted_field_reinitialised():
    X, y = jnp.ones((5, 1)), jnp.zeros((5, 3))
    for _ in range(2):
        model = ForwardKinematicTrajectory(jnp.sin)
        opt_state = TRAJECTORY_OPT.init(eqx.filter(model, eqx.is_array))
        for _ in range(3):
            val, model, opt_state = trajectory_step(model, opt_state, X, y)  # reported: JNP602
    return val


class PlainForwardKinematicTrajectory(eqx.Module):
    trajectory: eqx.nn.Linear
    scale_mixer: jax.Array

    def __init__(self):
        self.trajectory = eqx.nn.Linear(1, 3, key=jax.random.PRNGKey(0))
        self.scale_mixer = jnp.ones(3)

    def __call__(self, data):
        return jnp.sin(self.trajectory(data) * self.scale_mixer)


def case_ok_module_without_jitted_field_reinitialised():
    X, y = jnp.ones((5, 1)), jnp.zeros((5, 3))
    for _ in range(2):
        model = PlainForwardKinematicTrajectory()
        opt_state = TRAJECTORY_OPT.init(eqx.filter(model, eqx.is_array))
        for _ in range(3):
            val, model, opt_state = trajectory_step(model, opt_state, X, y)
    return val
