"""Run a simulation in chunks of scanned steps: `python scripts/run_md.py [--chunks N]`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import tempfile  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from mdkit import (Annealer, AnnealerOk, IntegratorConfig, MetricLogger, RunConfig, Simulator,  # noqa: E402
                   SimulatorOk, TrajectoryWriter, initial_state, initial_state_double, load, save, set_cutoff,
                   state_to_host, state_to_host_ok, wrap, wrap_ok)
from mdkit import integrators  # noqa: E402

CFG = RunConfig()


def with_integrator(cfg=CFG, **changes):
    return dataclasses.replace(cfg, integrator=dataclasses.replace(cfg.integrator, **changes))


def simulate(cfg=CFG, cls=SimulatorOk, n_chunks=3):
    sim = cls(cfg)
    state = sim.init(np.random.default_rng(cfg.seed))
    return sim, sim.run(state, n_chunks)


def run_logged(cfg=CFG, n_chunks=3):
    """Runs, printing the energy and keeping every chunk's positions for the trajectory."""
    sim = SimulatorOk(cfg)
    state = sim.init(np.random.default_rng(cfg.seed))
    frames = []
    for chunk in range(n_chunks):
        state, energy = sim.run_chunk(state)
        # project shape (not a thread): the energy formatted after every chunk
        print(f"chunk {chunk}: E = {energy:.5f}")  # reported: JNP103
        # project shape (not a thread): the positions copied to the host after every chunk
        frames.append(np.asarray(state[0]))  # reported: JNP101
    return state, frames


def run_logged_ok(cfg=CFG, n_chunks=3):
    sim = SimulatorOk(cfg)
    state = sim.init(np.random.default_rng(cfg.seed))
    writer, frames, energies = TrajectoryWriter(sim.box), [], []
    for _ in range(n_chunks):
        state, energy = sim.run_chunk(state)
        frames.append(state[0])
        energies.append(energy)
    writer.add_many(frames)
    for chunk, energy in enumerate(np.asarray(jnp.stack(energies))):
        print(f"chunk {chunk}: E = {energy:.5f}")
    return state, writer.frames


def displacement_per_chunk(donate):
    sim = SimulatorOk(CFG, donate=donate)
    state = sim.init(np.random.default_rng(0))
    new_state, _ = sim.run_chunk(state)
    # project shape (not a thread): the old positions read after run_chunk donated the state
    return jnp.max(jnp.abs(new_state[0] - state[0]))  # reported: JNP605


def displacement_per_chunk_ok():
    sim = SimulatorOk(CFG, donate=True)
    state = sim.init(np.random.default_rng(0))
    before = jnp.copy(state[0])
    new_state, _ = sim.run_chunk(state)
    return jnp.max(jnp.abs(new_state[0] - before))


def case_run():
    return simulate(cls=Simulator)[0].energies


def case_plain_energy():
    return simulate(dataclasses.replace(CFG, energy="plain"))[1][2]


def case_counted():
    before = integrators.N_STEPS
    simulate(with_integrator(name="counted"))
    return integrators.N_STEPS - before


def case_debug():
    return simulate(with_integrator(name="debug"), n_chunks=1)[1][0]


def case_recorded():
    simulate(with_integrator(name="recorded"), n_chunks=1)
    return integrators.HISTORY[-1]


def case_langevin():
    return simulate(with_integrator(name="langevin"))[1][1]


def case_host_noise():
    return simulate(with_integrator(name="host_noise"))[1][1]


def case_berendsen():
    return simulate(with_integrator(thermostat="berendsen"))[1][1]


def case_cutoff():
    sim, state = simulate(dataclasses.replace(CFG, energy="cut"), n_chunks=1)
    set_cutoff(2.0)
    try:
        return sim.run(state, 1), sim.energies
    finally:
        set_cutoff(2.5)


def case_anneal():
    sim = Annealer(CFG)
    return sim.anneal(sim.init(np.random.default_rng(0)), [1.0, 0.7, 0.4])[1]


def case_wrap():
    sim, state = simulate(n_chunks=1)
    return wrap(state[0], sim.box)


def case_double():
    return initial_state_double(CFG.system, np.random.default_rng(0))[0].dtype


def case_run_logged():
    return run_logged()[1]


def case_displacement():
    return displacement_per_chunk(donate=True)


def saved_and_loaded(to_host, name="langevin_ok"):
    _, state = simulate(with_integrator(name=name), n_chunks=1)
    with tempfile.TemporaryDirectory() as tmp:
        save(os.path.join(tmp, "state.npz"), state, to_host)
        return load(os.path.join(tmp, "state.npz"))


def case_save():
    return saved_and_loaded(state_to_host)


def case_ok_run():
    return simulate()[0].energies


def case_ok_integrators():
    return [simulate(with_integrator(name=name), n_chunks=1)[1][1]
            for name in ("debug_ok", "recorded_ok", "langevin_ok")]


def case_ok_berendsen():
    return simulate(with_integrator(thermostat="berendsen_ok"))[1][1]


def case_ok_anneal():
    sim = AnnealerOk(CFG)
    return sim.anneal(sim.init(np.random.default_rng(0)), [1.0, 0.7, 0.4])[1]


def case_ok_wrap():
    sim, state = simulate(n_chunks=1)
    return wrap_ok(state[0], sim.box)


def case_ok_save():
    return saved_and_loaded(state_to_host_ok)


def case_ok_single():
    return initial_state(CFG.system, np.random.default_rng(0))[0].dtype


def case_ok_run_logged():
    return run_logged_ok()[1]


def case_ok_displacement():
    return displacement_per_chunk(donate=False), displacement_per_chunk_ok()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=CFG.n_chunks)
    parser.add_argument("--integrator", default="verlet")
    args = parser.parse_args()
    cfg = dataclasses.replace(CFG, integrator=IntegratorConfig(name=args.integrator))
    logger = MetricLogger()
    state, frames = run_logged_ok(cfg, args.chunks)
    logger.log(chunks=args.chunks, frames=len(frames))
    save(os.path.join(cfg.out_dir, "state.npz"), state)
    print(logger.last(), jax.devices()[0].platform)
