"""Twelfth round, held out: jax.ops.index_update, removed in JAX 0.3.2, in a loss differentiated
with jax.grad and in the mask builder of a MADE flow layer, and a cross-section table written
through a boolean mask after jnp.interp made it a JAX array (JNP504, JNP501)."""
import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/issues/1901
# The loss writes each prediction into a preallocated buffer with jax.ops.index_update and the
# user differentiates it with jax.grad; the function is gone from jax.ops since 0.3.2.
def rollout_loss(w, xs, target):
    preds = jnp.zeros(xs.shape[0])
    for i in range(xs.shape[0]):
        preds = jax.ops.index_update(preds, i, jnp.tanh(w * xs[i]))  # reported: JNP504
    return jnp.sum((preds - target) ** 2)


def case_buffer_filled_with_index_update_under_grad():
    return jax.grad(rollout_loss)(0.5, jnp.arange(4.0), jnp.ones(4))


def rollout_loss_at(w, xs, target):
    preds = jnp.zeros(xs.shape[0])
    for i in range(xs.shape[0]):
        preds = preds.at[i].set(jnp.tanh(w * xs[i]))
    return jnp.sum((preds - target) ** 2)


def case_ok_buffer_filled_with_at_set():
    return jax.grad(rollout_loss_at)(0.5, jnp.arange(4.0), jnp.ones(4))


# https://github.com/ChrisWaites/jax-flows/issues/12
# The MADE layer builds its autoregressive masks in init_fun and zeroes the diagonal block with
# jax.ops.index_update, deprecated in 0.2.22 and then removed.
def MADE(hidden_dim):
    def get_masks(input_dim):
        degrees = jnp.arange(input_dim)
        hidden_degrees = jnp.arange(hidden_dim) % max(1, input_dim - 1)
        mask_in = (degrees[:, None] <= hidden_degrees[None, :]).astype(jnp.float32)
        mask_out = (hidden_degrees[:, None] < degrees[None, :]).astype(jnp.float32)
        mask_out = jax.ops.index_update(mask_out, jax.ops.index[:, 0], 0.0)  # reported: JNP504
        return mask_in, mask_out

    def init_fun(rng, input_dim):
        k1, k2 = jax.random.split(rng)
        w_in = jax.random.normal(k1, (input_dim, hidden_dim)) * 0.1
        w_out = jax.random.normal(k2, (hidden_dim, input_dim)) * 0.1
        return (w_in, w_out), get_masks(input_dim)

    return init_fun


def case_made_masks_with_index_update():
    return MADE(8)(jax.random.PRNGKey(0), 4)


def MADE_at(hidden_dim):
    def get_masks(input_dim):
        degrees = jnp.arange(input_dim)
        hidden_degrees = jnp.arange(hidden_dim) % max(1, input_dim - 1)
        mask_in = (degrees[:, None] <= hidden_degrees[None, :]).astype(jnp.float32)
        mask_out = (hidden_degrees[:, None] < degrees[None, :]).astype(jnp.float32)
        mask_out = mask_out.at[:, 0].set(0.0)
        return mask_in, mask_out

    def init_fun(rng, input_dim):
        k1, k2 = jax.random.split(rng)
        w_in = jax.random.normal(k1, (input_dim, hidden_dim)) * 0.1
        w_out = jax.random.normal(k2, (hidden_dim, input_dim)) * 0.1
        return (w_in, w_out), get_masks(input_dim)

    return init_fun


def case_ok_made_masks_with_at_set():
    return MADE_at(8)(jax.random.PRNGKey(0), 4)


# https://github.com/aidancrilly/NeSST/pull/71
# The cross-section module interpolates its table and then zeroes the energies above the table
# through a boolean mask, NumPy style; once the interpolation is jnp.interp the array is a JAX
# array and the masked write raises TypeError.
class CrossSection:
    def __init__(self, energies, sigma):
        self.energies = np.asarray(energies)
        self.sigma = np.asarray(sigma)

    def __call__(self, E):
        values = jnp.interp(E, self.energies, self.sigma)
        values[E > self.energies[-1]] = 0.0  # reported: JNP501
        return values


def case_cross_section_masked_in_place():
    xs = CrossSection([1.0, 2.0, 3.0], [0.5, 0.4, 0.2])
    return xs(jnp.array([1.5, 2.5, 3.5]))


class CrossSectionWhere(CrossSection):
    def __call__(self, E):
        values = jnp.interp(E, self.energies, self.sigma)
        return jnp.where(E > self.energies[-1], 0.0, values)


def case_ok_cross_section_masked_with_where():
    xs = CrossSectionWhere([1.0, 2.0, 3.0], [0.5, 0.4, 0.2])
    return xs(jnp.array([1.5, 2.5, 3.5]))
