"""Sixteenth round, held out: a regression forward model that branches on a sampled slope while the
sampler traces it, a dropout layer whose rate is an argument of the jitted initialisation, a
detector that builds pixel coordinates from a count passed through lax.cond, a per-group count that
calls unique under jit, and an interpolator whose method string is a pytree leaf (JNP202, JNP203,
JNP205)."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


# https://github.com/pyro-ppl/numpyro/issues/1570
# The forward model checks the sampled slope with a Python if; NUTS traces the potential under jit,
# so the slope is a tracer and the check raises TracerBoolConversionError.
def forward(x, a, b):
    y = b + a * x
    if a < 5:  # reported: JNP202
        y = y * 0.5
    return y


def negative_log_likelihood(theta, x, y_obs):
    a, b = theta
    return 0.5 * jnp.sum((forward(x, a, b) - y_obs) ** 2)


def leapfrog_gradient(theta, x, y_obs):
    return jax.jit(jax.value_and_grad(negative_log_likelihood))(theta, x, y_obs)


def case_forward_model_branches_on_sampled_slope():
    x = jnp.arange(10.0)
    return leapfrog_gradient(jnp.array([3.0, 1.0]), x, 2.0 * x + 1.0)


def forward_masked(x, a, b):
    y = b + a * x
    return jnp.where(a < 5, y * 0.5, y)


def negative_log_likelihood_masked(theta, x, y_obs):
    a, b = theta
    return 0.5 * jnp.sum((forward_masked(x, a, b) - y_obs) ** 2)


def case_ok_forward_model_selects_with_where():
    x = jnp.arange(10.0)
    step = jax.jit(jax.value_and_grad(negative_log_likelihood_masked))
    return step(jnp.array([3.0, 1.0]), x, 2.0 * x + 1.0)


# https://github.com/google-research/scenic/issues/709
# The dropout layer skips itself with `if self.rate == 0.`, but the training script passed the rate
# into the jitted model initialisation as an ordinary argument, so the rate was a tracer there.
class Dropout:
    def __init__(self, rate):
        self.rate = rate

    def __call__(self, x, key):
        if self.rate == 0.0:  # reported: JNP202
            return x
        keep = jax.random.bernoulli(key, 1.0 - self.rate, x.shape)
        return jnp.where(keep, x / (1.0 - self.rate), 0.0)


def initialize_model(dropout_rate, key, batch):
    hidden = jnp.tanh(batch @ jnp.ones((batch.shape[-1], 4)))
    return Dropout(dropout_rate)(hidden, key)


def case_dropout_rate_traced_in_initialisation():
    init = jax.jit(initialize_model)
    return init(0.1, jax.random.key(0), jnp.ones((2, 3)))


def case_ok_dropout_rate_static_in_initialisation():
    init = jax.jit(initialize_model, static_argnums=0)
    return init(0.1, jax.random.key(0), jnp.ones((2, 3)))


# https://github.com/LouisDesdoigts/dLux/issues/260
# The detector picks its pixel grid with lax.cond and hands the pixel count to the branches as an
# operand; inside the branch the count is traced, and arange(n) needs a concrete stop.
def pixel_coords(n, offset, scale):
    pix = jnp.arange(n) - (n - 1) / 2.0  # reported: JNP202
    return pix * scale - offset


class Detector:
    def __init__(self, npix, pixel_scale):
        self.npix = npix
        self.pixel_scale = pixel_scale

    def coordinates(self, oversampled):
        return lax.cond(
            oversampled,
            lambda n: pixel_coords(n, 0.0, self.pixel_scale / 2.0)[::2],
            lambda n: pixel_coords(n, 0.0, self.pixel_scale)[: self.npix],
            self.npix,
        )


def case_pixel_count_passed_through_cond():
    return jax.jit(Detector(8, 0.1).coordinates)(True)


class StaticDetector:
    def __init__(self, npix, pixel_scale):
        self.npix = npix
        self.pixel_scale = pixel_scale

    def coordinates(self, oversampled):
        fine = pixel_coords(2 * self.npix, 0.0, self.pixel_scale / 2.0)[::2]
        coarse = pixel_coords(self.npix, 0.0, self.pixel_scale)
        return lax.cond(oversampled, lambda: fine, lambda: coarse)


def case_ok_pixel_count_closed_over():
    return jax.jit(StaticDetector(8, 0.1).coordinates)(True)


# https://github.com/jax-ml/jax/pull/11030
# jnp.unique without size returns as many values as there are distinct labels, so a jitted per-group
# count cannot trace it (the PR made the error name the size argument).
def count_per_group(labels):
    groups = jnp.unique(labels)  # reported: JNP203
    return jax.vmap(lambda group: jnp.sum(labels == group))(groups)


def case_unique_labels_under_jit():
    return jax.jit(count_per_group)(jnp.array([3, 1, 3, 2, 1, 3]))


def count_per_group_sized(labels, n_groups):
    groups = jnp.unique(labels, size=n_groups, fill_value=-1)
    return jax.vmap(lambda group: jnp.sum(labels == group))(groups)


def case_ok_unique_labels_with_size():
    count = jax.jit(count_per_group_sized, static_argnums=1)
    return count(jnp.array([3, 1, 3, 2, 1, 3]), 3)


# https://github.com/f0uriest/interpax/pull/77
# The interpolator is a pytree whose fields all flatten to leaves, the method name included, so
# passing it to a plain jax.jit fails on the string; the PR made the method a static field.
@partial(jax.tree_util.register_dataclass, data_fields=["x", "f", "method"], meta_fields=[])
@dataclasses.dataclass
class Interpolator1D:
    x: jax.Array
    f: jax.Array
    method: str = "linear"

    def __call__(self, xq):
        return jnp.interp(xq, self.x, self.f)


@jax.jit
def evaluate(interpolator, xq):
    return interpolator(xq)


def case_interpolator_with_method_leaf_through_jit():
    knots = jnp.linspace(0.0, 1.0, 5)
    return evaluate(Interpolator1D(knots, knots**2), jnp.array([0.3, 0.7]))  # reported: JNP205


@partial(jax.tree_util.register_dataclass, data_fields=["x", "f"], meta_fields=["method"])
@dataclasses.dataclass
class StaticMethodInterpolator1D:
    x: jax.Array
    f: jax.Array
    method: str = "linear"

    def __call__(self, xq):
        return jnp.interp(xq, self.x, self.f)


def case_ok_interpolator_with_static_method():
    knots = jnp.linspace(0.0, 1.0, 5)
    return evaluate(StaticMethodInterpolator1D(knots, knots**2), jnp.array([0.3, 0.7]))
