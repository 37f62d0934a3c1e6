"""Fourteenth round, held out: a Stillinger-Weber radial term whose exp(1 / (r / sigma - a)) is
dropped past the cutoff by jnp.where but overflows just beyond it, and a Lennard-Jones energy whose
self-pairs are masked out after sigma / r already divided by their zero distance; both give nan
gradients (JNP604)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-md/jax-md/issues/273
# The user asked why the radial interaction needs r = where(within_cutoff, r, 0) before the
# exponential: without it, a pair just past the cutoff overflows the exp in the branch the where
# drops, and the force (the gradient) is nan.
def sw_radial_interaction(r, sigma=2.0951, b=0.6022245584, p=4, cutoff=1.8 * 2.0951):
    a = cutoff / sigma
    term1 = b * (r / sigma) ** (-p) - 1.0
    within_cutoff = (r > 0) & (r < cutoff)
    term2 = jnp.exp(1 / (r / sigma - a))
    return jnp.where(within_cutoff, term1 * term2, 0.0)  # reported: JNP604


def case_radial_term_overflowing_past_the_cutoff():
    pair_distances = jnp.array([2.2, 2.8, 3.5, 3.772, 4.5])
    return jax.grad(lambda r: jnp.sum(sw_radial_interaction(r)))(pair_distances)


def sw_radial_interaction_guarded(r, sigma=2.0951, b=0.6022245584, p=4, cutoff=1.8 * 2.0951):
    a = cutoff / sigma
    term1 = b * (r / sigma) ** (-p) - 1.0
    within_cutoff = (r > 0) & (r < cutoff)
    r = jnp.where(within_cutoff, r, 0)
    term2 = jnp.exp(1 / (r / sigma - a))
    return jnp.where(within_cutoff, term1 * term2, 0.0)


def case_ok_radial_term_with_the_distance_guarded():
    pair_distances = jnp.array([2.2, 2.8, 3.5, 3.772, 4.5])
    return jax.grad(lambda r: jnp.sum(sw_radial_interaction_guarded(r)))(pair_distances)


# https://github.com/jax-md/jax-md/issues/258
# Differentiating the Lennard-Jones forces with respect to sigma gave nan: the pair term divides
# sigma by every distance, the zero ones of the self-pairs included, before the mask drops them.
def lennard_jones_energy(positions, sigma, epsilon=1.0):
    dr = jnp.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
    idr6 = (sigma / dr) ** 6
    pair_energy = 4.0 * epsilon * (idr6**2 - idr6)
    self_pair = jnp.eye(positions.shape[0], dtype=bool)
    return 0.5 * jnp.sum(jnp.where(self_pair, 0.0, pair_energy))  # reported: JNP604


def case_sigma_gradient_through_the_masked_self_pairs():
    positions = jnp.array([[1.0, 2.0, 3.0], [2.0, 3.0, 5.0], [0.0, 1.0, 1.5]])
    return jax.grad(lennard_jones_energy, argnums=1)(positions, 2.0)


def lennard_jones_energy_safe(positions, sigma, epsilon=1.0):
    self_pair = jnp.eye(positions.shape[0], dtype=bool)
    dr = jnp.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
    dr = jnp.where(self_pair, 1.0, dr)
    idr6 = (sigma / dr) ** 6
    pair_energy = 4.0 * epsilon * (idr6**2 - idr6)
    return 0.5 * jnp.sum(jnp.where(self_pair, 0.0, pair_energy))


def case_ok_sigma_gradient_with_the_self_distance_replaced():
    positions = jnp.array([[1.0, 2.0, 3.0], [2.0, 3.0, 5.0], [0.0, 1.0, 1.5]])
    return jax.grad(lennard_jones_energy_safe, argnums=1)(positions, 2.0)
