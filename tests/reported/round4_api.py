"""Fourth round, held out: removed JAX names and NumPy habits jax.numpy refuses
(JNP503, JNP504, JNP505)."""
import dataclasses
import functools
from functools import partial

import jax
import jax.numpy as jnp
import numpy as onp


# https://github.com/delalamo/af2_conformations/issues/15
# A stateful helper marks which parameters changed between two trees with jax.tree_multimap.
def changed_params(before, after):
    def if_changed(is_new, a, b):
        return b if is_new(a, b) else None

    is_new = lambda a, b: a is not b  # noqa: E731
    return jax.tree_multimap(partial(if_changed, is_new), before, after)  # reported: JNP504


def case_tree_multimap_between_param_trees():
    before = {"w": jnp.zeros(2)}
    return changed_params(before, {"w": jnp.ones(2)})


def changed_params_tree_map(before, after):
    def if_changed(is_new, a, b):
        return b if is_new(a, b) else None

    is_new = lambda a, b: a is not b  # noqa: E731
    return jax.tree.map(partial(if_changed, is_new), before, after)


def case_ok_tree_dot_map_between_param_trees():
    before = {"w": jnp.zeros(2)}
    return changed_params_tree_map(before, {"w": jnp.ones(2)})


# https://github.com/google-research/perceiver-ar/pull/15
# Averaging gradients across two microbatches with jax.tree_multimap.
def case_tree_multimap_mean_of_grads():
    g1 = {"w": jnp.ones(3)}
    g2 = {"w": jnp.zeros(3)}
    return jax.tree_multimap(lambda a, b: (a + b) / 2, g1, g2)  # reported: JNP504


def case_ok_tree_util_mean_of_grads():
    g1 = {"w": jnp.ones(3)}
    g2 = {"w": jnp.zeros(3)}
    return jax.tree_util.tree_map(lambda a, b: (a + b) / 2, g1, g2)


# https://github.com/lindermanlab/ssm-jax/issues/37
# Comparing two pytrees leaf by leaf through jax.tree_util.tree_multimap.
def tree_all_equal(tree1, tree2):
    equal = jax.tree_util.tree_multimap(jnp.allclose, tree1, tree2)  # reported: JNP504
    return all(jax.tree_util.tree_leaves(equal))


def case_tree_util_tree_multimap_comparison():
    return tree_all_equal({"a": jnp.ones(2)}, {"a": jnp.ones(2)})


def tree_all_equal_map(tree1, tree2):
    equal = jax.tree_util.tree_map(jnp.allclose, tree1, tree2)
    return all(jax.tree_util.tree_leaves(equal))


def case_ok_tree_util_tree_map_comparison():
    return tree_all_equal_map({"a": jnp.ones(2)}, {"a": jnp.ones(2)})


# https://github.com/ericjang/maml-jax/pull/3
# The inner MAML step subtracts scaled gradients with tree_util.tree_multimap.
def inner_update(params, grads, alpha=0.1):
    return jax.tree_util.tree_multimap(lambda p, g: p - alpha * g, params, grads)  # reported: JNP504


def case_maml_inner_update_multimap():
    return inner_update([jnp.ones(2)], [jnp.ones(2)])


def inner_update_map(params, grads, alpha=0.1):
    return jax.tree_util.tree_map(lambda p, g: p - alpha * g, params, grads)


def case_ok_maml_inner_update_map():
    return inner_update_map([jnp.ones(2)], [jnp.ones(2)])


# https://github.com/google-deepmind/alphafold/pull/630
# Flattening a feature tree through the top-level jax.tree_flatten alias.
def case_top_level_tree_flatten():
    leaves, treedef = jax.tree_flatten({"msa": jnp.ones(2), "aatype": jnp.zeros(2)})  # reported: JNP504
    return leaves, treedef


def case_ok_tree_util_tree_flatten():
    leaves, treedef = jax.tree_util.tree_flatten({"msa": jnp.ones(2), "aatype": jnp.zeros(2)})
    return leaves, treedef


# https://github.com/jax-ml/jax/issues/12160
# A normalizing-flow notebook importing stax and optimizers from jax.experimental.
def case_stax_and_optimizers_from_experimental():
    from jax.experimental import optimizers, stax  # reported: JNP504
    return stax, optimizers


def case_ok_stax_and_optimizers_from_example_libraries():
    from jax.example_libraries import optimizers, stax
    return stax, optimizers


# https://github.com/google-research/cryptanalytic-model-extraction/issues/4
# Importing the old optimizers module by its dotted path.
def case_import_experimental_optimizers_module():
    import jax.experimental.optimizers as optimizers  # reported: JNP504
    return optimizers.sgd(0.1)


def case_ok_import_example_libraries_optimizers():
    import jax.example_libraries.optimizers as optimizers
    return optimizers.sgd(0.1)


# https://github.com/Farama-Foundation/Gymnasium/issues/701
# A single-dispatch converter registered for jnp.DeviceArray.
@functools.singledispatch
def to_numpy(value):
    return value


def case_singledispatch_register_device_array():
    return to_numpy.register(jnp.DeviceArray)(lambda value: onp.asarray(value))  # reported: JNP504


def case_ok_singledispatch_register_jax_array():
    return to_numpy.register(jax.Array)(lambda value: onp.asarray(value))


# https://github.com/luchris429/popjaxrl/issues/1
# A field annotated with DeviceArray through `import jax.numpy as np`.
def case_field_annotated_device_array_through_np_alias():
    import jax.numpy as np

    @dataclasses.dataclass
    class SSMInit:
        lambda_re_init: np.DeviceArray  # reported: JNP504
        step: float = 0.1

    return SSMInit(np.ones(2))


def case_ok_field_annotated_jax_array():
    @dataclasses.dataclass
    class SSMInit:
        lambda_re_init: jax.Array
        step: float = 0.1

    return SSMInit(jnp.ones(2))


# https://github.com/jax-ml/jax/issues/16902
# Importing DeviceArray from jax.numpy for type checks.
def case_import_device_array_from_jax_numpy():
    from jax.numpy import DeviceArray  # reported: JNP504
    return isinstance(jnp.ones(2), DeviceArray)


def case_ok_isinstance_jax_array():
    return isinstance(jnp.ones(2), jax.Array)


# https://github.com/jax-ml/jax/issues/1013
# Concatenating Python lists with jnp.concatenate, as NumPy allows.
def case_concatenate_python_lists():
    return jnp.concatenate([[], [1]], 0)  # reported: JNP505


def case_ok_concatenate_arrays():
    return jnp.concatenate([jnp.zeros(0), jnp.array([1.0])], 0)


# https://github.com/jax-ml/jax/issues/14904
# Writing the index of the largest entry into a preallocated output.
def case_argmax_with_out():
    out = onp.zeros((), dtype=int)
    return jnp.argmax(jnp.arange(3.0), out=out)  # reported: JNP503


def case_ok_argmax_returned():
    return jnp.argmax(jnp.arange(3.0))


# https://github.com/jax-ml/jax/issues/9119
# An in-place logical_and through out=, as the forwarded NumPy docstring suggested.
def case_logical_and_with_out():
    arr = jnp.array([False, True, True, False])
    return jnp.logical_and(arr, arr, out=arr)  # reported: JNP503


def case_ok_logical_and_rebound():
    arr = jnp.array([False, True, True, False])
    arr = jnp.logical_and(arr, arr)
    return arr
