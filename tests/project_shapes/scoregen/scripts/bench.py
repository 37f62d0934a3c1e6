"""Time the train step: `python scripts/bench.py [--repeats N]`."""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from scorekit import Loader, ScoreModel, TrainConfig, Trainer, load_dataset  # noqa: E402

CFG = TrainConfig()


def setup(cfg=CFG):
    trainer = Trainer(ScoreModel(cfg.model), cfg)
    state = trainer.init(jax.random.key(0))
    batch = jnp.asarray(next(iter(Loader(load_dataset(cfg.dataset, cfg.num_train), cfg.batch_size))))
    return trainer, state, batch


def time_steps(repeats=5, sync=False):
    trainer, state, batch = setup()
    keys = jax.random.split(jax.random.key(1), repeats + 1)
    state, _ = trainer.step(state, batch, keys[0])
    jax.block_until_ready(state)
    start = time.perf_counter()
    for key in keys[1:]:
        state, metrics = trainer.step(state, batch, key)
    if sync:
        jax.block_until_ready(state)
        elapsed = time.perf_counter() - start
    else:
        # project shape (not a thread): the clock read while the last steps may still be running
        elapsed = time.perf_counter() - start  # reported: JNP603
    return elapsed / repeats


def case_time_steps():
    return time_steps()


def case_ok_time_steps_synced():
    return time_steps(sync=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    print(f"{time_steps(args.repeats, sync=True) * 1e3:.2f} ms/step")


if __name__ == "__main__":
    main()
