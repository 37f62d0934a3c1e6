"""Simulators: a chunk of scanned steps jitted from a method in __init__, energies logged per chunk."""
import functools

import jax
import jax.numpy as jnp
from jax import lax

from .integrators import INTEGRATORS, langevin
from .lattice import box_length, initial_state
from .neighbors import checked_pairs, neighbor_pairs_ok, pair_list_energy
from .potentials import ENERGIES, PAIR
from .thermostats import THERMOSTATS, kinetic_energy


class Simulator:
    """Binds a RunConfig; `run_chunk` advances the state by `steps_per_chunk` steps."""

    def __init__(self, cfg, donate=False):
        self.cfg = cfg
        self.box = box_length(cfg.system)
        self.energy_fn = functools.partial(ENERGIES[cfg.energy], box=self.box, name=cfg.system.potential)
        self.force_fn = jax.grad(lambda R: -self.energy_fn(R))
        self.step = self.make_step(cfg.integrator, cfg.system.temperature)
        self.run_chunk = jax.jit(self._run_chunk, donate_argnums=(0,) if donate else ())
        self.energies = []

    def make_step(self, icfg, kT):
        if icfg.name == "langevin":
            return langevin(self.force_fn, icfg, kT, jax.random.key(self.cfg.seed))
        return INTEGRATORS[icfg.name](self.force_fn, icfg, kT)

    def init(self, rng):
        R, V, _ = initial_state(self.cfg.system, rng)
        state = (R, V, self.force_fn(R))
        if self.cfg.integrator.name == "langevin_ok":
            state = state + (jax.random.key(self.cfg.seed),)
        return state

    def total_energy(self, state):
        return self.energy_fn(state[0]) + kinetic_energy(state[1])

    def _run_chunk(self, state):
        state, _ = lax.scan(self.step, state, None, length=self.cfg.integrator.steps_per_chunk)
        return state, self.total_energy(state)

    def run(self, state, n_chunks):
        for _ in range(n_chunks):
            state, energy = self.run_chunk(state)
            # project shape (not a thread): the total energy read back after every chunk
            self.energies.append(float(energy))  # reported: JNP102
        return state


class SimulatorOk(Simulator):
    def run(self, state, n_chunks):
        energies = []
        for _ in range(n_chunks):
            state, energy = self.run_chunk(state)
            energies.append(energy)
        self.energies.extend(jax.device_get(jnp.stack(energies)).tolist())
        return state


class Annealer(Simulator):
    """Rescales the velocities towards `self.target` after every chunk; the target is lowered between chunks."""

    def __init__(self, cfg, donate=False):
        super().__init__(cfg, donate)
        self.target = cfg.system.temperature
        self.thermostat = THERMOSTATS["rescale"]

    def _run_chunk(self, state):
        state, energy = super()._run_chunk(state)
        R, V, F = state
        return (R, self.thermostat(V, self.target, 0.0, 1.0), F), energy

    def anneal(self, state, temperatures):
        for T in temperatures:
            # project shape (not a thread): the target changed after run_chunk was compiled with self bound
            self.target = T  # reported: JNP306
            state, _ = self.run_chunk(state)
        return state


class AnnealerOk(Simulator):
    def __init__(self, cfg, donate=False):
        super().__init__(cfg, donate)
        self.run_chunk = jax.jit(self._anneal_chunk)

    def _anneal_chunk(self, state, target):
        state, energy = self._run_chunk(state)
        R, V, F = state
        return (R, THERMOSTATS["rescale"](V, target, 0.0, 1.0), F), energy

    def anneal(self, state, temperatures):
        for T in temperatures:
            state, _ = self.run_chunk(state, T)
        return state


class ListEnergy:
    """The energy over a padded neighbour list, rebuilt by the caller."""

    def __init__(self, cfg, capacity):
        self.box = box_length(cfg)
        self.cutoff = cfg.cutoff
        self.pair = PAIR[cfg.potential]
        self.capacity = capacity

    # project shape (not a thread): a method jitted with self, a plain object, as its first argument
    @jax.jit  # reported: JNP205
    def energy(self, R):
        i, j, _ = neighbor_pairs_ok(R, self.box, self.cutoff, self.capacity)
        return pair_list_energy(self.pair, R, self.box, i, j, self.cutoff)

    def checked_energy(self, R):
        i, j = checked_pairs(R, self.box, self.cutoff, self.capacity)
        return pair_list_energy(self.pair, R, self.box, i, j, self.cutoff)


class ListEnergyOk(ListEnergy):
    @functools.partial(jax.jit, static_argnums=0)
    def energy(self, R):
        i, j, _ = neighbor_pairs_ok(R, self.box, self.cutoff, self.capacity)
        return pair_list_energy(self.pair, R, self.box, i, j, self.cutoff)
