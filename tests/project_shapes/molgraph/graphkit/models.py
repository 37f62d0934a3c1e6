"""The energy model: embeddings, message-passing layers, a per-graph readout; forces by jax.grad."""
import functools

import jax
import jax.numpy as jnp

from . import layers, ops
from .graphs import graph_index


def sum_readout(h, graph):
    return jax.ops.segment_sum(h, graph_index(graph), num_segments=graph.n_node.shape[0])


def mean_readout(h, graph):
    total = jax.ops.segment_sum(h, graph_index(graph), num_segments=graph.n_node.shape[0])
    # project shape (not a thread): float32 sums divided by the int32 node counts
    return total / jnp.maximum(graph.n_node, 1)[:, None]  # reported: JNP401


def max_readout(h, graph):
    # project shape (not a thread): the number of segments left to be read from the data
    return jax.ops.segment_max(h, graph_index(graph))  # reported: JNP203


READOUTS = {"sum": sum_readout, "mean": mean_readout, "max": max_readout}


class GraphNet:
    """A SchNet-like network bound to its config: `model.energy(params, graph)` per graph."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.readout = cfg.readout

    def init(self, key):
        keys = jax.random.split(key, self.cfg.num_layers + 2)
        return {"embed": jax.random.normal(keys[0], (self.cfg.num_species, self.cfg.hidden)) * 0.5,
                "layers": [layers.init_layer(k, self.cfg) for k in keys[1:-1]],
                "out": layers.dense_init(keys[-1], self.cfg.hidden, 1)}

    def node_features(self, params, positions, graph, key=None):
        cfg = self.cfg
        lengths = ops.edge_lengths(positions, graph.senders, graph.receivers)
        rbf = ops.radial_basis(lengths, cfg.num_rbf, cfg.cutoff)
        h = params["embed"][graph.species]
        layer_fn = layers.LAYERS[cfg.layer]
        for p in params["layers"]:
            # project shape (not a thread): every layer drops edges with the same key
            h = layer_fn(p, h, rbf, graph, cfg, key=key)  # reported: JNP601
        return h

    def energy_at(self, params, positions, graph, key=None):
        h = self.node_features(params, positions, graph, key)
        atom_energy = layers.dense(params["out"], h)
        return READOUTS[self.readout](atom_energy, graph)[:, 0]

    def energy(self, params, graph, key=None):
        return self.energy_at(params, graph.positions, graph, key)

    def energy_and_forces(self, params, graph, key=None):
        def total(positions):
            energies = self.energy_at(params, positions, graph, key)
            return jnp.sum(energies), energies
        grad, energies = jax.grad(total, has_aux=True)(graph.positions)
        return energies, -grad

    # project shape (not a thread): jit on a method; the model object is not a JAX type
    @jax.jit  # reported: JNP205
    def predict(self, params, graph):
        return self.energy(params, graph)


@functools.partial(jax.jit, static_argnums=0)
def predict_energy(model, params, graph):
    return model.energy(params, graph)
