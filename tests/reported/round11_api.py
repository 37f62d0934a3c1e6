"""Eleventh round, held out: tree_multimap, removed in JAX 0.3.16, in a tree-search agent's scan
body and in a world model's slow critic, jnp.DeviceArray, removed in 0.4.14, in a training
step's annotation, and a nested list handed to jnp.tile by a backend wrapper (JNP504, JNP505)."""
from typing import Dict

import jax
import jax as jx
import jax.numpy as jnp


# https://github.com/kenjyoung/mctx_learning_demo/pull/3
# The agent's scan body resets the environments that terminated: it picks, leaf by leaf, the
# freshly reset state where the episode ended with jx.tree_multimap.
def get_loop_function(batch_reset):
    def loop_function(S, data):
        terminal = S["t"] >= 2
        S["key"], subkey = jx.random.split(S["key"])
        subkeys = jx.random.split(subkey, num=terminal.shape[0])
        S["env_states"] = jx.tree_multimap(lambda x, y: jnp.where(jnp.reshape(terminal, [terminal.shape[0]] + [1] * (len(x.shape) - 1)), x, y), batch_reset(subkeys), S["env_states"])  # reported: JNP504
        S["t"] = jnp.where(terminal, 0, S["t"] + 1)
        return S, None

    return loop_function


def batch_reset(keys):
    return {"pos": jax.vmap(lambda k: jax.random.uniform(k, (2,)))(keys)}


def case_reset_selected_with_tree_multimap():
    S = {"key": jx.random.PRNGKey(0), "t": jnp.zeros(4), "env_states": {"pos": jnp.zeros((4, 2))}}
    S, _ = jx.lax.scan(get_loop_function(batch_reset), S, None, length=5)
    return S


def get_loop_function_tree_map(batch_reset):
    def loop_function(S, data):
        terminal = S["t"] >= 2
        S["key"], subkey = jx.random.split(S["key"])
        subkeys = jx.random.split(subkey, num=terminal.shape[0])
        S["env_states"] = jx.tree_util.tree_map(lambda x, y: jnp.where(jnp.reshape(terminal, [terminal.shape[0]] + [1] * (len(x.shape) - 1)), x, y), batch_reset(subkeys), S["env_states"])
        S["t"] = jnp.where(terminal, 0, S["t"] + 1)
        return S, None

    return loop_function


def case_ok_reset_selected_with_tree_util_tree_map():
    S = {"key": jx.random.PRNGKey(0), "t": jnp.zeros(4), "env_states": {"pos": jnp.zeros((4, 2))}}
    S, _ = jx.lax.scan(get_loop_function_tree_map(batch_reset), S, None, length=5)
    return S


# https://github.com/world-modelz/dreamax/issues/15
# The learner keeps a slow copy of the critic and mixes the fresh weights into it after each
# update through jax.tree_util.tree_multimap, which JAX first deprecated and then removed.
class Learner:
    def __init__(self, critic_params, slow_critic_fraction=0.02):
        self.critic_params = critic_params
        self.slow_critic_params = critic_params
        self.slow_critic_fraction = slow_critic_fraction

    def update_slow_critic(self):
        mix = self.slow_critic_fraction
        self.slow_critic_params = jax.tree_util.tree_multimap(lambda s, c: mix * c + (1 - mix) * s, self.slow_critic_params, self.critic_params)  # reported: JNP504


def case_slow_critic_mixed_with_tree_multimap():
    learner = Learner({"w": jnp.ones((3, 3)), "b": jnp.zeros(3)})
    learner.critic_params = {"w": jnp.zeros((3, 3)), "b": jnp.ones(3)}
    learner.update_slow_critic()
    return learner.slow_critic_params


class LearnerTreeMap(Learner):
    def update_slow_critic(self):
        mix = self.slow_critic_fraction
        self.slow_critic_params = jax.tree_util.tree_map(lambda s, c: mix * c + (1 - mix) * s, self.slow_critic_params, self.critic_params)


def case_ok_slow_critic_mixed_with_tree_map():
    learner = LearnerTreeMap({"w": jnp.ones((3, 3)), "b": jnp.zeros(3)})
    learner.critic_params = {"w": jnp.zeros((3, 3)), "b": jnp.ones(3)}
    learner.update_slow_critic()
    return learner.slow_critic_params


# https://github.com/google-deepmind/jaxline/issues/15
# The experiment's step is annotated as returning a dictionary of jnp.DeviceArray scalars; with JAX
# 0.4.14 the annotation itself raises AttributeError as soon as the definition runs.
def case_step_annotated_with_device_array():
    def step(global_step: jnp.ndarray, rng: jnp.ndarray) -> Dict[str, jnp.DeviceArray]:  # reported: JNP504
        return {"loss": jnp.mean(jax.random.normal(rng, (4,))) + global_step}

    return step(jnp.zeros(()), jax.random.PRNGKey(0))


def case_ok_step_annotated_with_jax_array():
    def step(global_step: jnp.ndarray, rng: jnp.ndarray) -> Dict[str, jax.Array]:
        return {"loss": jnp.mean(jax.random.normal(rng, (4,))) + global_step}

    return step(jnp.zeros(()), jax.random.PRNGKey(0))


# https://github.com/scikit-hep/pyhf/pull/2587
# The JAX backend's tile() passes its input straight to jnp.tile; the model builds the tensor as a
# nested Python list, which np.tile accepts and jnp.tile refuses with a TypeError.
class jax_backend:
    def tile(self, tensor_in, repeats):
        return jnp.tile(tensor_in, repeats)  # reported: JNP505


def case_nested_list_tiled_by_the_backend():
    tensorlib = jax_backend()
    return tensorlib.tile([[[0, 1, 2]]], (0, 1, 1))


class jax_backend_asarray:
    def tile(self, tensor_in, repeats):
        return jnp.tile(jnp.asarray(tensor_in), repeats)


def case_ok_nested_list_converted_before_tiling():
    tensorlib = jax_backend_asarray()
    return tensorlib.tile([[[0, 1, 2]]], (0, 1, 1))
