"""Sixth round, held out: gradients that turn nan through a value masked out after an unsafe
operation (JNP604)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/19089
# Square roots taken of every entry and the non-positive ones dropped afterwards with a boolean
# mask: the dropped sqrt(0) still sends an infinite slope into the gradient.
def masked_root_sum(x):
    delta = jnp.array((0.0, 1.0)) * x
    return jnp.sum((delta ** 0.5)[delta > 0])  # reported: JNP604


def case_mask_after_sqrt_under_grad():
    return jax.grad(masked_root_sum)(1.0)


def masked_root_sum_first(x):
    delta = jnp.array((0.0, 1.0)) * x
    return jnp.sum(delta[delta > 0] ** 0.5)


def case_ok_mask_before_sqrt_under_grad():
    return jax.grad(masked_root_sum_first)(1.0)
