"""Thirteenth round, held out: an arccos guarded by jnp.clip to its domain, whose gradient is nan
(or infinite) where the clip is active, since arccos's slope is infinite at the clipped bound
(JNP604)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/23649
# The pitch angle is arccos of a cosine that rounding can push past +-1; clipping to [-1, 1]
# keeps the value finite, but the nan debugger found a nan leaking from the gradient.
def pitch_angle(b_ratio):
    return jnp.arccos(jnp.clip(b_ratio, -1, 1))  # reported: JNP604


def bounce_loss(field_strength, b_max):
    return jnp.sum(pitch_angle(jnp.sqrt(field_strength / b_max)) ** 2)


def case_arccos_of_a_clipped_cosine():
    field_strength = jnp.array([0.5, 0.9, 1.0, 1.0000001])
    return jax.grad(bounce_loss)(field_strength, 1.0)


def pitch_angle_eps(b_ratio):
    eps = jnp.finfo(jnp.array(1.0).dtype).eps
    return jnp.arccos(jnp.clip(b_ratio, -1 + eps, 1 - eps))


def bounce_loss_eps(field_strength, b_max):
    return jnp.sum(pitch_angle_eps(jnp.sqrt(field_strength / b_max)) ** 2)


def case_ok_arccos_clipped_inside_the_domain():
    field_strength = jnp.array([0.5, 0.9, 1.0, 1.0000001])
    return jax.grad(bounce_loss_eps)(field_strength, 1.0)
