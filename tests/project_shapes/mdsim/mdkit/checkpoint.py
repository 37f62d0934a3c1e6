"""`.npz` checkpoints of a simulation state or of fitted parameters."""
import os

import jax
import jax.numpy as jnp
import numpy as np


def state_to_host(state):
    """The state's arrays as NumPy arrays (a key is stored as its raw data)."""
    # project shape (not a thread): the tree leaves under their old top-level name
    leaves = jax.tree_leaves(state)  # reported: JNP504
    return [np.asarray(jax.random.key_data(x)) if jnp.issubdtype(x.dtype, jax.dtypes.prng_key) else np.asarray(x)
            for x in leaves]


def state_to_host_ok(state):
    leaves = jax.tree_util.tree_leaves(state)
    return [np.asarray(jax.random.key_data(x)) if jnp.issubdtype(x.dtype, jax.dtypes.prng_key) else np.asarray(x)
            for x in leaves]


def save(path, state, to_host=state_to_host_ok):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    np.savez(path, *to_host(state))


def load(path):
    with np.load(path) as data:
        leaves = [jnp.asarray(data[f"arr_{i}"]) for i in range(len(data.files))]
    R, V, F = leaves[:3]
    return (R, V, F) + tuple(jax.random.wrap_key_data(k) for k in leaves[3:])
