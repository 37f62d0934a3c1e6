"""PRNG keys consumed twice (JNP601)."""
import jax
import jax.numpy as jnp
from jax import random


# https://github.com/jax-ml/jax/issues/2009
# Two draws from one key give the same numbers.
def case_same_key_two_uniforms():
    key = jax.random.PRNGKey(0)
    a = jax.random.uniform(key, (10, 10))
    b = jax.random.uniform(key, (10, 10))  # reported: JNP601
    return a - b


def case_ok_split_before_each_draw():
    key = jax.random.PRNGKey(0)
    key, k1, k2 = jax.random.split(key, 3)
    a = jax.random.uniform(k1, (10, 10))
    b = jax.random.uniform(k2, (10, 10))
    return a - b


# https://github.com/jax-ml/jax/issues/192 (2024 comment: key reuse checker example)
def case_new_style_key_reused():
    key = jax.random.key(0)
    vals1 = jax.random.uniform(key)
    vals2 = jax.random.uniform(key)  # reported: JNP601
    return vals1, vals2


def case_ok_new_style_key_split():
    key1, key2 = jax.random.split(jax.random.key(0))
    return jax.random.uniform(key1), jax.random.uniform(key2)


# https://github.com/AakashKumarNain/TF_JAX_tutorials/issues/4
# The key made again from the same seed inside the loop: every iteration draws the same noise.
def case_key_remade_every_iteration():
    params = jnp.zeros(3)
    for _ in range(50):
        key = random.PRNGKey(0)
        noise = random.normal(key, (3,))  # reported: JNP601
        params = params + 0.1 * noise
    return params


def case_ok_key_split_every_iteration():
    params = jnp.zeros(3)
    key = random.PRNGKey(0)
    for _ in range(50):
        key, subkey = random.split(key)
        noise = random.normal(subkey, (3,))
        params = params + 0.1 * noise
    return params


# https://github.com/blackjax-devs/blackjax/issues/53
# A draw from the key, then a split of the same key for the next draw: the caller splits its
# key the same way, so the second call's first draw repeats the first call's second one.
def _two_draws(rng_key):
    u = jax.random.normal(rng_key)
    rng_key, _ = jax.random.split(rng_key)  # reported: JNP606
    v = jax.random.normal(rng_key)
    return u, v


def case_draw_then_split_same_key():
    key = jax.random.PRNGKey(0)
    first = _two_draws(key)
    key, _ = jax.random.split(key)
    return first, _two_draws(key)


def _two_draws_fixed(rng_key):
    u_key, v_key = jax.random.split(rng_key)
    return jax.random.normal(u_key), jax.random.normal(v_key)


def case_ok_split_before_both_draws():
    key = jax.random.PRNGKey(0)
    key, call_key = jax.random.split(key)
    first = _two_draws_fixed(call_key)
    key, call_key = jax.random.split(key)
    return first, _two_draws_fixed(call_key)


# https://github.com/google/flax/pull/2593 (review: split and feed a different RNG for each step)
# One dropout key given to every training step, through the gradient: the same units drop each step.
def _loss(params, x, dropout_key):
    keep = jax.random.bernoulli(dropout_key, 0.5, x.shape)
    return jnp.sum((params * x * keep) ** 2)


@jax.jit
def _train_step(params, x, dropout_key):
    return params - 0.01 * jax.grad(_loss)(params, x, dropout_key)


def case_dropout_key_reused_every_step():
    params = jnp.ones(4)
    dropout_key = jax.random.PRNGKey(1)
    for _ in range(50):
        params = _train_step(params, jnp.ones(4), dropout_key)  # reported: JNP601
    return params


def case_ok_dropout_key_split_every_step():
    params = jnp.ones(4)
    key = jax.random.PRNGKey(1)
    for _ in range(50):
        key, dropout_key = jax.random.split(key)
        params = _train_step(params, jnp.ones(4), dropout_key)
    return params
