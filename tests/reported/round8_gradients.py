"""Eighth round, held out: a division guarded by jnp.where, differentiated (JNP604)."""
import jax
import jax.numpy as jnp


# https://github.com/climate-analytics-lab/jax-gcm/issues/558
# The radiation scheme combines optical properties with a single-scattering albedo guarded by
# jnp.where; in a cloud-free, aerosol-free layer the guarded division is x/0, and reverse-mode
# gradients through the model come out nan. (Marked on the jnp.where call, where the runtime mode
# observes the nan gradient; as first written the mark stood on the division, two lines below.)
def combine_optical_properties(total_scattering, total_tau_with_aerosol):
    combined_ssa = jnp.where(  # reported: JNP604
        total_tau_with_aerosol > 0,
        total_scattering / total_tau_with_aerosol,
        0.0,
    )
    return jnp.sum(combined_ssa)


def case_albedo_gradient_in_clear_layer():
    return jax.grad(combine_optical_properties, argnums=1)(jnp.array([0.5, 0.0]), jnp.array([1.0, 0.0]))


def combine_optical_properties_safe(total_scattering, total_tau_with_aerosol):
    positive = total_tau_with_aerosol > 0
    safe_tau = jnp.where(positive, total_tau_with_aerosol, 1.0)
    combined_ssa = jnp.where(positive, total_scattering / safe_tau, 0.0)
    return jnp.sum(combined_ssa)


def case_ok_albedo_gradient_with_safe_denominator():
    return jax.grad(combine_optical_properties_safe, argnums=1)(jnp.array([0.5, 0.0]), jnp.array([1.0, 0.0]))


# https://github.com/jeertmans/DiffeRT/pull/246
# The Image method intersects rays with planes; rays parallel to a plane are excluded with
# jnp.where, but the division by the zero dot product is still evaluated and its gradient is nan.
def intersection_distance(ray_origin, ray_direction, plane_point, plane_normal):
    denom = jnp.sum(ray_direction * plane_normal, axis=-1)
    num = jnp.sum((plane_point - ray_origin) * plane_normal, axis=-1)
    t = jnp.where(denom == 0.0, jnp.inf, num / denom)  # reported: JNP604
    return jnp.sum(jnp.where(jnp.isinf(t), 0.0, t))


def case_parallel_ray_gradient():
    origins = jnp.zeros((2, 3))
    directions = jnp.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    plane_point = jnp.array([0.0, 0.0, 2.0])
    normal = jnp.array([0.0, 0.0, 1.0])
    return jax.grad(intersection_distance, argnums=1)(origins, directions, plane_point, normal)


def intersection_distance_safe(ray_origin, ray_direction, plane_point, plane_normal):
    denom = jnp.sum(ray_direction * plane_normal, axis=-1)
    num = jnp.sum((plane_point - ray_origin) * plane_normal, axis=-1)
    parallel = denom == 0.0
    safe_denom = jnp.where(parallel, 1.0, denom)
    t = jnp.where(parallel, jnp.inf, num / safe_denom)
    return jnp.sum(jnp.where(jnp.isinf(t), 0.0, t))


def case_ok_parallel_ray_gradient_with_safe_denominator():
    origins = jnp.zeros((2, 3))
    directions = jnp.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    plane_point = jnp.array([0.0, 0.0, 2.0])
    normal = jnp.array([0.0, 0.0, 1.0])
    return jax.grad(intersection_distance_safe, argnums=1)(origins, directions, plane_point, normal)
