"""Checkpoints as .npz files of the flattened parameter list."""
import os

import jax
import jax.numpy as jnp
import numpy as np


def save(path, params, step):
    leaves, _ = jax.tree_util.tree_flatten(params)
    np.savez(os.path.join(path, f"ckpt_{step:06d}.npz"), *[np.asarray(leaf) for leaf in leaves])


def checkpoints(path):
    return sorted(os.path.join(path, name) for name in os.listdir(path) if name.startswith("ckpt_"))


def load(file, template):
    with np.load(file) as data:
        leaves = [jnp.asarray(data[f"arr_{i}"]) for i in range(len(data.files))]
    return jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(template), leaves)


def widen_input(params, old_params):
    """Start a model with extra input features from one trained on fewer (the rest stay random)."""
    first = params[0]["w"]
    old = old_params[0]["w"]
    # project shape (not a thread): NumPy-style assignment into the new model's weight matrix
    first[: old.shape[0]] = old  # reported: JNP501
    return [{"w": first, "b": old_params[0]["b"]}] + old_params[1:]


def widen_input_at(params, old_params):
    old = old_params[0]["w"]
    first = params[0]["w"].at[: old.shape[0]].set(old)
    return [{"w": first, "b": old_params[0]["b"]}] + old_params[1:]


def average(files, template):
    """Weight averaging of the last checkpoints."""
    trees = [load(file, template) for file in files]
    # project shape (not a thread): jax.tree_map, removed from JAX
    return jax.tree_map(lambda *leaves: sum(leaves) / len(leaves), *trees)  # reported: JNP504


def average_tree_util(files, template):
    trees = [load(file, template) for file in files]
    return jax.tree_util.tree_map(lambda *leaves: sum(leaves) / len(leaves), *trees)
