"""Evaluate a model on held-out molecules: energy errors, readout comparison, connectivity."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from graphkit import GraphLoader, GraphNet, TrainConfig, make_dataset, predict_energy  # noqa: E402
from graphkit import data, metrics, ops  # noqa: E402

CFG = TrainConfig()
ATOM_REFS = np.array([-0.5, -1.0, -1.5, -2.0], np.float32)


def setup(cfg=CFG):
    graphs = make_dataset(cfg.num_valid, cfg.max_atoms, cfg.model.num_species, cfg.model.cutoff, seed=7)
    loader = GraphLoader(graphs, cfg.batch_size, cfg.max_atoms, seed=7)
    model = GraphNet(cfg.model)
    return graphs, loader, model, model.init(jax.random.key(cfg.seed))


def referenced_energies(model, params, loader):
    out = []
    for graph in loader:
        # project shape (not a thread): the reference energies uploaded again for every batch
        refs = jnp.asarray(ATOM_REFS)[graph.species]  # reported: JNP104
        atoms = jax.ops.segment_sum(refs, jnp.asarray(np.repeat(np.arange(len(graph.n_node)), graph.n_node)),
                                    num_segments=len(graph.n_node))
        out.append(predict_energy(model, params, graph) + atoms)
    return out


def referenced_energies_hoisted(model, params, loader):
    refs_device = jnp.asarray(ATOM_REFS)
    out = []
    for graph in loader:
        atoms = jax.ops.segment_sum(refs_device[graph.species],
                                    jnp.asarray(np.repeat(np.arange(len(graph.n_node)), graph.n_node)),
                                    num_segments=len(graph.n_node))
        out.append(predict_energy(model, params, graph) + atoms)
    return out


def compare_readouts(model, params, graph, readouts=("sum", "mean")):
    results = {}
    for readout in readouts:
        # project shape (not a thread): the static model's readout changed after its first trace
        model.readout = readout  # reported: JNP306
        results[readout] = predict_energy(model, params, graph)
    return results


def compare_readouts_fresh(cfg, params, graph, readouts=("sum", "mean")):
    return {readout: predict_energy(_with_readout(cfg, readout), params, graph) for readout in readouts}


def _with_readout(cfg, readout):
    model = GraphNet(cfg.model)
    model.readout = readout
    return model


def batch_energies(model, params, loader):
    out = []
    for graph in loader:
        # project shape (not a thread): a new jitted function for every batch
        energy_fn = jax.jit(lambda p, g: model.energy(p, g))  # reported: JNP602
        out.append(energy_fn(params, graph))
    return out


def batch_energies_once(model, params, loader):
    energy_fn = jax.jit(model.energy)
    return [energy_fn(params, graph) for graph in loader]


def case_referenced_energies():
    graphs, loader, model, params = setup()
    return referenced_energies(model, params, loader)


def case_ok_referenced_energies_hoisted():
    graphs, loader, model, params = setup()
    return referenced_energies_hoisted(model, params, loader)


def case_compare_readouts():
    graphs, loader, model, params = setup()
    return compare_readouts(model, params, next(iter(loader)))


def case_ok_compare_readouts_fresh():
    graphs, loader, model, params = setup()
    return compare_readouts_fresh(CFG, params, next(iter(loader)))


def case_batch_energies():
    graphs, loader, model, params = setup()
    return batch_energies(model, params, loader)


def case_ok_batch_energies_once():
    graphs, loader, model, params = setup()
    return batch_energies_once(model, params, loader)


def case_predict_method():
    graphs, loader, model, params = setup()
    return model.predict(params, next(iter(loader)))


def case_energy_mae():
    graphs, loader, model, params = setup()
    return metrics.energy_mae(jax.jit(model.energy), params, loader)


def case_ok_energy_mae_on_device():
    graphs, loader, model, params = setup()
    return metrics.energy_mae_on_device(jax.jit(model.energy), params, loader)


def case_total_energy_error():
    graphs, loader, model, params = setup()
    graph = next(iter(loader))
    return metrics.total_energy_error(predict_energy(model, params, graph), graph.energy)


def case_ok_total_energy_error_host():
    graphs, loader, model, params = setup()
    graph = next(iter(loader))
    return metrics.total_energy_error_host(predict_energy(model, params, graph), graph.energy)


def case_max_force_error():
    graphs, loader, model, params = setup()
    return metrics.max_force_error(jax.jit(model.energy_and_forces), params, next(iter(loader)))


def case_ok_energy_mae_padded():
    graphs, loader, model, params = setup()
    return metrics.energy_mae_on_device(jax.jit(model.energy), params, loader)


def case_dense_adjacency():
    graphs, loader, model, params = setup()
    return metrics.mean_degree(metrics.dense_adjacency(jax.tree_util.tree_map(jnp.asarray, graphs[0])))


def case_ok_dense_adjacency_at():
    graphs, loader, model, params = setup()
    return metrics.mean_degree(metrics.dense_adjacency_at(jax.tree_util.tree_map(jnp.asarray, graphs[0])))


def case_ok_degree_on_host():
    graphs, loader, model, params = setup()
    graph = next(iter(loader))
    return ops.degree(graph.receivers, len(graph.species))


def case_ok_attention_weights():
    graphs, loader, model, params = setup()
    graph = next(iter(loader))
    h = params["embed"][graph.species]
    from graphkit import layers
    return layers.attention_weights(params["layers"][0], h, graph)


def _edge_file(folder, graph):
    path = os.path.join(folder, "edges.txt")
    np.savetxt(path, np.stack([graph.senders, graph.receivers], -1), fmt="%d")
    return path


def case_load_edge_list():
    graphs, loader, model, params = setup()
    with tempfile.TemporaryDirectory() as folder:
        return data.load_edge_list(_edge_file(folder, graphs[0]))


def case_ok_load_edge_list_np():
    graphs, loader, model, params = setup()
    with tempfile.TemporaryDirectory() as folder:
        return data.load_edge_list_np(_edge_file(folder, graphs[0]))


def case_filter_species():
    graphs, loader, model, params = setup()
    return len(data.filter_species(graphs, np.array([0, 1, 2])))


def case_ok_filter_species_isin():
    graphs, loader, model, params = setup()
    return len(data.filter_species_isin(graphs, np.array([0, 1, 2])))


if __name__ == "__main__":
    graphs, loader, model, params = setup()
    print("energy MAE", metrics.energy_mae_on_device(jax.jit(model.energy), params, loader))
