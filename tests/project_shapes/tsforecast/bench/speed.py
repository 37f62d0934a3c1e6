"""How far the parameters move per SGD step: `python bench/speed.py`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from tsflow import TrainConfig, load, sgd_step  # noqa: E402
from tsflow.models import mlp  # noqa: E402

CFG = TrainConfig()


def setup():
    sizes = (CFG.model.window, CFG.model.hidden, CFG.model.horizon)
    params = mlp.init_params_split(jax.random.key(0), sizes)
    data = load(CFG)
    return params, jax.device_put((data.x[:32], data.y[:32]))


def norm(tree):
    return jnp.sqrt(sum(jnp.sum(leaf ** 2) for leaf in jax.tree_util.tree_leaves(tree)))


# project shape (not a thread): sgd_step donates its parameters, which are read after the call
def case_step_size_from_donated_params():
    params, (x, y) = setup()
    new_params, loss = sgd_step(params, x, y, CFG.learning_rate)
    delta = jax.tree_util.tree_map(lambda new, old: new - old, new_params, params)  # reported: JNP605
    return norm(delta), loss


def case_ok_step_size_from_a_copy():
    params, (x, y) = setup()
    before = jax.tree_util.tree_map(jnp.copy, params)
    new_params, loss = sgd_step(params, x, y, CFG.learning_rate)
    delta = jax.tree_util.tree_map(lambda new, old: new - old, new_params, before)
    return norm(delta), loss


if __name__ == "__main__":
    print(case_ok_step_size_from_a_copy())
