"""Structure and dynamics of a short run: `python scripts/analyse.py`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import functools  # noqa: E402
import tempfile  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from mdkit import (ListEnergy, ListEnergyOk, RunConfig, SimulatorOk, TrajectoryWriter, coordination,  # noqa: E402
                   coordination_ok, drift, msd, msd_ok, nearest_neighbors, nearest_neighbors_ok, neighbor_pairs,
                   neighbor_pairs_ok, rdf, rdf_ok, unwrap)

CFG = RunConfig()


def short_run(n_chunks=4):
    sim = SimulatorOk(CFG)
    state = sim.init(np.random.default_rng(CFG.seed))
    writer, frames = TrajectoryWriter(sim.box), []
    for _ in range(n_chunks):
        state, _ = sim.run_chunk(state)
        frames.append(state[0])
    writer.add_many(frames)
    return sim, state, writer


def structure(rdf_fn=rdf_ok, coordination_fn=coordination_ok):
    sim, state, _ = short_run(1)
    g, edges = jax.jit(functools.partial(rdf_fn, n_bins=40, r_max=2.0))(state[0], sim.box)
    return coordination_fn(g, edges, CFG.system.density)


def dynamics(msd_fn=msd_ok):
    sim, state, writer = short_run()
    frames = unwrap(writer.stacked(), sim.box)
    return msd_fn(frames, jnp.asarray(frames[0], jnp.float32))


def mean_energy():
    sim = SimulatorOk(CFG)
    sim.run(sim.init(np.random.default_rng(0)), 3)
    # project shape (not a thread): the mean of the logged energies, a Python list of floats
    return jnp.mean(sim.energies)  # reported: JNP505


def mean_energy_ok():
    sim = SimulatorOk(CFG)
    sim.run(sim.init(np.random.default_rng(0)), 3)
    return jnp.mean(jnp.asarray(sim.energies)), drift(sim.energies)


def export(path):
    """The unwrapped trajectory written as raw float16, for a visualiser."""
    sim, _, writer = short_run(2)
    frames = unwrap(writer.stacked(), sim.box)
    # project shape (not a thread): NumPy's raw writer asked of a JAX array
    frames.tofile(path)  # reported: JNP502


def export_ok(path):
    sim, _, writer = short_run(2)
    np.asarray(unwrap(writer.stacked(), sim.box)).tofile(path)


def pair_count(pairs_fn):
    sim, state, _ = short_run(1)
    return jax.jit(pairs_fn, static_argnums=(2,))(state[0], sim.box, 1.5)


def list_energy(cls, checked=False):
    sim, state, _ = short_run(1)
    model = cls(CFG.system, capacity=2048)
    return jax.jit(model.checked_energy)(state[0]) if checked else model.energy(state[0])


def case_rdf():
    return structure(rdf_fn=rdf)


def case_coordination():
    return structure(coordination_fn=coordination)


def case_nearest_neighbors():
    sim, state, _ = short_run(1)
    return nearest_neighbors(state[0], sim.box)


def case_msd():
    return dynamics(msd)


def case_mean_energy():
    return mean_energy()


def case_export():
    with tempfile.TemporaryDirectory() as tmp:
        export(os.path.join(tmp, "traj.bin"))


def case_neighbor_pairs():
    return pair_count(neighbor_pairs)


def case_list_energy():
    return list_energy(ListEnergy)


def case_checked_list_energy():
    return list_energy(ListEnergyOk, checked=True)


def case_ok_structure():
    return structure()


def case_ok_nearest_neighbors():
    sim, state, _ = short_run(1)
    return nearest_neighbors_ok(state[0], sim.box)


def case_ok_dynamics():
    return dynamics(), mean_energy_ok()


def case_ok_export():
    with tempfile.TemporaryDirectory() as tmp:
        export_ok(os.path.join(tmp, "traj.bin"))


def case_ok_pairs():
    sim, state, _ = short_run(1)
    return jax.jit(neighbor_pairs_ok, static_argnums=(2, 3))(state[0], sim.box, 1.5, 2048)[2]


def case_ok_list_energy():
    return list_energy(ListEnergyOk)


if __name__ == "__main__":
    print("coordination", float(structure()), "msd", np.asarray(dynamics())[-1], "E", mean_energy_ok())
