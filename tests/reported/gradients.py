"""NaN gradients through the branch jnp.where discards (JNP604)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/347
def _norm_floor(x):
    x = jnp.sqrt(jnp.sum(x ** 2, axis=1))
    return jnp.sum(jnp.where(x > 0.5, x, jnp.ones_like(x)))  # reported: JNP604


def case_sqrt_then_where():
    jax.grad(_norm_floor)(jnp.array([[1.0, 2.0], [3.0, 4.0], [0.0, 0.0]]))


def _norm_floor_fixed(x):
    squared = jnp.sum(x ** 2, axis=1)
    return jnp.sum(jnp.sqrt(jnp.where(squared > 0.25, squared, jnp.ones_like(squared))))


def case_ok_where_then_sqrt():
    jax.grad(_norm_floor_fixed)(jnp.array([[1.0, 2.0], [3.0, 4.0], [0.0, 0.0]]))


# https://github.com/jax-ml/jax/issues/5798
def _piecewise(x):
    return jnp.where(x < 1.0, x, jnp.sqrt(x))  # reported: JNP604


def case_piecewise_sqrt_at_zero():
    jax.grad(_piecewise)(0.0)


def _piecewise_fixed(x):
    condition = x < 1.0
    safe = jnp.where(condition, 1.0, x)
    return jnp.where(condition, x, jnp.sqrt(safe))


def case_ok_double_where():
    jax.grad(_piecewise_fixed)(0.0)


# https://github.com/jax-ml/jax/issues/1052
def _masked_angle(a):
    b = jnp.arctan2(a, a)
    mask = jnp.array([0.0, 1.0, 0.0])
    return jnp.sum(jnp.where(mask > 0.5, 0.0, b))  # reported: JNP604


def case_arctan2_masked_by_where():
    jax.grad(_masked_angle)(jnp.array([3.0, 0.0, -5.0]))


def _masked_angle_fixed(a):
    mask = jnp.array([0.0, 1.0, 0.0]) > 0.5
    safe = jnp.where(mask, 1.0, a)
    return jnp.sum(jnp.where(mask, 0.0, jnp.arctan2(safe, safe)))


def case_ok_arctan2_double_where():
    jax.grad(_masked_angle_fixed)(jnp.array([3.0, 0.0, -5.0]))


# https://github.com/jax-ml/jax/issues/654
# Pairwise energy with the diagonal zeroed by where after a division by the zero distance.
def _pair_energy(conf, charges):
    dij = jnp.linalg.norm(conf[None, :, :] - conf[:, None, :], axis=-1)
    qij = charges[None, :] * charges[:, None]
    keep = 1 - jnp.eye(conf.shape[0])
    return jnp.sum(jnp.where(keep, qij / dij, jnp.zeros_like(dij)))  # reported: JNP604


def case_division_by_zero_distance_masked():
    conf = jnp.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0]])
    jax.grad(_pair_energy)(conf, jnp.array([1.0, 0.5, 0.5]))


def _pair_energy_fixed(conf, charges):
    keep = 1 - jnp.eye(conf.shape[0])
    diff = conf[None, :, :] - conf[:, None, :] + jnp.eye(conf.shape[0])[:, :, None]
    dij = jnp.linalg.norm(diff, axis=-1)
    qij = charges[None, :] * charges[:, None]
    return jnp.sum(jnp.where(keep, qij / dij, jnp.zeros_like(dij)))


def case_ok_diagonal_made_safe_first():
    conf = jnp.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0]])
    jax.grad(_pair_energy_fixed)(conf, jnp.array([1.0, 0.5, 0.5]))
