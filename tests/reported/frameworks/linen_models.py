"""Flax Linen models (needs flax to run)."""
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/unifyai/ivy/pull/16255
# np.asarray on the input inside a Linen module's __call__, applied under jit.
class NumpyLinear(nn.Module):
    out_size: int

    @nn.compact
    def __call__(self, x):
        x = np.asarray(x)  # reported: JNP201
        return nn.Dense(self.out_size)(x)


class JnpLinear(nn.Module):
    out_size: int

    @nn.compact
    def __call__(self, x):
        x = jnp.asarray(x)
        return nn.Dense(self.out_size)(x)


def case_numpy_asarray_in_linen_call():
    model = NumpyLinear(4)
    x = jnp.ones((1, 2))
    params = model.init(jax.random.PRNGKey(0), x)
    jax.jit(model.apply)(params, x)


def case_ok_jnp_asarray_in_linen_call():
    model = JnpLinear(4)
    x = jnp.ones((1, 2))
    params = model.init(jax.random.PRNGKey(0), x)
    jax.jit(model.apply)(params, x)


# https://github.com/codestella/putting-nerf-on-a-diet/pull/11
# The number of samples along each ray passed to the jitted step as a traced argument.
class Radiance(nn.Module):
    @nn.compact
    def __call__(self, points):
        return nn.Dense(1)(points[..., None])


RADIANCE = Radiance()


@jax.jit
def _single_step(params, rays, n_samples):
    t = jnp.linspace(0.0, 1.0, n_samples)  # reported: JNP202
    return RADIANCE.apply(params, rays[:, None] * t[None, :]).mean()


def case_sample_count_traced_in_linen_step():
    params = RADIANCE.init(jax.random.PRNGKey(0), jnp.ones((2, 8)))
    _single_step(params, jnp.ones(2), 8)


@partial(jax.jit, static_argnums=2)
def _single_step_static(params, rays, n_samples):
    t = jnp.linspace(0.0, 1.0, n_samples)
    return RADIANCE.apply(params, rays[:, None] * t[None, :]).mean()


def case_ok_sample_count_static():
    params = RADIANCE.init(jax.random.PRNGKey(0), jnp.ones((2, 8)))
    _single_step_static(params, jnp.ones(2), 8)


# https://github.com/google/flax/pull/2631 (review: split a different dropout key on each step)
class Dropped(nn.Module):
    @nn.compact
    def __call__(self, x, training: bool):
        x = nn.Dense(4)(x)
        return nn.Dropout(rate=0.5, deterministic=not training)(x)


DROPPED = Dropped()


@jax.jit
def _train_step(params, x, dropout_key):
    def loss(p):
        return jnp.sum(DROPPED.apply(p, x, training=True, rngs={"dropout": dropout_key}) ** 2)
    grads = jax.grad(loss)(params)
    return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)


def case_linen_dropout_key_reused_every_step():
    root_key = jax.random.PRNGKey(0)
    params_key, dropout_key = jax.random.split(root_key)
    params = DROPPED.init(params_key, jnp.ones((2, 3)), training=False)
    for _ in range(20):
        params = _train_step(params, jnp.ones((2, 3)), dropout_key)  # reported: JNP601
    return params


def case_ok_linen_dropout_key_split_every_step():
    root_key = jax.random.PRNGKey(0)
    params_key, dropout_key = jax.random.split(root_key)
    params = DROPPED.init(params_key, jnp.ones((2, 3)), training=False)
    for _ in range(20):
        dropout_key, step_key = jax.random.split(dropout_key)
        params = _train_step(params, jnp.ones((2, 3)), step_key)
    return params


# https://github.com/google/flax/pull/2094
# A Linen module passed through jax.jit as an argument: it is not a JAX type. JNP205 reports this
# mechanism for a jitted method's self; here it is an argument. The runtime mode places its TypeError on
# the jitted function (def _forward), not on this call.
def _forward(module, params, x):
    return module.apply(params, x)


def case_linen_module_passed_through_jit():
    model = JnpLinear(2)
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))
    return jax.jit(_forward)(model, params, jnp.ones((1, 2)))  # reported: JNP205


def case_ok_linen_module_static():
    model = JnpLinear(2)
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))
    return jax.jit(_forward, static_argnums=0)(model, params, jnp.ones((1, 2)))
