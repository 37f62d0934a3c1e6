"""Checkpoints: the parameter leaves and the step saved to .npz, loaded back into a tree of the same shape."""
import jax
import jax.numpy as jnp
import numpy as np


def save(path, params, step):
    leaves = jax.tree.leaves(params)
    np.savez(path, step=step, **{f"leaf_{i}": np.asarray(leaf) for i, leaf in enumerate(leaves)})
    return path


def load(path, like):
    data = np.load(path)
    leaves, treedef = jax.tree.flatten(like)
    return jax.tree.unflatten(treedef, [data[f"leaf_{i}"] for i in range(len(leaves))]), int(data["step"])


def load_to_device(path, like):
    params, step = load(path, like)
    # project shape (not a thread): the tree helper of the JAX the project started with
    return jax.tree_map(jnp.asarray, params), step  # reported: JNP504


def load_to_device_ok(path, like):
    params, step = load(path, like)
    return jax.tree.map(jnp.asarray, params), step
