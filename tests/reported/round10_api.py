"""Tenth round, held out: jax.tree_map, removed in JAX 0.6, in a notebook's parameter loader and in
an auto-reset wrapper's nested helper (JNP504)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/sokrypton/af2bind/pull/5
# The notebook loads the binding-site head's parameters from a pickle and turns every leaf into a
# NumPy array with jax.tree_map before scoring the pair representations.
def af2bind(outputs, params_):
    pair_A = outputs["pair"][:-20, -20:].reshape(outputs["pair"].shape[0] - 20, -1)
    p = jax.tree_map(lambda x: np.asarray(x), params_)  # reported: JNP504
    x = (pair_A - p["mean"]) / p["std"]
    return x @ p["w"]


def case_parameters_mapped_with_tree_map():
    outputs = {"pair": np.ones((24, 24))}
    params_ = {"mean": 0.5, "std": 2.0, "w": np.ones((20, 1))}
    return af2bind(outputs, params_)


def af2bind_tree_map(outputs, params_):
    pair_A = outputs["pair"][:-20, -20:].reshape(outputs["pair"].shape[0] - 20, -1)
    p = jax.tree.map(lambda x: np.asarray(x), params_)
    x = (pair_A - p["mean"]) / p["std"]
    return x @ p["w"]


def case_ok_parameters_mapped_with_jax_tree_map():
    outputs = {"pair": np.ones((24, 24))}
    params_ = {"mean": 0.5, "std": 2.0, "w": np.ones((20, 1))}
    return af2bind_tree_map(outputs, params_)


# https://github.com/MichaelTMatthews/Craftax_Baselines/pull/9
# The auto-reset wrapper's jitted step picks, leaf by leaf, the reset state where the episode ended;
# the selection lives in a helper nested in step and goes through jax.tree_map.
class CounterEnv:
    def reset(self, key, params=None):
        state = {"t": jnp.zeros(()), "pos": jax.random.uniform(key, (2,))}
        return state["pos"], state

    def step(self, key, state, action, params=None):
        state = {"t": state["t"] + 1, "pos": state["pos"] + action}
        return state["pos"], state, 1.0, state["t"] >= 3, {}


class AutoResetEnvWrapper:
    def __init__(self, env):
        self._env = env

    @partial(jax.jit, static_argnums=(0, 4))
    def step(self, rng, state, action, params=None):
        rng, _rng = jax.random.split(rng)
        obs_st, state_st, reward, done, info = self._env.step(_rng, state, action, params)
        rng, _rng = jax.random.split(rng)
        obs_re, state_re = self._env.reset(_rng, params)

        def auto_reset(done, state_re, state_st, obs_re, obs_st):
            state = jax.tree_map(lambda x, y: jax.lax.select(done, x, y), state_re, state_st)  # reported: JNP504
            obs = jax.lax.select(done, obs_re, obs_st)
            return obs, state

        obs, state = auto_reset(done, state_re, state_st, obs_re, obs_st)
        return obs, state, reward, done, info


def case_auto_reset_selects_with_tree_map():
    env = AutoResetEnvWrapper(CounterEnv())
    _, state = CounterEnv().reset(jax.random.PRNGKey(0))
    return env.step(jax.random.PRNGKey(1), state, jnp.ones(2))


class AutoResetEnvWrapperTree(AutoResetEnvWrapper):
    @partial(jax.jit, static_argnums=(0, 4))
    def step(self, rng, state, action, params=None):
        rng, _rng = jax.random.split(rng)
        obs_st, state_st, reward, done, info = self._env.step(_rng, state, action, params)
        rng, _rng = jax.random.split(rng)
        obs_re, state_re = self._env.reset(_rng, params)
        state = jax.tree.map(lambda x, y: jax.lax.select(done, x, y), state_re, state_st)
        obs = jax.lax.select(done, obs_re, obs_st)
        return obs, state, reward, done, info


def case_ok_auto_reset_selects_with_jax_tree_map():
    env = AutoResetEnvWrapperTree(CounterEnv())
    _, state = CounterEnv().reset(jax.random.PRNGKey(0))
    return env.step(jax.random.PRNGKey(1), state, jnp.ones(2))
