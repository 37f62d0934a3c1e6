"""Transition kernels: random-walk Metropolis and HMC with a leapfrog integrator, looked up by name."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

GRAD_EVALS = 0


class ChainState(NamedTuple):
    position: jax.Array
    log_density: jax.Array
    grad: jax.Array


class Info(NamedTuple):
    accept_prob: jax.Array
    accepted: jax.Array
    energy: jax.Array


def init_state(log_density, position):
    value, grad = jax.value_and_grad(log_density)(position)
    return ChainState(position, value, grad)


def leapfrog(log_density, position, momentum, grad, step_size, n_steps, path=None):
    global GRAD_EVALS
    momentum = momentum + 0.5 * step_size * grad
    for _ in range(n_steps):
        position = position + step_size * momentum
        value, grad = jax.value_and_grad(log_density)(position)
        momentum = momentum + step_size * grad
        if path is not None:
            # project shape (not a thread): the trajectory recorded in the caller's list from inside the kernel
            path.append(position)  # reported: JNP303
    # project shape (not a thread): the gradient evaluations counted in a module global inside the traced kernel
    GRAD_EVALS += n_steps  # reported: JNP302
    momentum = momentum - 0.5 * step_size * grad
    return position, momentum, value, grad


def leapfrog_ok(log_density, position, momentum, grad, step_size, n_steps):
    def body(_, carry):
        position, momentum, value, grad = carry
        position = position + step_size * momentum
        value, grad = jax.value_and_grad(log_density)(position)
        return position, momentum + step_size * grad, value, grad

    momentum = momentum + 0.5 * step_size * grad
    position, momentum, value, grad = jax.lax.fori_loop(0, n_steps, body, (position, momentum, 0.0, grad))
    return position, momentum - 0.5 * step_size * grad, value, grad


def hmc_step(log_density, state, key, step_size, n_leapfrog, debug=False, path=None):
    momentum_key, accept_key = jax.random.split(key)
    momentum = jax.random.normal(momentum_key, state.position.shape)
    position, new_momentum, value, grad = leapfrog(log_density, state.position, momentum, state.grad, step_size,
                                                   n_leapfrog, path)
    energy = -value + 0.5 * jnp.sum(new_momentum ** 2)
    log_ratio = energy - (-state.log_density + 0.5 * jnp.sum(momentum ** 2))
    accept_prob = jnp.minimum(1.0, jnp.exp(-log_ratio))
    if debug:
        # project shape (not a thread): the acceptance printed from inside the jitted kernel
        print("accept", accept_prob, "energy", energy)  # reported: JNP301
    accepted = jax.random.uniform(accept_key) < accept_prob
    new_state = jax.tree_util.tree_map(lambda new, old: jnp.where(accepted, new, old),
                                       ChainState(position, value, grad), state)
    return new_state, Info(accept_prob, accepted, energy)


def hmc_step_ok(log_density, state, key, step_size, n_leapfrog, debug=False):
    momentum_key, accept_key = jax.random.split(key)
    momentum = jax.random.normal(momentum_key, state.position.shape)
    position, new_momentum, value, grad = leapfrog_ok(log_density, state.position, momentum, state.grad, step_size,
                                                      n_leapfrog)
    energy = -value + 0.5 * jnp.sum(new_momentum ** 2)
    accept_prob = jnp.minimum(1.0, jnp.exp(-energy - state.log_density + 0.5 * jnp.sum(momentum ** 2)))
    if debug:
        jax.debug.print("accept {a}", a=accept_prob)
    accepted = jax.random.uniform(accept_key) < accept_prob
    new_state = jax.tree_util.tree_map(lambda new, old: jnp.where(accepted, new, old),
                                       ChainState(position, value, grad), state)
    return new_state, Info(accept_prob, accepted, energy)


def rwm_step(log_density, state, key, step_size, n_leapfrog=None, debug=False):
    """Random-walk Metropolis; the proposal from JAX, the acceptance draw from NumPy."""
    proposal = state.position + step_size * jax.random.normal(key, state.position.shape)
    value = log_density(proposal)
    log_ratio = value - state.log_density
    # project shape (not a thread): the acceptance's uniform drawn from NumPy's global generator inside the jitted step
    accepted = jnp.log(np.random.uniform()) < log_ratio  # reported: JNP305
    new_state = ChainState(jnp.where(accepted, proposal, state.position), jnp.where(accepted, value, state.log_density),
                           state.grad)
    return new_state, Info(jnp.minimum(1.0, jnp.exp(log_ratio)), accepted, -value)


def rwm_step_greedy(log_density, state, key, step_size, n_leapfrog=None, debug=False):
    """Accepts every uphill move, as a quick mode finder."""
    proposal = state.position + step_size * jax.random.normal(key, state.position.shape)
    value = log_density(proposal)
    # project shape (not a thread): a Python branch on the traced log densities inside the jitted step
    if value > state.log_density:  # reported: JNP202
        return ChainState(proposal, value, state.grad), Info(jnp.ones(()), jnp.array(True), -value)
    return state, Info(jnp.zeros(()), jnp.array(False), -state.log_density)


def rwm_step_ok(log_density, state, key, step_size, n_leapfrog=None, debug=False):
    proposal_key, accept_key = jax.random.split(key)
    proposal = state.position + step_size * jax.random.normal(proposal_key, state.position.shape)
    value = log_density(proposal)
    accepted = jnp.log(jax.random.uniform(accept_key)) < value - state.log_density
    new_state = ChainState(jnp.where(accepted, proposal, state.position), jnp.where(accepted, value, state.log_density),
                           state.grad)
    return new_state, Info(jnp.minimum(1.0, jnp.exp(value - state.log_density)), accepted, -value)


KERNELS = {"hmc": hmc_step, "hmc_ok": hmc_step_ok, "rwm": rwm_step, "rwm_greedy": rwm_step_greedy,
           "rwm_ok": rwm_step_ok}
