"""Sixteenth round, held out: a design matrix centred in place through a NumPy view of a JAX array,
an auto-resetting environment step and an SMC resampling step that still call jax.tree_map
(JNP501, JNP504)."""
import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/flatironinstitute/nemos/pull/214
# The identifiability constraint centred the feature matrix with `X -= np.nanmean(X, axis=0)`; when
# the features come from JAX the NumPy view is read-only and the in-place subtraction raises.
def apply_identifiability_constraints(feature_matrix):
    X = np.asarray(feature_matrix)
    X -= np.nanmean(X, axis=0)  # reported: JNP501
    return X


def case_feature_matrix_centred_in_place():
    features = jnp.stack([jnp.arange(4.0), jnp.ones(4)], axis=1)
    return apply_identifiability_constraints(features)


def apply_identifiability_constraints_copy(feature_matrix):
    X = np.asarray(feature_matrix)
    X = X - np.nanmean(X, axis=0)
    return X


def case_ok_feature_matrix_centred_out_of_place():
    features = jnp.stack([jnp.arange(4.0), jnp.ones(4)], axis=1)
    return apply_identifiability_constraints_copy(features)


# https://github.com/RobertTLange/gymnax/pull/70
# The environment's auto-reset step merges the reset and stepped states with jax.tree_map, which
# was deprecated in JAX 0.4.26 and later removed (AttributeError on current JAX).
class CountingEnv:
    def step_env(self, state, action):
        new_state = {"t": state["t"] + 1, "pos": state["pos"] + action}
        return new_state, new_state["t"] >= 3

    def reset_env(self):
        return {"t": jnp.array(0), "pos": jnp.array(0.0)}

    def step(self, state, action):
        state_st, done = self.step_env(state, action)
        state_re = self.reset_env()
        state = jax.tree_map(lambda x, y: jnp.where(done, x, y), state_re, state_st)  # reported: JNP504
        return state, done


def case_auto_reset_merges_with_tree_map():
    env = CountingEnv()
    return jax.jit(env.step)(env.reset_env(), 1.0)


class CountingEnvTreeMap(CountingEnv):
    def step(self, state, action):
        state_st, done = self.step_env(state, action)
        state_re = self.reset_env()
        state = jax.tree.map(lambda x, y: jnp.where(done, x, y), state_re, state_st)
        return state, done


def case_ok_auto_reset_merges_with_tree_dot_map():
    env = CountingEnvTreeMap()
    return jax.jit(env.step)(env.reset_env(), 1.0)


# https://github.com/blackjax-devs/blackjax/pull/656
# The SMC kernel factory's resampling step gathered the particles with jax.tree_map; the PR moved
# it (with the loop keys) to the jax.tree API.
def build_resampling_kernel(num_particles):
    def resample(key, particles, log_weights):
        idx = jax.random.categorical(key, log_weights, shape=(num_particles,))
        return jax.tree_map(lambda leaf: leaf[idx], particles)  # reported: JNP504

    return resample


def case_resampling_gathers_with_tree_map():
    particles = {"x": jnp.arange(4.0), "y": jnp.ones((4, 2))}
    kernel = jax.jit(build_resampling_kernel(4))
    return kernel(jax.random.key(0), particles, jnp.zeros(4))


def build_resampling_kernel_tree(num_particles):
    def resample(key, particles, log_weights):
        idx = jax.random.categorical(key, log_weights, shape=(num_particles,))
        return jax.tree.map(lambda leaf: leaf[idx], particles)

    return resample


def case_ok_resampling_gathers_with_tree_dot_map():
    particles = {"x": jnp.arange(4.0), "y": jnp.ones((4, 2))}
    kernel = jax.jit(build_resampling_kernel_tree(4))
    return kernel(jax.random.key(0), particles, jnp.zeros(4))
