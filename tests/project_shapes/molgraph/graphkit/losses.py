"""Energy and force objectives, looked up by name in LOSSES; the force weight is annealed."""
import jax.numpy as jnp

from .graphs import graph_mask

FORCE_WEIGHT = 10.0


def set_force_weight(weight):
    global FORCE_WEIGHT
    FORCE_WEIGHT = weight


def energy_loss(model, params, graph, key=None):
    pred = model.energy(params, graph, key)
    mask = graph_mask(graph)
    return jnp.sum(jnp.where(mask, (pred - graph.energy) ** 2, 0.0)) / jnp.sum(mask)


def _force_error(forces, graph, atom_mask):
    err = jnp.sum((forces - graph.forces) ** 2, -1)
    weights = atom_mask.astype(err.dtype)
    return jnp.sum(err * weights) / jnp.maximum(jnp.sum(weights), 1.0)


def energy_force_loss(model, params, graph, key=None):
    energies, forces = model.energy_and_forces(params, graph, key)
    mask = graph_mask(graph)
    # project shape (not a thread): the per-atom mask repeated by the traced node counts
    atom_mask = jnp.repeat(mask, graph.n_node)  # reported: JNP203
    e_err = jnp.sum(jnp.where(mask, (energies - graph.energy) ** 2, 0.0)) / jnp.sum(mask)
    return e_err + FORCE_WEIGHT * _force_error(forces, graph, atom_mask)  # reported: JNP304


def energy_force_loss_padded(model, params, graph, key=None):
    energies, forces = model.energy_and_forces(params, graph, key)
    mask = graph_mask(graph)
    atom_mask = jnp.repeat(mask, graph.n_node, total_repeat_length=graph.species.shape[0])
    e_err = jnp.sum(jnp.where(mask, (energies - graph.energy) ** 2, 0.0)) / jnp.sum(mask)
    # project shape (not a thread): the annealed weight, read when the step is traced
    return e_err + FORCE_WEIGHT * _force_error(forces, graph, atom_mask)  # reported: JNP304


LOSSES = {"energy": energy_loss, "forces": energy_force_loss, "forces_padded": energy_force_loss_padded}
