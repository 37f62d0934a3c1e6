"""Third round, held out: PRNG keys used more than once (JNP601)."""
from functools import partial

import jax.numpy as np
from jax import jit, lax, random
from jax.example_libraries import stax
from jax.example_libraries.stax import Dense, Relu


# https://github.com/jax-ml/jax/pull/689
# A random feature map drawing its weights, phases and offsets from one key.
@partial(jit, static_argnums=(0, 1))
def feature_map(n, d, sigma=1.0, seed=123):
    key = random.PRNGKey(seed)
    W = random.normal(key, (d, n)) / sigma
    w = random.normal(key, (d,)) / sigma  # reported: JNP601
    b = 2 * np.pi * random.uniform(key, (d,))  # reported: JNP601
    return W, w, b


def case_one_key_for_three_draws():
    return feature_map(5, 3)


@partial(jit, static_argnums=(0, 1))
def feature_map_split(n, d, sigma=1.0, seed=123):
    k_W, k_w, k_b = random.split(random.PRNGKey(seed), 3)
    W = random.normal(k_W, (d, n)) / sigma
    w = random.normal(k_w, (d,)) / sigma
    b = 2 * np.pi * random.uniform(k_b, (d,))
    return W, w, b


def case_ok_one_key_per_draw():
    return feature_map_split(5, 3)


# https://github.com/jax-ml/jax/issues/170
# A dropout layer that makes its key from a fixed seed: the same units drop on every call.
def Dropout(rate, seed=0):
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        rng = random.PRNGKey(seed)
        keep = random.bernoulli(rng, rate, inputs.shape)  # reported: JNP601
        return np.where(keep, inputs / rate, 0)

    return init_fun, apply_fun


def case_dropout_key_from_fixed_seed():
    init_fun, apply_fun = stax.serial(Dense(8), Relu, Dropout(0.5))
    _, params = init_fun(random.PRNGKey(1), (-1, 4))
    inputs = np.ones((2, 4))
    masks = []
    for _ in range(4):
        masks.append(apply_fun(params, inputs))
    return masks


def Dropout_with_rng(rate):
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, rng=None, **kwargs):
        keep = random.bernoulli(rng, rate, inputs.shape)
        return np.where(keep, inputs / rate, 0)

    return init_fun, apply_fun


def case_ok_dropout_key_passed_in():
    init_fun, apply_fun = stax.serial(Dense(8), Relu, Dropout_with_rng(0.5))
    _, params = init_fun(random.PRNGKey(1), (-1, 4))
    inputs = np.ones((2, 4))
    key = random.PRNGKey(0)
    masks = []
    for _ in range(4):
        key, subkey = random.split(key)
        masks.append(apply_fun(params, inputs, rng=subkey))
    return masks


# https://github.com/gchq/coreax/issues/375
# The loop body that perturbs the inputs with Gaussian noise draws the same noise every step.
def _noise_conditional_loop_body(i, obj):
    x, total = obj
    noise = random.normal(random.PRNGKey(0), x.shape)  # reported: JNP601
    return x, total + np.sum((x + noise) ** 2)


def case_same_perturbation_in_every_step():
    return lax.fori_loop(0, 5, _noise_conditional_loop_body, (np.ones(3), 0.0))


def _noise_conditional_loop_body_folded(i, obj):
    x, total = obj
    noise = random.normal(random.fold_in(random.PRNGKey(0), i), x.shape)
    return x, total + np.sum((x + noise) ** 2)


def case_ok_perturbation_per_step():
    return lax.fori_loop(0, 5, _noise_conditional_loop_body_folded, (np.ones(3), 0.0))
