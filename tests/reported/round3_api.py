"""Third round, held out: removed JAX names and NumPy habits jax.numpy refuses
(JNP504, JNP505)."""
import jax
import jax.numpy as jnp
from jax import lax


# https://github.com/nissymori/mahjax/pull/64
# An example script that averages two parameter trees with jax.tree_map.
def case_tree_map_in_example_script():
    params = {"w": jnp.ones(2), "b": jnp.zeros(2)}
    target = {"w": jnp.zeros(2), "b": jnp.ones(2)}
    return jax.tree_map(lambda p, t: 0.5 * (p + t), params, target)  # reported: JNP504


def case_ok_tree_dot_map():
    params = {"w": jnp.ones(2), "b": jnp.zeros(2)}
    target = {"w": jnp.zeros(2), "b": jnp.ones(2)}
    return jax.tree.map(lambda p, t: 0.5 * (p + t), params, target)


# https://github.com/yang-song/score_sde/issues/22
# Combining two trees with jax.tree_multimap, long gone.
def case_tree_multimap():
    grads = [jnp.ones(2), jnp.ones(3)]
    params = [jnp.zeros(2), jnp.zeros(3)]
    return jax.tree_multimap(lambda p, g: p - 0.1 * g, params, grads)  # reported: JNP504


def case_ok_tree_util_tree_map():
    grads = [jnp.ones(2), jnp.ones(3)]
    params = [jnp.zeros(2), jnp.zeros(3)]
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)


# https://github.com/jax-ml/jax/issues/11706
# An indexed update through jax.ops.index_update inside lax.cond.
def case_index_update_in_cond():
    batch = jnp.zeros((4, 2))
    predicted = jnp.ones(2)
    t = 1
    return lax.cond(
        t < 3,
        lambda x: jax.ops.index_update(x, t + 1, predicted),  # reported: JNP504
        lambda x: x,
        batch,
    )


def case_ok_at_set_in_cond():
    batch = jnp.zeros((4, 2))
    predicted = jnp.ones(2)
    t = 1
    return lax.cond(t < 3, lambda x: x.at[t + 1].set(predicted), lambda x: x, batch)


# https://github.com/google-deepmind/alphafold/issues/558
# Adding the first row back with jax.ops.index_add.
def case_index_add():
    msa_activations = jnp.zeros((3, 4))
    prev_msa_first_row = jnp.ones(4)
    msa_activations = jax.ops.index_add(msa_activations, 0, prev_msa_first_row)  # reported: JNP504
    return msa_activations


def case_ok_at_add():
    msa_activations = jnp.zeros((3, 4))
    prev_msa_first_row = jnp.ones(4)
    msa_activations = msa_activations.at[0].add(prev_msa_first_row)
    return msa_activations


# https://github.com/hiddenSymmetries/simsopt/issues/447
# Enabling x64 through the old jax.config module.
def case_config_from_jax_config_module():
    from jax.config import config  # reported: JNP504
    return config


def case_ok_config_from_jax():
    from jax import config
    return config


# https://github.com/probml/probml-utils/issues/33
# The optimizers of jax.experimental, moved to jax.example_libraries.
def case_experimental_optimizers():
    from jax.experimental import optimizers  # reported: JNP504
    return optimizers.sgd(0.1)


def case_ok_example_libraries_optimizers():
    from jax.example_libraries import optimizers
    return optimizers.sgd(0.1)


# https://github.com/jaymody/picoGPT/issues/9
# Swapping numpy for jax.numpy in a generation loop: append refuses the Python list.
def case_append_python_list():
    np = jnp
    inputs = np.array([1, 2, 3])
    next_id = 7
    inputs = np.append(inputs, [next_id])  # reported: JNP505
    return inputs


def case_ok_append_array():
    np = jnp
    inputs = np.array([1, 2, 3])
    next_id = 7
    inputs = np.append(inputs, np.array([next_id]))
    return inputs


# https://github.com/naruya/VaxNeRF/issues/6
# The far distance of each ray broadcast from a one-element list.
def case_broadcast_to_from_list():
    z_vals = jnp.linspace(0.0, 1.0, 8).reshape(2, 4)
    return jnp.broadcast_to([1e10], z_vals[..., :1].shape)  # reported: JNP505


def case_ok_broadcast_to_from_scalar():
    z_vals = jnp.linspace(0.0, 1.0, 8).reshape(2, 4)
    return jnp.broadcast_to(1e10, z_vals[..., :1].shape)


# https://github.com/jax-ml/jax/issues/1363
# An elementwise function on a nested list.
def case_exp_of_nested_list():
    import jax.numpy as np
    return np.exp([[[1.], [2.]]])  # reported: JNP505


def case_ok_exp_of_array():
    import jax.numpy as np
    return np.exp(np.array([[[1.], [2.]]]))
