"""Ninth round, held out: Python and NumPy conversions of values a jitted function computes, in an
environment step, a sampler, a quantum channel and a gate matrix (JNP201, JNP202)."""
import math

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/issues/8962
# A helper reads the single entry of a one-element array with .item(), which works on concrete
# arrays; once the helper runs under jax.jit the array is a tracer and .item() needs its value.
def test(x):
    return x.item()  # reported: JNP202


def case_item_of_one_element_array_under_jit():
    return jax.jit(test)(jnp.ones(1))


def test_indexed(x):
    return x[0]


def case_ok_first_entry_indexed_under_jit():
    return jax.jit(test_indexed)(jnp.ones(1))


# https://github.com/jax-ml/jax/issues/5013
# A subsampling estimator draws as many indices as the blocks hold in all; the count is
# jnp.sum(block_lengths), computed inside the jitted update, so the sample's shape is a tracer.
def sample_u_poisson(rng_key, block_lengths, m):
    rng_key, sub_key = jax.random.split(rng_key)
    u = jax.random.randint(sub_key, (jnp.sum(block_lengths), m), 0, m)  # reported: JNP202
    return rng_key, u


def case_sample_shape_from_a_traced_sum():
    return jax.jit(sample_u_poisson, static_argnums=2)(jax.random.PRNGKey(0), jnp.array([2, 3]), 4)


def sample_u_poisson_static(rng_key, block_lengths, m):
    rng_key, sub_key = jax.random.split(rng_key)
    u = jax.random.randint(sub_key, (sum(block_lengths), m), 0, m)
    return rng_key, u


def case_ok_sample_shape_from_static_lengths():
    return jax.jit(sample_u_poisson_static, static_argnums=(1, 2))(jax.random.PRNGKey(0), (2, 3), 4)


# https://github.com/RobertTLange/gymnax/issues/83
# An Atari-like environment moves its entities and ends the episode when one reaches the player;
# the step returns bool(done > 0), but the step is jitted and done is computed from the state.
def step_entities(positions, player):
    done = jnp.sum(positions == player)
    positions = positions + 1
    return positions, jnp.float32(done), bool(done > 0)  # reported: JNP202


@jax.jit
def step_env(positions, player):
    positions, reward, done = step_entities(positions, player)
    return positions, reward, done


def case_bool_of_episode_end_in_a_jitted_step():
    return step_env(jnp.arange(4), jnp.int32(2))


def step_entities_traced_done(positions, player):
    done = jnp.sum(positions == player)
    positions = positions + 1
    return positions, jnp.float32(done), done > 0


@jax.jit
def step_env_traced_done(positions, player):
    return step_entities_traced_done(positions, player)


def case_ok_episode_end_kept_as_array():
    return step_env_traced_done(jnp.arange(4), jnp.int32(2))


# https://github.com/PennyLaneAI/pennylane/issues/5285
# A noise channel is given its Kraus operators, built with jnp from the noise probability inside a
# jitted circuit; the channel stacks them with np.array, which asks the tracers for their values.
def channel_matrices(kraus):
    return np.array(kraus)  # reported: JNP201


def apply_channel(rho, kraus):
    ks = channel_matrices(kraus)
    return sum(k @ rho @ k.conj().T for k in ks)


@jax.jit
def noise_channel(p):
    k0 = jnp.sqrt(1 - p) * jnp.eye(2)
    k1 = jnp.sqrt(p) * jnp.eye(2)
    rho = jnp.array([[1.0, 0.0], [0.0, 0.0]])
    return apply_channel(rho, [k0, k1])


def case_kraus_operators_stacked_with_numpy_under_jit():
    return noise_channel(0.1)


@jax.jit
def noise_channel_stacked(p):
    ks = jnp.stack([jnp.sqrt(1 - p) * jnp.eye(2), jnp.sqrt(p) * jnp.eye(2)])
    rho = jnp.array([[1.0, 0.0], [0.0, 0.0]])
    return sum(k @ rho @ k.conj().T for k in ks)


def case_ok_kraus_operators_stacked_with_jnp():
    return noise_channel_stacked(0.1)


# https://github.com/Quantinuum/qnlp_lorenz_etal_2021_resources/issues/2
# A circuit's cost is jitted over its parameters; each rotation gate builds its matrix from
# half its angle with np.cos and np.sin, and the angle is one of the traced parameters.
class Rx:
    def __init__(self, phase):
        self.phase = phase

    def array(self):
        half_theta = math.pi * self.phase
        c, s = np.cos(half_theta), np.sin(half_theta)  # reported: JNP201
        return jnp.array([[c, -1j * s], [-1j * s, c]])


def get_cost(params):
    state = jnp.array([1.0, 0.0])
    for phase in params:
        state = Rx(phase).array() @ state
    return jnp.abs(state[0]) ** 2


def case_gate_matrix_with_numpy_trig_under_jit():
    return jax.jit(get_cost)(jnp.array([0.1, 0.2]))


class RxJnp:
    def __init__(self, phase):
        self.phase = phase

    def array(self):
        half_theta = math.pi * self.phase
        c, s = jnp.cos(half_theta), jnp.sin(half_theta)
        return jnp.array([[c, -1j * s], [-1j * s, c]])


def get_cost_jnp(params):
    state = jnp.array([1.0, 0.0])
    for phase in params:
        state = RxJnp(phase).array() @ state
    return jnp.abs(state[0]) ** 2


def case_ok_gate_matrix_with_jnp_trig_under_jit():
    return jax.jit(get_cost_jnp)(jnp.array([0.1, 0.2]))
