"""Parameters saved as flat .npz files."""
import jax
import numpy as np


def save(path, params, step):
    leaves, _ = jax.tree_util.tree_flatten(params)
    np.savez(path, step=step, **{f"leaf_{i}": np.asarray(leaf) for i, leaf in enumerate(leaves)})


def load(path, like):
    data = np.load(path)
    _, treedef = jax.tree_util.tree_flatten(like)
    n = len(jax.tree_util.tree_leaves(like))
    return jax.tree_util.tree_unflatten(treedef, [data[f"leaf_{i}"] for i in range(n)]), int(data["step"])
