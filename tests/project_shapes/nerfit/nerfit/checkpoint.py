"""Parameters saved to and loaded from .npz files, and their count."""
import jax
import numpy as np
from flax import traverse_util


def save(path, params, step=0):
    flat = traverse_util.flatten_dict(jax.device_get(params), sep="/")
    np.savez(path, step=step, **flat)


def load(path):
    with np.load(path) as data:
        step = int(data["step"])
        flat = {name: data[name] for name in data.files if name != "step"}
    return traverse_util.unflatten_dict(flat, sep="/"), step


def count_params(params):
    # project shape (not a thread): the tree helper of the JAX the project started with
    return sum(leaf.size for leaf in jax.tree_leaves(params))  # reported: JNP504


def count_params_ok(params):
    return sum(leaf.size for leaf in jax.tree.leaves(params))
