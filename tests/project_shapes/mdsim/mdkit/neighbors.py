"""Neighbour lists: the pairs within a cutoff, as index arrays."""
import jax.numpy as jnp

from .space import displacement, pair_distances


def neighbor_pairs(R, box, cutoff):
    """The index pairs i < j closer than the cutoff."""
    close = jnp.triu(pair_distances(R, box) < cutoff, k=1)
    # project shape (not a thread): as many pairs as are close, a shape that depends on the positions
    return jnp.nonzero(close)  # reported: JNP203


def neighbor_pairs_ok(R, box, cutoff, capacity):
    """At most `capacity` pairs, padded with index n; and whether the list overflowed."""
    n = R.shape[0]
    close = jnp.triu(pair_distances(R, box) < cutoff, k=1)
    i, j = jnp.nonzero(close, size=capacity, fill_value=n)
    return i, j, jnp.sum(close) > capacity


def checked_pairs(R, box, cutoff, capacity):
    i, j, overflow = neighbor_pairs_ok(R, box, cutoff, capacity)
    # project shape (not a thread): a Python test of the traced overflow flag, to fail early
    if overflow:  # reported: JNP202
        raise RuntimeError("neighbour list overflow; raise the capacity")
    return i, j


def pair_list_energy(pair, R, box, i, j, cutoff):
    """The energy summed over a padded pair list; the padding pairs get a distance of one."""
    n = R.shape[0]
    valid = i < n
    dR = displacement(R[jnp.minimum(i, n - 1)], R[jnp.minimum(j, n - 1)], box)
    d2 = jnp.where(valid, jnp.sum(dR ** 2, axis=-1), 1.0)
    r = jnp.sqrt(d2)
    return jnp.sum(jnp.where(valid & (r < cutoff), pair(r) - pair(cutoff), 0.0))
