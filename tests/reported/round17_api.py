"""Seventeenth round, held out: an estimator that fills its initial free energies one state at a time
into a JAX array, and a prior builder that recentres catalogue positions in place after moving them
to JAX (JNP501)."""
import jax.numpy as jnp
import numpy as np


def bar_difference(u_forward, u_reverse):
    return jnp.log(jnp.mean(jnp.exp(-u_forward))) - jnp.log(jnp.mean(jnp.exp(-u_reverse)))


class FreeEnergyEstimator:
    def __init__(self, reduced_potentials):
        self.u_kn = jnp.asarray(reduced_potentials)

    # https://github.com/choderalab/pymbar/issues/557
    # Initialising with BAR fills the free energies of neighbouring states one after the other; with
    # the JAX backend the array is a JAX array, and the indexed assignment raises TypeError.
    def initial_free_energies(self):
        n_states = self.u_kn.shape[0]
        f_k = jnp.zeros(n_states)
        for state in range(1, n_states):
            delta = bar_difference(self.u_kn[state], self.u_kn[state - 1])
            f_k[state] = f_k[state - 1] + delta  # reported: JNP501
        return f_k


def case_free_energies_assigned_in_place():
    return FreeEnergyEstimator(np.linspace(0.0, 1.0, 12).reshape(3, 4)).initial_free_energies()


class FreeEnergyEstimatorFunctional:
    def __init__(self, reduced_potentials):
        self.u_kn = jnp.asarray(reduced_potentials)

    def initial_free_energies(self):
        n_states = self.u_kn.shape[0]
        f_k = jnp.zeros(n_states)
        for state in range(1, n_states):
            delta = bar_difference(self.u_kn[state], self.u_kn[state - 1])
            f_k = f_k.at[state].set(f_k[state - 1] + delta)
        return f_k


def case_ok_free_energies_set_with_at():
    return FreeEnergyEstimatorFunctional(np.linspace(0.0, 1.0, 12).reshape(3, 4)).initial_free_energies()


# https://github.com/pysersic/pysersic/issues/38
# Building the multi-source prior moved the catalogue positions to JAX first and then shifted them
# to the image centre with an augmented slice assignment, which JAX arrays do not support.
def source_priors(catalogue, image_shape):
    positions = jnp.asarray(catalogue[["x", "y"]].tolist())
    positions[:, 0] -= image_shape[1] / 2  # reported: JNP501
    return {"positions": positions, "widths": jnp.full(len(catalogue), 2.0)}


def make_catalogue():
    return np.array([(10.0, 12.0), (20.0, 5.0)], dtype=[("x", "f4"), ("y", "f4")])


def case_catalogue_positions_shifted_in_place():
    return source_priors(make_catalogue(), (32, 32))


def source_priors_functional(catalogue, image_shape):
    positions = jnp.asarray(catalogue[["x", "y"]].tolist())
    positions = positions.at[:, 0].add(-image_shape[1] / 2)
    return {"positions": positions, "widths": jnp.full(len(catalogue), 2.0)}


def case_ok_catalogue_positions_shifted_with_at():
    return source_priors_functional(make_catalogue(), (32, 32))
