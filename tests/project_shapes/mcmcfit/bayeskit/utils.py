"""Helpers for chains: stacking states, and positions in and out of flat vectors."""
import jax
import jax.numpy as jnp


def stack_chains(states):
    """One state whose leaves have a leading chain axis."""
    # project shape (not a thread): jax.tree_map, removed in JAX 0.6 for jax.tree.map
    return jax.tree_map(lambda *leaves: jnp.stack(leaves), *states)  # reported: JNP504


def stack_chains_ok(states):
    return jax.tree.map(lambda *leaves: jnp.stack(leaves), *states)


def count_params(position):
    return sum(leaf.size for leaf in jax.tree.leaves(position))
