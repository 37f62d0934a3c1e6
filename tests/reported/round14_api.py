"""Fourteenth round, held out: a module-update helper and a replay buffer's add that map over their
pytrees with jax.tree_map (removed in JAX 0.6.0), and a global gradient norm that hands jnp.sum a
Python list of per-leaf sums (JNP504, JNP505)."""
import jax
import jax.numpy as jnp


# https://github.com/patrick-kidger/equinox/pull/724
# apply_updates still used jax.tree_map, deprecated in JAX 0.4.26 and removed in 0.6.0; the PR
# switched the stragglers to jax.tree_util.tree_map.
def apply_updates(model, updates):
    def _apply_update(u, p):
        return p if u is None else p + u

    def _is_none(x):
        return x is None

    return jax.tree_map(_apply_update, updates, model, is_leaf=_is_none)  # reported: JNP504


def case_updates_applied_with_jax_tree_map():
    model = {"weight": jnp.ones((2, 2)), "bias": jnp.zeros(2)}
    updates = {"weight": -0.1 * jnp.ones((2, 2)), "bias": None}
    return apply_updates(model, updates)


def apply_updates_tree_util(model, updates):
    def _apply_update(u, p):
        return p if u is None else p + u

    def _is_none(x):
        return x is None

    return jax.tree_util.tree_map(_apply_update, updates, model, is_leaf=_is_none)


def case_ok_updates_applied_with_tree_util():
    model = {"weight": jnp.ones((2, 2)), "bias": jnp.zeros(2)}
    updates = {"weight": -0.1 * jnp.ones((2, 2)), "bias": None}
    return apply_updates_tree_util(model, updates)


# https://github.com/jax-ml/jax/pull/4163
# The global norm summed a list of the leaves' squared norms with jnp.sum, which JAX refuses once
# reductions stopped accepting lists (the forward fix calls sum on an array instead).
def global_norm(updates):
    return jnp.sqrt(jnp.sum([jnp.sum(x**2) for x in jax.tree_util.tree_leaves(updates)]))  # reported: JNP505


def clip_by_global_norm(updates, max_norm):
    norm = global_norm(updates)
    scale = jnp.minimum(1.0, max_norm / (norm + 1e-6))
    return jax.tree_util.tree_map(lambda g: g * scale, updates)


def case_global_norm_sums_a_list():
    grads = {"w": jnp.full((3, 3), 2.0), "b": jnp.ones(3)}
    return clip_by_global_norm(grads, 1.0)


def global_norm_stacked(updates):
    return jnp.sqrt(jnp.sum(jnp.stack([jnp.sum(x**2) for x in jax.tree_util.tree_leaves(updates)])))


def case_ok_global_norm_sums_a_stacked_array():
    grads = {"w": jnp.full((3, 3), 2.0), "b": jnp.ones(3)}
    norm = global_norm_stacked(grads)
    return jax.tree_util.tree_map(lambda g: g * jnp.minimum(1.0, 1.0 / (norm + 1e-6)), grads)


# https://github.com/instadeepai/flashbax/pull/38
# The buffer writes a batch of transitions into its storage with jax.tree_map, deprecated since
# JAX 0.4.26 (and removed in 0.6.0); the PR moved it to jax.tree.map.
def buffer_add(experience, batch, current_index):
    batch_size = jax.tree_util.tree_leaves(batch)[0].shape[0]
    indices = (current_index + jnp.arange(batch_size)) % jax.tree_util.tree_leaves(experience)[0].shape[0]
    experience = jax.tree_map(lambda x, t: x.at[indices].set(t), experience, batch)  # reported: JNP504
    return experience, (current_index + batch_size) % jax.tree_util.tree_leaves(experience)[0].shape[0]


def case_buffer_writes_with_jax_tree_map():
    experience = {"obs": jnp.zeros((8, 2)), "reward": jnp.zeros(8)}
    batch = {"obs": jnp.ones((3, 2)), "reward": jnp.ones(3)}
    return buffer_add(experience, batch, jnp.asarray(6))


def buffer_add_tree(experience, batch, current_index):
    batch_size = jax.tree.leaves(batch)[0].shape[0]
    indices = (current_index + jnp.arange(batch_size)) % jax.tree.leaves(experience)[0].shape[0]
    experience = jax.tree.map(lambda x, t: x.at[indices].set(t), experience, batch)
    return experience, (current_index + batch_size) % jax.tree.leaves(experience)[0].shape[0]


def case_ok_buffer_writes_with_jax_tree_dot_map():
    experience = {"obs": jnp.zeros((8, 2)), "reward": jnp.zeros(8)}
    batch = {"obs": jnp.ones((3, 2)), "reward": jnp.ones(3)}
    return buffer_add_tree(experience, batch, jnp.asarray(6))
