"""Eleventh round, held out: a module's PRNG key advanced inside a function the module then jits
(JNP302)."""
from jax import jit
from jax import random

# https://github.com/jax-ml/jax/issues/5206
# The omnistaging example: init() splits a global key; called plainly it draws new numbers each
# time, but after init = jit(init) the global assignment runs only while tracing, so the calls
# repeat their number and the module's key is left holding a tracer.
key = random.PRNGKey(0)


def init():
    global key
    key, subkey = random.split(key)  # reported: JNP302
    return random.normal(subkey, ())


init = jit(init)


def case_global_key_split_in_a_rebound_jit():
    return init(), init()


@jit
def init_with_key(key):
    key, subkey = random.split(key)
    return key, random.normal(subkey, ())


def case_ok_key_threaded_through_the_jitted_function():
    k = random.PRNGKey(0)
    k, first = init_with_key(k)
    k, second = init_with_key(k)
    return first, second
