"""Fifteenth round, held out: a wave-energy model that assembles its block transfer matrix by item
assignment into a JAX array, a type check on jax.random.KeyArray (gone from recent JAX), and a
gradient clipper that calls jnp.clip_by_value, which JAX never had (JNP501, JNP504, JNP502)."""
import jax
import jax.numpy as jnp


def real_block(impedance):
    """The 2x2 real form of each complex frequency response, laid out block-diagonally."""
    nfreq = impedance.shape[0]
    block = jnp.zeros((2 * nfreq, 2 * nfreq))
    rows = jnp.arange(nfreq) * 2
    block = block.at[rows, rows].set(impedance.real)
    block = block.at[rows, rows + 1].set(-impedance.imag)
    block = block.at[rows + 1, rows].set(impedance.imag)
    return block.at[rows + 1, rows + 1].set(impedance.real)


# https://github.com/sandialabs/WecOptTool/issues/427
# mimo_transfer_mat writes each degree of freedom's block into the big matrix with slice
# assignment; once the matrix is a JAX array (the JAX port) the assignment raises TypeError.
def mimo_transfer_mat(impedance):
    ndof, _, nfreq = impedance.shape
    size = 2 * nfreq
    mimo = jnp.zeros((ndof * size, ndof * size))
    for idof in range(ndof):
        for jdof in range(ndof):
            block = real_block(impedance[idof, jdof])
            mimo[idof * size:(idof + 1) * size, jdof * size:(jdof + 1) * size] = block  # reported: JNP501
    return mimo


def case_transfer_matrix_assembled_in_place():
    impedance = jnp.ones((2, 2, 3)) * (1.0 + 0.5j)
    return mimo_transfer_mat(impedance)


def mimo_transfer_mat_functional(impedance):
    ndof, _, nfreq = impedance.shape
    size = 2 * nfreq
    mimo = jnp.zeros((ndof * size, ndof * size))
    for idof in range(ndof):
        for jdof in range(ndof):
            block = real_block(impedance[idof, jdof])
            mimo = mimo.at[idof * size:(idof + 1) * size, jdof * size:(jdof + 1) * size].set(block)
    return mimo


def case_ok_transfer_matrix_assembled_with_at():
    impedance = jnp.ones((2, 2, 3)) * (1.0 + 0.5j)
    return mimo_transfer_mat_functional(impedance)


# https://github.com/brentyi/jaxlie/issues/13
# The library's hints refer to jax.random.KeyArray, deprecated in JAX 0.4.16 and later removed, so
# the reference fails on a recent JAX (jax.Array is the replacement).
def sample_uniform_angles(key, batch):
    if not isinstance(key, jax.random.KeyArray):  # reported: JNP504
        key = jax.random.wrap_key_data(key)
    return jax.random.uniform(key, (batch, 3), minval=-jnp.pi, maxval=jnp.pi)


def case_type_check_on_the_removed_key_array():
    return sample_uniform_angles(jax.random.key(0), 4)


def sample_uniform_angles_array(key, batch):
    if not jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        key = jax.random.wrap_key_data(key)
    return jax.random.uniform(key, (batch, 3), minval=-jnp.pi, maxval=jnp.pi)


def case_ok_type_check_on_the_key_dtype():
    return sample_uniform_angles_array(jax.random.key(0), 4)


# https://github.com/jax-ml/jax/pull/2339
# A gradient-clipping transformation called jnp.clip_by_value, a TensorFlow name that jax.numpy
# does not have; the fix was jnp.clip.
def clip_updates(updates, max_delta):
    return jax.tree.map(lambda g: jnp.clip_by_value(g, -max_delta, max_delta), updates)  # reported: JNP502


def case_clip_by_value_is_not_in_jax_numpy():
    return clip_updates({"w": jnp.array([-3.0, 0.5, 4.0])}, 1.0)


def clip_updates_with_clip(updates, max_delta):
    return jax.tree.map(lambda g: jnp.clip(g, -max_delta, max_delta), updates)


def case_ok_clip():
    return clip_updates_with_clip({"w": jnp.array([-3.0, 0.5, 4.0])}, 1.0)
