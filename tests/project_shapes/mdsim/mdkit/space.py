"""Periodic boundary conditions: displacements under the minimum image, pair distances, wrapping."""
import jax.numpy as jnp


def displacement(Ra, Rb, box):
    dR = Ra - Rb
    return dR - box * jnp.round(dR / box)


def pair_displacements(R, box):
    return displacement(R[:, None, :], R[None, :, :], box)


def pair_distances(R, box):
    return jnp.sqrt(jnp.sum(pair_displacements(R, box) ** 2, axis=-1))


def safe_distances(R, box):
    """Pair distances with the diagonal set to one (so that their gradient stays finite), and the off-diagonal mask."""
    d2 = jnp.sum(pair_displacements(R, box) ** 2, axis=-1)
    off = ~jnp.eye(R.shape[0], dtype=bool)
    return jnp.sqrt(jnp.where(off, d2, 1.0)), off


def wrap(R, box):
    """Puts the particles back in the box, as the NumPy prototype did."""
    # project shape (not a thread): an in-place update of the JAX positions
    R[:] = R % box  # reported: JNP501
    return R


def wrap_ok(R, box):
    return jnp.mod(R, box)
