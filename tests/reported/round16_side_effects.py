"""Sixteenth round, held out: a mask builder that prints its intermediate inside jit, a helper that
hands a value to a jitted function through a global list while eval_shape traces the caller, and an
annealed sampler whose temperature changes after its energy was jitted with self static (JNP301,
JNP303, JNP306)."""
from functools import partial

import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/3731
# The user printed the result of ones_like inside a jitted function to inspect it and got a tracer;
# print runs only while jit traces the function, so it never shows the values.
@jax.jit
def padding_mask(tokens):
    mask = jnp.ones_like(tokens)
    print(mask)  # reported: JNP301
    return jnp.where(tokens == 0, 0, mask)


def case_print_of_ones_like_inside_jit():
    return padding_mask(jnp.array([3, 0, 5]))


@jax.jit
def padding_mask_debug(tokens):
    mask = jnp.ones_like(tokens)
    jax.debug.print("mask {}", mask)
    return jnp.where(tokens == 0, 0, mask)


def case_ok_debug_print_of_ones_like():
    return padding_mask_debug(jnp.array([3, 0, 5]))


# https://github.com/jax-ml/jax/issues/38460
# A wrapper hands its input to a jitted helper through a module-level list instead of an argument;
# eval_shape traces the wrapper, the list holds a tracer while the helper is traced, and the helper's
# cached trace later leaks it (UnexpectedTracerError).
pending = []


@jax.jit
def concat_pending(token):
    [x] = pending
    return jnp.concatenate([token, x])


def stash_and_concat(x):
    pending.append(x)  # reported: JNP303
    out = concat_pending(x)
    pending.clear()
    return out


def case_global_list_filled_while_eval_shape_traces():
    jax.eval_shape(stash_and_concat, jnp.array([1.0]))
    return stash_and_concat(jnp.array([1.0]))


@jax.jit
def concat_explicit(token, x):
    return jnp.concatenate([token, x])


def pass_and_concat(x):
    return concat_explicit(x, x)


def case_ok_value_passed_as_argument():
    jax.eval_shape(pass_and_concat, jnp.array([1.0]))
    return pass_and_concat(jnp.array([1.0]))


# https://github.com/ml-jku/DIffUCO/issues/13
# The FAQ's warning the user asked about: a method jitted with self static keeps the attributes it
# was traced with, so annealing self.temperature after the first call changes nothing.
class AnnealedSampler:
    def __init__(self, temperature):
        self.temperature = temperature

    @partial(jax.jit, static_argnums=(0,))
    def energy(self, x):
        return jnp.sum(x**2) / self.temperature

    def anneal(self, x, steps):
        energies = []
        for _ in range(steps):
            energies.append(self.energy(x))
            self.temperature = self.temperature * 0.5  # reported: JNP306
        return energies


def case_temperature_annealed_after_static_jit():
    return AnnealedSampler(1.0).anneal(jnp.ones(3), 3)


class AnnealedSamplerExplicit:
    def __init__(self, temperature):
        self.temperature = temperature

    @staticmethod
    @jax.jit
    def energy(x, temperature):
        return jnp.sum(x**2) / temperature

    def anneal(self, x, steps):
        energies = []
        for _ in range(steps):
            energies.append(self.energy(x, self.temperature))
            self.temperature = self.temperature * 0.5
        return energies


def case_ok_temperature_passed_as_argument():
    return AnnealedSamplerExplicit(1.0).anneal(jnp.ones(3), 3)
