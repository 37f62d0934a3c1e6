"""Fifth round, held out: NaN gradients through jnp.where (JNP604)."""
import jax
import jax.numpy as jnp


# https://github.com/gbionics/jaxsim/pull/319
# A norm guarded with jnp.where for the all-zero vector: the value is right, the gradient is NaN.
def guarded_norm(array):
    is_zero = jnp.allclose(array, 0.0)
    return jnp.where(is_zero, 0.0, jnp.linalg.norm(array))  # reported: JNP604


def case_guarded_norm_gradient_at_zero():
    return jax.grad(guarded_norm)(jnp.zeros(3))


def safe_norm(array):
    is_zero = jnp.allclose(array, 0.0)
    array = jnp.where(is_zero, jnp.ones_like(array), array)
    return jnp.where(is_zero, 0.0, jnp.linalg.norm(array))


def case_ok_safe_norm_gradient_at_zero():
    return jax.grad(safe_norm)(jnp.zeros(3))


# https://github.com/deepmodeling/deepmd-kit/pull/4301
# A switching function takes sqrt where the squared distance is positive and 0 elsewhere.
def switched_distance(r2):
    return jnp.sum(jnp.where(r2 > 0.0, jnp.sqrt(r2), 0.0))  # reported: JNP604


def case_sqrt_under_where_gradient():
    return jax.grad(switched_distance)(jnp.array([0.0, 4.0]))


def safe_for_sqrt(r2):
    mask = r2 > 0.0
    return jnp.where(mask, jnp.sqrt(jnp.where(mask, r2, jnp.ones_like(r2))), 0.0)


def case_ok_safe_for_sqrt_gradient():
    return jax.grad(lambda r2: jnp.sum(safe_for_sqrt(r2)))(jnp.array([0.0, 4.0]))


# https://github.com/jax-md/jax-md/pull/348
# A pair potential masks the self-interaction out of 1/r^2 with jnp.where; the division by zero on
# the diagonal still reaches the gradient.
def coulomb_energy(positions):
    dr = positions[:, None, :] - positions[None, :, :]
    r2 = jnp.sum(dr ** 2, axis=-1)
    off_diagonal = ~jnp.eye(positions.shape[0], dtype=bool)
    return 0.5 * jnp.sum(jnp.where(off_diagonal, 1.0 / r2, 0.0))  # reported: JNP604


def case_masked_inverse_distance_gradient():
    return jax.grad(coulomb_energy)(jnp.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]))


def coulomb_energy_safe(positions):
    dr = positions[:, None, :] - positions[None, :, :]
    r2 = jnp.sum(dr ** 2, axis=-1)
    off_diagonal = ~jnp.eye(positions.shape[0], dtype=bool)
    safe_r2 = jnp.where(off_diagonal, r2, 1.0)
    return 0.5 * jnp.sum(jnp.where(off_diagonal, 1.0 / safe_r2, 0.0))


def case_ok_safe_masked_inverse_distance_gradient():
    return jax.grad(coulomb_energy_safe)(jnp.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]))
