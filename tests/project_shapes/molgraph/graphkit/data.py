"""Toy molecules in NumPy (harmonic bonds, energies and forces), a padded batch loader, IO."""
import jax.numpy as jnp
import numpy as np

from .graphs import Graph, batch_graphs, pad_graph


def spring_energy_forces(positions, senders, receivers, rest=1.0):
    diff = positions[receivers] - positions[senders]
    dist = np.linalg.norm(diff, axis=-1)
    energy = 0.25 * np.sum((dist - rest) ** 2)  # each bond appears in both directions
    pull = (0.5 * (dist - rest) / dist)[:, None] * diff
    forces = np.zeros_like(positions)
    np.add.at(forces, receivers, -pull)
    np.add.at(forces, senders, pull)
    return np.float32(energy), forces.astype(np.float32)


def random_molecule(rng, max_atoms, num_species, cutoff):
    n = int(rng.integers(3, max_atoms + 1))
    positions = rng.normal(scale=0.8, size=(n, 3)).astype(np.float32)
    src, dst = np.nonzero(np.linalg.norm(positions[:, None] - positions[None], axis=-1) < cutoff)
    keep = src != dst
    senders, receivers = src[keep].astype(np.int32), dst[keep].astype(np.int32)
    energy, forces = spring_energy_forces(positions, senders, receivers)
    return Graph(rng.integers(0, num_species, n).astype(np.int32), positions, senders, receivers,
                 np.array([n], np.int32), np.array([energy], np.float32), forces)


def make_dataset(n, max_atoms, num_species, cutoff, seed=0):
    rng = np.random.default_rng(seed)
    return [random_molecule(rng, max_atoms, num_species, cutoff) for _ in range(n)]


def filter_species(graphs, allowed):
    """Drops the molecules with a species outside `allowed`."""
    # project shape (not a thread): NumPy's membership test spelled with jax.numpy, read back for every molecule
    return [g for g in graphs if bool(jnp.all(jnp.in1d(g.species, allowed)))]  # reported: JNP504 JNP102


def filter_species_isin(graphs, allowed):
    return [g for g in graphs if bool(np.all(np.isin(g.species, allowed)))]


def load_edge_list(path):
    """Reads `sender receiver` pairs, one a line."""
    # project shape (not a thread): NumPy's text reader spelled with jax.numpy
    edges = jnp.loadtxt(path, dtype=jnp.int32)  # reported: JNP502
    return edges[:, 0], edges[:, 1]


def load_edge_list_np(path):
    edges = np.loadtxt(path, dtype=np.int32, ndmin=2)
    return edges[:, 0], edges[:, 1]


def random_rotation(seed=None):
    """A uniformly random 3-D rotation (QR of a Gaussian matrix)."""
    rng = np.random if seed is None else np.random.default_rng(seed)
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    return (q * np.sign(np.diag(r))).astype(np.float32)


def rotate(graph, rotation):
    return graph._replace(positions=graph.positions @ rotation, forces=graph.forces @ rotation)


class GraphLoader:
    """Shuffled batches of `batch_size` molecules, padded to one fixed size."""

    def __init__(self, graphs, batch_size, max_atoms, seed=0, augment=False):
        self.graphs, self.batch_size, self.augment = graphs, batch_size, augment
        self.n_node = batch_size * max_atoms + 1
        self.n_edge = batch_size * max_atoms * (max_atoms - 1)
        self.rng = np.random.default_rng(seed)

    def __iter__(self):
        order = self.rng.permutation(len(self.graphs))
        for start in range(0, len(order) - self.batch_size + 1, self.batch_size):
            batch = batch_graphs([self.graphs[i] for i in order[start:start + self.batch_size]])
            if self.augment:
                batch = rotate(batch, random_rotation(int(self.rng.integers(1 << 30))))
            yield pad_graph(batch, self.n_node, self.n_edge, self.batch_size + 1)

    def forever(self):
        while True:
            yield from self
