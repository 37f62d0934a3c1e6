"""The `Graph` batch, a NamedTuple of arrays, and NumPy batching and padding to fixed sizes."""
from typing import NamedTuple

import jax.numpy as jnp
import numpy as np


class Graph(NamedTuple):
    species: np.ndarray    # [N] int32
    positions: np.ndarray  # [N, 3] float32
    senders: np.ndarray    # [E] int32
    receivers: np.ndarray  # [E] int32
    n_node: np.ndarray     # [G] int32
    energy: np.ndarray     # [G] float32
    forces: np.ndarray     # [N, 3] float32


def batch_graphs(graphs):
    offsets = np.cumsum([0] + [len(g.species) for g in graphs[:-1]])
    return Graph(
        species=np.concatenate([g.species for g in graphs]),
        positions=np.concatenate([g.positions for g in graphs]),
        senders=np.concatenate([g.senders + o for g, o in zip(graphs, offsets)]).astype(np.int32),
        receivers=np.concatenate([g.receivers + o for g, o in zip(graphs, offsets)]).astype(np.int32),
        n_node=np.concatenate([g.n_node for g in graphs]),
        energy=np.concatenate([g.energy for g in graphs]),
        forces=np.concatenate([g.forces for g in graphs]),
    )


def pad_graph(graph, n_node, n_edge, n_graph):
    """Pads to fixed sizes so one compiled step serves every batch.

    The padding nodes form the last graph; the padding edges are self-loops on the last node.
    """
    pad_n, pad_e = n_node - len(graph.species), n_edge - len(graph.senders)
    pad_g = n_graph - len(graph.n_node)
    if pad_n < 1 or pad_e < 0 or pad_g < 1:
        raise ValueError("batch larger than its padding")
    last = n_node - 1
    return Graph(
        species=np.concatenate([graph.species, np.zeros(pad_n, np.int32)]),
        positions=np.concatenate([graph.positions, np.zeros((pad_n, 3), np.float32)]),
        senders=np.concatenate([graph.senders, np.full(pad_e, last, np.int32)]),
        receivers=np.concatenate([graph.receivers, np.full(pad_e, last, np.int32)]),
        n_node=np.concatenate([graph.n_node, np.zeros(pad_g - 1, np.int32), [pad_n]]).astype(np.int32),
        energy=np.concatenate([graph.energy, np.zeros(pad_g, np.float32)]),
        forces=np.concatenate([graph.forces, np.zeros((pad_n, 3), np.float32)]),
    )


def graph_index(graph):
    """The graph each node belongs to (its length is the padded node count)."""
    n_graph = graph.n_node.shape[0]
    return jnp.repeat(jnp.arange(n_graph), graph.n_node, total_repeat_length=graph.species.shape[0])


def graph_mask(graph):
    """False for the padding graph, which is always last."""
    return jnp.arange(graph.n_node.shape[0]) < graph.n_node.shape[0] - 1
