"""Sixth round, held out: NumPy on traced values and values Python needs concrete
(JNP201, JNP202)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/pull/16404
# A sum of sines written with NumPy, differentiated with jax.grad used as a decorator.
@jax.grad
def sum_sin(x):
    return np.sin(x).sum()  # reported: JNP201


def case_numpy_sin_under_grad_decorator():
    return sum_sin(np.linspace(0.0, 1.0, 6).reshape(2, 3))


@jax.grad
def sum_sin_jnp(x):
    return jnp.sin(x).sum()


def case_ok_jnp_sin_under_grad_decorator():
    return sum_sin_jnp(np.linspace(0.0, 1.0, 6).reshape(2, 3))


# https://github.com/dynamiqs/dynamiqs/pull/406
# A piecewise-constant time factor checks with a Python `if` whether t is inside its time grid;
# the solver evaluates it at a traced time under jit.
class PiecewiseFactor:
    def __init__(self, times, values):
        self.times = times
        self.values = values

    def __call__(self, t):
        if t < self.times[0] or t >= self.times[-1]:  # reported: JNP202
            return jnp.zeros_like(self.values[..., 0])
        idx = jnp.searchsorted(self.times, t, side="right") - 1
        return self.values[..., idx]


pulse = PiecewiseFactor(jnp.array([0.0, 1.0, 2.0]), jnp.array([1.0, 3.0]))


@jax.jit
def drive_at(t):
    return 2.0 * pulse(t)


def case_python_if_on_traced_time():
    return drive_at(0.5)


class PiecewiseFactorWhere:
    def __init__(self, times, values):
        self.times = times
        self.values = values

    def __call__(self, t):
        inside = (t >= self.times[0]) & (t < self.times[-1])
        idx = jnp.clip(jnp.searchsorted(self.times, t, side="right") - 1, 0, self.values.shape[-1] - 1)
        return jnp.where(inside, self.values[..., idx], 0.0)


pulse_where = PiecewiseFactorWhere(jnp.array([0.0, 1.0, 2.0]), jnp.array([1.0, 3.0]))


@jax.jit
def drive_at_where(t):
    return 2.0 * pulse_where(t)


def case_ok_where_on_traced_time():
    return drive_at_where(0.5)


# https://github.com/jax-ml/jax/issues/5208
# A time grid whose number of points is computed with jax.numpy from static arguments; under jit
# that count is traced, and jnp.linspace needs it concrete.
@partial(jax.jit, static_argnums=0)
def time_grid(spec):
    t0, tf, dt = spec
    num_steps = jnp.maximum(jnp.abs((tf - t0) / dt), 1).astype(jnp.int32)
    return jnp.linspace(t0, tf, num_steps + 1)  # reported: JNP202


def case_linspace_count_from_jnp_under_jit():
    return time_grid((0.0, 1.0, 0.1))


@partial(jax.jit, static_argnums=0)
def time_grid_python(spec):
    t0, tf, dt = spec
    num_steps = max(int(abs((tf - t0) / dt)), 1)
    return jnp.linspace(t0, tf, num_steps + 1)


def case_ok_linspace_count_from_python_under_jit():
    return time_grid_python((0.0, 1.0, 0.1))
