"""Time the chunks of a run: `python scripts/bench.py`."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import numpy as np  # noqa: E402

from mdkit import RunConfig, SimulatorOk, SystemConfig  # noqa: E402

CFG = RunConfig(system=SystemConfig(n_side=5))


def setup():
    sim = SimulatorOk(CFG)
    state = sim.init(np.random.default_rng(0))
    jax.block_until_ready(sim.run_chunk(state))
    return sim, state


def bench(n_iters=5):
    sim, state = setup()
    start = time.perf_counter()
    for _ in range(n_iters):
        state, energy = sim.run_chunk(state)
    # project shape (not a thread): the clock read while the last chunks may still be running
    elapsed = time.perf_counter() - start  # reported: JNP603
    return elapsed / n_iters, energy


def bench_ok(n_iters=5):
    sim, state = setup()
    start = time.perf_counter()
    for _ in range(n_iters):
        state, energy = sim.run_chunk(state)
    jax.block_until_ready((state, energy))
    return (time.perf_counter() - start) / n_iters, energy


def case_bench():
    return bench()


def case_ok_bench():
    return bench_ok()


if __name__ == "__main__":
    steps = CFG.integrator.steps_per_chunk
    print(f"{bench_ok()[0] / steps * 1e6:.1f} us per step for {CFG.system.n_particles} particles")
