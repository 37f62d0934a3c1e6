"""Fifteenth round, held out: a pairwise Coulomb energy that masks the self-pairs with where after
dividing by every distance, the zero ones included, so the forces are nan (JNP604)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/3407
# The energy drops the diagonal with where(keep_mask, q / dij, 0), but the division and the square
# root are still differentiated at the zero self-distances, and the gradient turned nan after the
# JAX release that made where's gradient exact.
def coulomb_energy(positions, charges):
    diff = positions[None, :, :] - positions[:, None, :]
    dij = jnp.sqrt(jnp.sum(diff**2, axis=-1))
    qij = charges[None, :] * charges[:, None]
    keep_mask = 1 - jnp.eye(positions.shape[0])
    eij = jnp.where(keep_mask, qij / dij, 0.0)  # reported: JNP604
    return 0.5 * jnp.sum(eij)


def case_self_pairs_masked_after_dividing():
    positions = jnp.array([[1.0, 2.0, 3.0], [0.2, 4.0, 6.0], [2.0, 0.0, 1.0]])
    return jax.grad(coulomb_energy)(positions, jnp.array([1.0, -1.0, 0.5]))


def coulomb_energy_safe(positions, charges):
    diff = positions[None, :, :] - positions[:, None, :]
    keep_mask = 1 - jnp.eye(positions.shape[0])
    d2 = jnp.where(keep_mask, jnp.sum(diff**2, axis=-1), 1.0)
    dij = jnp.sqrt(d2)
    qij = charges[None, :] * charges[:, None]
    eij = jnp.where(keep_mask, qij / dij, 0.0)
    return 0.5 * jnp.sum(eij)


def case_ok_self_pairs_guarded_before_dividing():
    positions = jnp.array([[1.0, 2.0, 3.0], [0.2, 4.0, 6.0], [2.0, 0.0, 1.0]])
    return jax.grad(coulomb_energy_safe)(positions, jnp.array([1.0, -1.0, 0.5]))
