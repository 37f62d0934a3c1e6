"""Structural and dynamical observables: radial distribution, coordination, mean-square displacement."""
import jax
import jax.numpy as jnp
import numpy as np

from .space import pair_distances


def shell_volumes(edges):
    return 4.0 / 3.0 * jnp.pi * (edges[1:] ** 3 - edges[:-1] ** 3)


def rdf(R, box, n_bins=40, r_max=2.0):
    """g(r) from one configuration, over the pairs closer than r_max."""
    n = R.shape[0]
    r = pair_distances(R, box)[jnp.triu_indices(n, k=1)]
    # project shape (not a thread): only the pairs within r_max kept, a shape that depends on the positions
    r = r[r < r_max]  # reported: JNP203
    counts, edges = jnp.histogram(r, bins=n_bins, range=(0.0, r_max))
    return counts / (shell_volumes(edges) * n * (n - 1) / 2 / box ** 3), edges


def rdf_ok(R, box, n_bins=40, r_max=2.0):
    n = R.shape[0]
    r = pair_distances(R, box)[jnp.triu_indices(n, k=1)]
    counts, edges = jnp.histogram(r, bins=n_bins, range=(0.0, r_max))
    return counts / (shell_volumes(edges) * n * (n - 1) / 2 / box ** 3), edges


def nearest_neighbors(R, box, k=12):
    """The k nearest neighbours of every particle, stably sorted by distance."""
    r = pair_distances(R, box)
    # project shape (not a thread): NumPy's sort kind asked of JAX's argsort
    return jnp.argsort(r, axis=1, kind="stable")[:, 1:k + 1]  # reported: JNP503


def nearest_neighbors_ok(R, box, k=12):
    return jnp.argsort(pair_distances(R, box), axis=1, stable=True)[:, 1:k + 1]


def coordination(g, edges, density, r_min=1.5):
    """The number of neighbours within r_min, integrated from g(r)."""
    centres = 0.5 * (edges[1:] + edges[:-1])
    inside = centres < r_min
    # project shape (not a thread): the trapezoid rule under its old jax.numpy name
    return jnp.trapz(jnp.where(inside, 4.0 * jnp.pi * centres ** 2 * density * g, 0.0), centres)  # reported: JNP504


def coordination_ok(g, edges, density, r_min=1.5):
    centres = 0.5 * (edges[1:] + edges[:-1])
    integrand = jnp.where(centres < r_min, 4.0 * jnp.pi * centres ** 2 * density * g, 0.0)
    return jax.scipy.integrate.trapezoid(integrand, centres)


def msd(frames, reference):
    """Mean-square displacement of unwrapped frames (stored compactly) from the reference positions."""
    # project shape (not a thread): float16 frames minus float32 positions, promoted without a cast
    return jnp.mean(jnp.sum((frames - reference) ** 2, axis=-1), axis=-1)  # reported: JNP401


def msd_ok(frames, reference):
    return jnp.mean(jnp.sum((frames.astype(jnp.float32) - reference) ** 2, axis=-1), axis=-1)


def drift(energies):
    """Relative energy drift over a run, from the per-chunk energies the simulator logged."""
    e = np.asarray(energies)
    return float((e[-1] - e[0]) / abs(e[0]))
