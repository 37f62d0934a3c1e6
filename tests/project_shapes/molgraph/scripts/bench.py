"""Time the training step: `python scripts/bench.py`."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402

from graphkit import GraphLoader, GraphNet, TrainConfig, Trainer, make_dataset  # noqa: E402

CFG = TrainConfig()


def setup(cfg=CFG):
    graphs = make_dataset(cfg.num_train, cfg.max_atoms, cfg.model.num_species, cfg.model.cutoff)
    loader = GraphLoader(graphs, cfg.batch_size, cfg.max_atoms)
    trainer = Trainer(GraphNet(cfg.model), cfg)
    state = trainer.init(jax.random.key(0))
    graph = next(iter(loader))
    state, _ = trainer.step(state, graph, jax.random.key(1))  # compile
    return trainer, state, graph


def time_steps(n=20):
    trainer, state, graph = setup()
    key = jax.random.key(2)
    times = []
    for _ in range(n):
        key, sub = jax.random.split(key)
        start = time.perf_counter()
        state, metrics = trainer.step(state, graph, sub)
        # project shape (not a thread): the clock read while the step may still run
        times.append(time.perf_counter() - start)  # reported: JNP603
    return sorted(times)[n // 2]


def time_steps_synced(n=20):
    trainer, state, graph = setup()
    key = jax.random.key(2)
    times = []
    for _ in range(n):
        key, sub = jax.random.split(key)
        start = time.perf_counter()
        state, metrics = trainer.step(state, graph, sub)
        jax.block_until_ready(metrics)
        times.append(time.perf_counter() - start)
    return sorted(times)[n // 2]


def case_time_steps():
    return time_steps()


def case_ok_time_steps_synced():
    return time_steps_synced()


if __name__ == "__main__":
    print(f"median step {1e3 * time_steps_synced():.2f} ms")
