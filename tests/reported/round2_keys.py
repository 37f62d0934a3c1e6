"""Second round, held out: PRNG keys and gradients through where (JNP601, JNP604)."""
import jax
import jax.numpy as jnp
from jax import random, tree_util


# https://github.com/dunnolab/xland-minigrid/issues/42
# The same key split twice for two different per-environment key sets.
def case_one_key_split_for_rulesets_and_resets():
    num_envs_per_device = 4
    rng = jax.random.PRNGKey(0)
    rng, _rng1, _rng2 = jax.random.split(rng, num=3)
    ruleset_rng = jax.random.split(rng, num=num_envs_per_device)
    reset_rng = jax.random.split(rng, num=num_envs_per_device)  # reported: JNP601
    return ruleset_rng, reset_rng


def case_ok_each_set_from_its_own_key():
    num_envs_per_device = 4
    rng = jax.random.PRNGKey(0)
    rng, _rng1, _rng2 = jax.random.split(rng, num=3)
    ruleset_rng = jax.random.split(_rng1, num=num_envs_per_device)
    reset_rng = jax.random.split(_rng2, num=num_envs_per_device)
    return ruleset_rng, reset_rng


# https://github.com/jax-ml/jax/pull/3646
# Differentially private SGD: the same key adds noise to the gradient of every parameter.
def case_same_noise_key_for_every_parameter():
    rng = random.PRNGKey(0)
    std_dev = 1.1
    aggregated_clipped_grads = [jnp.zeros(3), jnp.zeros(3)]
    noise_ = lambda n: n + std_dev * random.normal(rng, n.shape)  # noqa: E731  # reported: JNP601
    noised = tree_util.tree_map(noise_, aggregated_clipped_grads)
    return noised


def case_ok_one_key_per_parameter():
    rng = random.PRNGKey(0)
    std_dev = 1.1
    aggregated_clipped_grads = [jnp.zeros(3), jnp.zeros(3)]
    leaves, treedef = tree_util.tree_flatten(aggregated_clipped_grads)
    rngs = random.split(rng, len(leaves))
    noised = [g + std_dev * random.normal(r, g.shape) for r, g in zip(rngs, leaves)]
    return tree_util.tree_unflatten(treedef, noised)


# https://github.com/jax-ml/jax/issues/2630
# A where meant to guard sqrt against non-positive inputs: its gradient at 0 is still nan.
def guarded_sqrt(x):
    return jnp.where(x <= 0, 0.0, jnp.sqrt(x))  # reported: JNP604


def case_where_guard_around_sqrt():
    return jax.grad(guarded_sqrt)(0.0)


def guarded_sqrt_fixed(x):
    safe_x = jnp.where(x <= 0, 1.0, x)
    return jnp.where(x <= 0, 0.0, jnp.sqrt(safe_x))


def case_ok_double_where_around_sqrt():
    return jax.grad(guarded_sqrt_fixed)(0.0)
