"""Second round, held out: Flax and Equinox users' pitfalls (needs flax and equinox to run)."""
import time
from functools import wraps

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp


class ConvNet(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(x.reshape((x.shape[0], -1)))


model = ConvNet()
input_shape = (1, 8, 8, 3)
params = model.init(jax.random.PRNGKey(0), jnp.ones(input_shape))
output = None


# https://github.com/google/flax/issues/3251
# Throughput of a jitted inference measured without waiting for the outputs.
@jax.jit
def infer(x):
    output = model.apply(params, x)
    return output


def case_throughput_without_blocking():
    output = infer(jnp.ones(input_shape))
    del output
    s = time.time()
    for i in range(100):
        output = infer(jnp.ones(input_shape))
        output = None  # noqa: F841 (the thread's way to drop the result)
    e = time.time()  # reported: JNP603
    return 100 / (e - s)


def case_ok_throughput_blocking():
    output = infer(jnp.ones(input_shape))
    del output
    s = time.time()
    for i in range(100):
        output = infer(jnp.ones(input_shape))
    output.block_until_ready()
    e = time.time()
    return 100 / (e - s)


# https://github.com/google/flax/issues/3251
# The "faster" variant of the same thread: the jitted function stores its output in a
# global instead of returning it, so the global is set once, at trace time, to a tracer.
@jax.jit
def infer_global(x):
    global output
    output = model.apply(params, x)  # reported: JNP302


def case_output_stored_in_global():
    for i in range(3):
        infer_global(jnp.ones(input_shape))
    return output


def case_ok_output_returned():
    outputs = []
    for i in range(3):
        outputs.append(infer(jnp.ones(input_shape)))
    return outputs


# https://github.com/patrick-kidger/equinox/issues/897
# A timing decorator around an eqx.filter_jit function that never waits for the result.
def timeit(func, n_repeats=10):
    @wraps(func)
    def wrapper(*args, **kwargs):
        times = []
        result = func(*args, **kwargs)
        for _ in range(n_repeats):
            start = time.time()
            func(*args, **kwargs)
            end = time.time()  # reported: JNP603
            times.append(end - start)
        return result, sum(times) / n_repeats

    return wrapper


def timeit_blocking(func, n_repeats=10):
    @wraps(func)
    def wrapper(*args, **kwargs):
        times = []
        result = func(*args, **kwargs)
        for _ in range(n_repeats):
            start = time.time()
            jax.block_until_ready(func(*args, **kwargs))
            end = time.time()
            times.append(end - start)
        return result, sum(times) / n_repeats

    return wrapper


@eqx.filter_jit
def fwd_eqx(mlp, x):
    return jax.vmap(mlp)(x)


def case_timing_decorator_without_blocking():
    mlp = eqx.nn.MLP(8, 8, 32, 2, key=jax.random.PRNGKey(0))
    return timeit(fwd_eqx)(mlp, jnp.ones((64, 8)))


def case_ok_timing_decorator_blocking():
    mlp = eqx.nn.MLP(8, 8, 32, 2, key=jax.random.PRNGKey(0))
    return timeit_blocking(fwd_eqx)(mlp, jnp.ones((64, 8)))


# https://github.com/GalacticDynamics/galax/pull/692
# An Equinox potential whose __check_init__ validates its parameters with Python `or`;
# built inside a jitted function, the fields are tracers.
class LeeSutoNFWPotential(eqx.Module):
    m: jax.Array
    r_s: jax.Array

    def __check_init__(self):
        if self.m < 0 or self.r_s < 0:  # reported: JNP202
            raise ValueError("mass and scale radius must be positive")

    def potential(self, r):
        return -self.m * jnp.log1p(r / self.r_s) / r


@jax.jit
def potential_at(m, r_s, r):
    return LeeSutoNFWPotential(m, r_s).potential(r)


def case_check_init_with_python_or_under_jit():
    return potential_at(jnp.asarray(1.0), jnp.asarray(2.0), jnp.asarray(3.0))


class CheckedNFWPotential(eqx.Module):
    m: jax.Array
    r_s: jax.Array

    def __check_init__(self):
        eqx.error_if(self.m, jnp.logical_or(self.m < 0, self.r_s < 0),
                     "mass and scale radius must be positive")

    def potential(self, r):
        return -self.m * jnp.log1p(r / self.r_s) / r


@jax.jit
def checked_potential_at(m, r_s, r):
    return CheckedNFWPotential(m, r_s).potential(r)


def case_ok_check_init_with_error_if():
    return checked_potential_at(jnp.asarray(1.0), jnp.asarray(2.0), jnp.asarray(3.0))
