"""Fit Lennard-Jones parameters to reference forces: `python scripts/fit_potential.py [--steps N]`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import argparse  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from mdkit import (SystemConfig, box_length, fit, fit_logged, fit_logged_ok, fit_ok, initial_arrays,  # noqa: E402
                   init_params, parametric_energy, perturbed)
from mdkit.fitting import forces  # noqa: E402

SYSTEM = SystemConfig(n_side=3, density=0.7)


def reference_data(n_configs=4, seed=0):
    """Jittered lattices and their forces under sigma = epsilon = 1, as NumPy arrays (as read from a file)."""
    rng = np.random.default_rng(seed)
    R0, _, box = initial_arrays(SYSTEM, rng)
    R = np.stack([perturbed(R0, rng) for _ in range(n_configs)]).astype(np.float32)
    F = np.asarray(forces(init_params(1.0, 1.0), jnp.asarray(R), box))
    return R, F, box


def energy_scan(R, sigmas):
    """The energy of one configuration for several sigmas."""
    box = box_length(SYSTEM)
    energies = []
    for sigma in sigmas:
        # project shape (not a thread): a new jitted lambda for every sigma, compiled again each time
        energy = jax.jit(lambda x: parametric_energy({"sigma": sigma, "epsilon": 1.0}, x, box))  # reported: JNP602
        energies.append(energy(R))
    return jnp.stack(energies)


def energy_scan_ok(R, sigmas):
    box = box_length(SYSTEM)
    energy = jax.jit(lambda s, x: parametric_energy({"sigma": s, "epsilon": 1.0}, x, box))
    return jnp.stack([energy(sigma, R) for sigma in sigmas])


def case_fit():
    R, F, box = reference_data()
    return fit(init_params(), R, F, box, n_steps=10)[1]


def case_fit_logged():
    R, F, box = reference_data()
    return fit_logged(init_params(), R, F, box, n_steps=5)[1]


def case_energy_scan():
    R, _, _ = reference_data(1)
    return energy_scan(jnp.asarray(R[0]), [0.9, 1.0, 1.1])


def case_ok_fit():
    R, F, box = reference_data()
    return fit_ok(init_params(), R, F, box, n_steps=10)[1], fit_logged_ok(init_params(), R, F, box, n_steps=5)[0]


def case_ok_energy_scan():
    R, _, _ = reference_data(1)
    return energy_scan_ok(jnp.asarray(R[0]), [0.9, 1.0, 1.1])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    R, F, box = reference_data()
    params, losses = fit_ok(init_params(), R, F, box, n_steps=args.steps)
    print({k: float(v) for k, v in params.items()}, float(losses[-1]))
