"""Rollouts of a dynamics function over an action sequence with `lax.scan`, and their costs."""
import jax
import jax.numpy as jnp
from jax import lax

VISITED = []


def rollout(dynamics_fn, x0, us):
    def step(x, u):
        x_next = dynamics_fn(x, u)
        return x_next, x_next

    # project shape (not a thread): a new scan body for each eager call, as evaluate.py's loop makes
    _, xs = lax.scan(step, x0, us)  # reported: JNP602
    return jnp.concatenate([x0[None], xs])


def rollout_recorded(dynamics_fn, x0, us):
    """The rollout, keeping every visited state for the plots."""
    def step(x, u):
        x_next = dynamics_fn(x, u)
        # project shape (not a thread): the states kept in a module list from the scanned step
        VISITED.append(x_next)  # reported: JNP303
        return x_next, x_next

    _, xs = lax.scan(step, x0, us)
    return jnp.concatenate([x0[None], xs])


def trajectory_cost(dynamics_fn, cost_fn, x0, us, record=False):
    xs = (rollout_recorded if record else rollout)(dynamics_fn, x0, us)
    return jnp.sum(jax.vmap(cost_fn)(xs[:-1], us))


def batch_cost(dynamics_fn, cost_fn, record=False):
    """Costs of a batch of action sequences from one start state."""
    def cost(x0, us):
        return trajectory_cost(dynamics_fn, cost_fn, x0, us, record)

    return jax.vmap(cost, in_axes=(None, 0))
