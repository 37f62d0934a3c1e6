"""mdkit: molecular dynamics of simple liquids in JAX."""
from .checkpoint import load, save, state_to_host, state_to_host_ok
from .config import IntegratorConfig, RunConfig, SystemConfig
from .fitting import fit, fit_logged, fit_logged_ok, fit_ok, init_params, make_fit_step
from .lattice import box_length, initial_arrays, initial_state, initial_state_double, perturbed
from .neighbors import neighbor_pairs, neighbor_pairs_ok
from .observables import (coordination, coordination_ok, drift, msd, msd_ok, nearest_neighbors,
                          nearest_neighbors_ok, rdf, rdf_ok)
from .potentials import ENERGIES, PAIR, lennard_jones, parametric_energy, set_cutoff
from .simulation import Annealer, AnnealerOk, ListEnergy, ListEnergyOk, Simulator, SimulatorOk
from .space import wrap, wrap_ok
from .trajectory import TrajectoryWriter, unwrap
from .utils import KeyStream, MetricLogger

__all__ = ["load", "save", "state_to_host", "state_to_host_ok", "IntegratorConfig", "RunConfig",
           "SystemConfig", "fit", "fit_logged", "fit_logged_ok", "fit_ok", "init_params", "make_fit_step",
           "box_length", "initial_arrays", "initial_state", "initial_state_double", "perturbed",
           "neighbor_pairs", "neighbor_pairs_ok", "coordination", "coordination_ok", "drift", "msd", "msd_ok",
           "nearest_neighbors", "nearest_neighbors_ok", "rdf", "rdf_ok", "ENERGIES", "PAIR", "lennard_jones",
           "parametric_energy", "set_cutoff", "Annealer", "AnnealerOk", "ListEnergy", "ListEnergyOk",
           "Simulator", "SimulatorOk", "wrap", "wrap_ok", "TrajectoryWriter", "unwrap", "KeyStream",
           "MetricLogger"]
