"""Fourteenth round, held out: a torsion parameterisation that builds its parameter table as
jnp.float64 while x64 is off, so JAX warns and gives float32 (JNP402)."""
import jax.numpy as jnp


# https://github.com/proteneer/timemachine/pull/1183
# The torsion handler's parameters were made with dtype float64, inconsistent with the rest of the
# force field and a warning on every call when JAX is not configured for 64 bit; the PR drops it.
def parameterize_torsions(torsion_idxs, smirks_params, periodicities):
    n_torsions = torsion_idxs.shape[0]
    params = jnp.zeros((n_torsions, 3), dtype=jnp.float64)  # reported: JNP402
    params = params.at[:, 0].set(smirks_params[torsion_idxs[:, 1] % smirks_params.shape[0]])
    params = params.at[:, 1].set(0.0)
    params = params.at[:, 2].set(periodicities)
    return params


def case_torsion_parameters_as_float64():
    torsion_idxs = jnp.array([[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5]])
    return parameterize_torsions(torsion_idxs, jnp.array([2.5, 1.2]), jnp.array([1.0, 2.0, 3.0]))


def parameterize_torsions_default(torsion_idxs, smirks_params, periodicities):
    n_torsions = torsion_idxs.shape[0]
    params = jnp.zeros((n_torsions, 3))
    params = params.at[:, 0].set(smirks_params[torsion_idxs[:, 1] % smirks_params.shape[0]])
    params = params.at[:, 1].set(0.0)
    params = params.at[:, 2].set(periodicities)
    return params


def case_ok_torsion_parameters_in_the_default_dtype():
    torsion_idxs = jnp.array([[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5]])
    return parameterize_torsions_default(torsion_idxs, jnp.array([2.5, 1.2]), jnp.array([1.0, 2.0, 3.0]))
