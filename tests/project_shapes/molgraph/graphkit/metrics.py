"""Evaluation: energy and force errors over a loader, connectivity statistics."""
import jax.numpy as jnp
import numpy as np

from .graphs import graph_mask


def energy_mae(energy_fn, params, loader):
    total, count = 0.0, 0
    for graph in loader:
        err = jnp.abs(energy_fn(params, graph) - graph.energy)
        # project shape (not a thread): each batch's error read back to a Python float
        total += float(jnp.sum(jnp.where(graph_mask(graph), err, 0.0)))  # reported: JNP102
        count += len(graph.n_node) - 1
    return total / count


def energy_mae_on_device(energy_fn, params, loader):
    total, count = 0.0, 0
    for graph in loader:
        err = jnp.abs(energy_fn(params, graph) - graph.energy)
        total = total + jnp.sum(jnp.where(graph_mask(graph), err, 0.0))
        count += len(graph.n_node) - 1
    return float(total) / count


def max_force_error(force_fn, params, graph):
    """The largest per-atom force error of a padded batch (the padding atoms' error is zero)."""
    _, forces = force_fn(params, graph)
    return jnp.max(jnp.linalg.norm(forces - graph.forces, axis=-1))


def total_energy_error(pred, target):
    """The summed error of many small per-molecule differences, kept in double precision."""
    # project shape (not a thread): a float64 accumulation without jax_enable_x64
    diff = jnp.asarray(pred, dtype=jnp.float64) - jnp.asarray(target, dtype=jnp.float64)  # reported: JNP402
    return jnp.sum(diff)


def total_energy_error_host(pred, target):
    return np.sum(np.asarray(pred, np.float64) - np.asarray(target, np.float64))


def dense_adjacency(graph):
    n = graph.species.shape[0]
    adj = jnp.zeros((n, n), jnp.float32)
    # project shape (not a thread): NumPy's fancy-index assignment on a JAX array
    adj[graph.senders, graph.receivers] = 1.0  # reported: JNP501
    return adj


def dense_adjacency_at(graph):
    n = graph.species.shape[0]
    return jnp.zeros((n, n), jnp.float32).at[graph.senders, graph.receivers].set(1.0)


def mean_degree(adj):
    return jnp.mean(jnp.sum(adj, -1))
