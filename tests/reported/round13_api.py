"""Thirteenth round, held out: an HMC leapfrog step written with jax.tree_multimap (removed in JAX
0.3.16), a PPO minibatch selected with jax.tree_map (removed in JAX 0.6.0), and a grid builder
moved from NumPy to jax.numpy that still writes into its array by index (JNP504, JNP501)."""
import jax
import jax.numpy as jnp
import numpy as np


def kinetic_energy(momentum):
    return 0.5 * sum(jnp.sum(p**2) for p in jax.tree_util.tree_leaves(momentum))


# https://github.com/blackjax-devs/blackjax/pull/256
# The integrator's half steps on the momentum and the full step on the position map over the
# position pytree with jax.tree_multimap, an alias of tree_map that JAX deprecated and removed.
def velocity_verlet(logdensity_fn, step_size):
    logdensity_grad_fn = jax.grad(logdensity_fn)
    kinetic_grad_fn = jax.grad(kinetic_energy)

    def half_step(momentum, logdensity_grad):
        return jax.tree_multimap(  # reported: JNP504
            lambda m, g: m + 0.5 * step_size * g, momentum, logdensity_grad
        )

    def one_step(position, momentum):
        momentum = half_step(momentum, logdensity_grad_fn(position))
        kinetic_grad = kinetic_grad_fn(momentum)
        position = jax.tree_util.tree_map(lambda x, k: x + step_size * k, position, kinetic_grad)
        momentum = half_step(momentum, logdensity_grad_fn(position))
        return position, momentum

    return one_step


def gaussian_logdensity(position):
    return -0.5 * sum(jnp.sum(x**2) for x in jax.tree_util.tree_leaves(position))


def case_leapfrog_with_tree_multimap():
    step = velocity_verlet(gaussian_logdensity, 0.1)
    position = {"loc": jnp.ones(3), "scale": jnp.zeros(2)}
    momentum = {"loc": jnp.full(3, 0.5), "scale": jnp.ones(2)}
    return step(position, momentum)


def velocity_verlet_tree_map(logdensity_fn, step_size):
    logdensity_grad_fn = jax.grad(logdensity_fn)
    kinetic_grad_fn = jax.grad(kinetic_energy)

    def half_step(momentum, logdensity_grad):
        return jax.tree_util.tree_map(
            lambda m, g: m + 0.5 * step_size * g, momentum, logdensity_grad
        )

    def one_step(position, momentum):
        momentum = half_step(momentum, logdensity_grad_fn(position))
        kinetic_grad = kinetic_grad_fn(momentum)
        position = jax.tree_util.tree_map(lambda x, k: x + step_size * k, position, kinetic_grad)
        momentum = half_step(momentum, logdensity_grad_fn(position))
        return position, momentum

    return one_step


def case_ok_leapfrog_with_tree_util_tree_map():
    step = velocity_verlet_tree_map(gaussian_logdensity, 0.1)
    position = {"loc": jnp.ones(3), "scale": jnp.zeros(2)}
    momentum = {"loc": jnp.full(3, 0.5), "scale": jnp.ones(2)}
    return step(position, momentum)


# https://github.com/leggedrobotics/terra-baselines/issues/4
# The PPO update shuffles the rollout and cuts it into minibatches with jax.tree_map, deprecated
# since JAX 0.4.26 and removed in 0.6.0.
def minibatches(rng, rollout, num_minibatches):
    size = rollout["obs"].shape[0]
    permutation = jax.random.permutation(rng, size)
    shuffled = jax.tree_map(lambda x: x[permutation], rollout)  # reported: JNP504
    return [
        jax.tree_util.tree_map(lambda x: x[i::num_minibatches], shuffled)
        for i in range(num_minibatches)
    ]


def case_minibatches_with_jax_tree_map():
    rollout = {"obs": jnp.arange(16.0).reshape(8, 2), "reward": jnp.arange(8.0)}
    return minibatches(jax.random.PRNGKey(0), rollout, 2)


def minibatches_tree(rng, rollout, num_minibatches):
    size = rollout["obs"].shape[0]
    permutation = jax.random.permutation(rng, size)
    shuffled = jax.tree.map(lambda x: x[permutation], rollout)
    return [jax.tree.map(lambda x: x[i::num_minibatches], shuffled) for i in range(num_minibatches)]


def case_ok_minibatches_with_jax_tree_dot_map():
    rollout = {"obs": jnp.arange(16.0).reshape(8, 2), "reward": jnp.arange(8.0)}
    return minibatches_tree(jax.random.PRNGKey(0), rollout, 2)


# https://github.com/PyAutoLabs/PyAutoArray/pull/127
# Swapping numpy for jax.numpy in the grid utilities made the slim grid a JAX array, but the loop
# over the unmasked pixels still fills it by item assignment, which JAX arrays do not support.
def grid_2d_slim_via_mask_from(mask_2d, pixel_scales, origin=(0.0, 0.0)):
    total_pixels = int(np.sum(~mask_2d))
    grid_slim = jnp.zeros((total_pixels, 2))
    centres_scaled = ((mask_2d.shape[0] - 1) / 2 - origin[0], (mask_2d.shape[1] - 1) / 2 + origin[1])
    index = 0
    for y in range(mask_2d.shape[0]):
        for x in range(mask_2d.shape[1]):
            if not mask_2d[y, x]:
                grid_slim[index, 0] = -(y - centres_scaled[0]) * pixel_scales[0]  # reported: JNP501
                grid_slim[index, 1] = (x - centres_scaled[1]) * pixel_scales[1]  # reported: JNP501
                index += 1
    return grid_slim


def case_grid_filled_by_item_assignment():
    mask = np.array([[True, False, True], [False, False, False], [True, False, True]])
    return grid_2d_slim_via_mask_from(mask, (0.5, 0.5))


def grid_2d_slim_via_mask_at(mask_2d, pixel_scales, origin=(0.0, 0.0)):
    total_pixels = int(np.sum(~mask_2d))
    grid_slim = jnp.zeros((total_pixels, 2))
    centres_scaled = ((mask_2d.shape[0] - 1) / 2 - origin[0], (mask_2d.shape[1] - 1) / 2 + origin[1])
    index = 0
    for y in range(mask_2d.shape[0]):
        for x in range(mask_2d.shape[1]):
            if not mask_2d[y, x]:
                grid_slim = grid_slim.at[index, 0].set(-(y - centres_scaled[0]) * pixel_scales[0])
                grid_slim = grid_slim.at[index, 1].set((x - centres_scaled[1]) * pixel_scales[1])
                index += 1
    return grid_slim


def case_ok_grid_filled_with_at_set():
    mask = np.array([[True, False, True], [False, False, False], [True, False, True]])
    return grid_2d_slim_via_mask_at(mask, (0.5, 0.5))
