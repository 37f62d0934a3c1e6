"""Keys, tree helpers, metrics and a logger."""
import time

import jax
import jax.numpy as jnp


class KeyStream:
    def __init__(self, seed=0):
        self.key = jax.random.PRNGKey(seed)

    def __call__(self):
        self.key, sub = jax.random.split(self.key)
        return sub


def tree_distance(a, b):
    """The L2 distance between two parameter trees, for how far training moved the model."""
    # project shape (not a thread): the tree map removed from the jax namespace
    squares = jax.tree_map(lambda x, y: jnp.sum((x - y) ** 2), a, b)  # reported: JNP504
    return jnp.sqrt(sum(jax.tree_util.tree_leaves(squares)))


def tree_distance_ok(a, b):
    squares = jax.tree.map(lambda x, y: jnp.sum((x - y) ** 2), a, b)
    return jnp.sqrt(sum(jax.tree.leaves(squares)))


def stack_trajectories(trajectories):
    # project shape (not a thread): row_stack, removed from jax.numpy
    return jnp.row_stack(trajectories)  # reported: JNP504


def stack_trajectories_ok(trajectories):
    return jnp.vstack(trajectories)


def mean_episode_cost(episode_costs):
    # project shape (not a thread): the mean of a Python list of per-episode costs
    return jnp.mean(episode_costs)  # reported: JNP505


def mean_episode_cost_ok(episode_costs):
    return jnp.mean(jnp.asarray(episode_costs))


def discounted(stage_costs, step_weights):
    """Stage costs kept in float16 by the compact log, weighted by integer step counts."""
    # project shape (not a thread): int32 counts times float16 costs
    return jnp.sum(step_weights * stage_costs)  # reported: JNP401


def discounted_ok(stage_costs, step_weights):
    return jnp.sum(step_weights.astype(jnp.float32) * stage_costs.astype(jnp.float32))


def action_spread(us):
    # project shape (not a thread): NumPy's random namespace asked of jax.numpy
    jitter = jnp.random.normal(size=us.shape)  # reported: JNP502
    return jnp.std(us + 1e-3 * jitter, axis=0)


def action_spread_ok(us, key):
    jitter = jax.random.normal(key, us.shape)
    return jnp.std(us + 1e-3 * jitter, axis=0)


class MetricLogger:
    def __init__(self):
        self.rows, self.start = [], time.perf_counter()

    def log(self, **values):
        self.rows.append({"time": time.perf_counter() - self.start, **values})

    def last(self):
        return self.rows[-1] if self.rows else {}
