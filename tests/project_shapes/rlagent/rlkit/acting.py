"""Action selection. Every policy has the signature `(apply_fn, params, obs, key, epsilon)`; the
collector binds `apply_fn` and jits it."""
import jax
import jax.numpy as jnp
import numpy as np

_EPS_STEP = 0


def linear_epsilon(step, cfg):
    frac = min(step / cfg.eps_decay_steps, 1.0)
    return cfg.eps_start + frac * (cfg.eps_end - cfg.eps_start)


def annealed_epsilon(cfg):
    """Epsilon from a module step counter, so that callers need not pass the step."""
    global _EPS_STEP
    # project shape (not a thread): the counter bumped by a function the jitted policy calls
    _EPS_STEP += 1  # reported: JNP302
    # project shape (not a thread), marked after the first measure (the runtime mode confirms it; the
    # shape of jax#1348 in tests/reported/side_effects.py): the counter's read, frozen into the trace
    return linear_epsilon(_EPS_STEP, cfg)  # reported: JNP304


def epsilon_greedy(apply_fn, params, obs, key, epsilon):
    q = apply_fn(params, obs[None])[0]
    explore_key, action_key = jax.random.split(key)
    # project shape (not a thread): a Python branch on a random draw inside the jitted policy
    if jax.random.uniform(explore_key) < epsilon:  # reported: JNP202
        return jax.random.randint(action_key, (), 0, q.shape[-1])
    return jnp.argmax(q)


def epsilon_greedy_where(apply_fn, params, obs, key, epsilon):
    q = apply_fn(params, obs[None])[0]
    explore_key, action_key = jax.random.split(key)
    random_action = jax.random.randint(action_key, (), 0, q.shape[-1])
    return jnp.where(jax.random.uniform(explore_key) < epsilon, random_action, jnp.argmax(q))


def make_annealed_policy(cfg):
    """epsilon-greedy whose epsilon follows cfg's schedule, whatever the caller passes."""
    def policy(apply_fn, params, obs, key, epsilon):
        return epsilon_greedy_where(apply_fn, params, obs, key, annealed_epsilon(cfg))

    return policy


def make_scheduled_policy(cfg):
    def policy(apply_fn, params, obs, key, epsilon):
        return epsilon_greedy_where(apply_fn, params, obs, key, epsilon)

    return policy


def noisy_greedy(apply_fn, params, obs, key, epsilon):
    q = apply_fn(params, obs[None])[0]
    # project shape (not a thread): host NumPy noise drawn while tracing, the same at every step
    noise = np.random.gumbel(size=q.shape) * epsilon  # reported: JNP305
    return jnp.argmax(q + noise)


def noisy_greedy_jax(apply_fn, params, obs, key, epsilon):
    q = apply_fn(params, obs[None])[0]
    noise = jax.random.gumbel(key, q.shape) * epsilon
    return jnp.argmax(q + noise)


def q_values(apply_fn):
    """A jitted batch Q-value function of the parameters and observations."""
    return jax.jit(apply_fn)
