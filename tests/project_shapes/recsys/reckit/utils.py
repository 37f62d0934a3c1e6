"""A key stream, a metric logger and .npz checkpoints of parameter trees."""
import jax
import numpy as np


class KeyStream:
    def __init__(self, seed):
        self.key = jax.random.key(seed)

    def next(self):
        self.key, sub = jax.random.split(self.key)
        return sub


class MetricLogger:
    def __init__(self):
        self.rows = []

    def log(self, step, **values):
        self.rows.append({"step": step, **{k: np.asarray(v).item() for k, v in jax.device_get(values).items()}})

    def last(self):
        return self.rows[-1] if self.rows else {}


def save_checkpoint(path, params):
    leaves, _ = jax.tree_util.tree_flatten_with_path(params)
    np.savez(path, **{jax.tree_util.keystr(p): np.asarray(leaf) for p, leaf in leaves})


def load_checkpoint(path, like):
    with np.load(path) as data:
        leaves, treedef = jax.tree_util.tree_flatten_with_path(like)
        return jax.tree_util.tree_unflatten(treedef, [data[jax.tree_util.keystr(p)] for p, _ in leaves])
