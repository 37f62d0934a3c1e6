"""Time the train step: `python scripts/bench.py`."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import numpy as np  # noqa: E402

from nerfit import KeyStream, NeRFMLP, RayDataset, TrainConfig, create_train_state  # noqa: E402
from nerfit.steps import make_train_step_ok  # noqa: E402

CFG = TrainConfig()


def setup(cfg=CFG):
    data = RayDataset(cfg)
    model = NeRFMLP(cfg.model, encoding="nerf_ok")
    keys = KeyStream(cfg.seed)
    state = create_train_state(model, cfg, keys.next())
    batch = data.batch(np.random.default_rng(cfg.seed).integers(0, len(data), size=cfg.batch_rays))
    return make_train_step_ok(cfg), state, batch, keys


def time_steps(n=5):
    step, state, batch, keys = setup()
    state, metrics = step(state, batch, keys.next())
    start = time.perf_counter()
    for _ in range(n):
        # project shape (not a thread): the same NumPy ray batch uploaded for every timed step
        state, metrics = step(state, batch, keys.next())  # reported: JNP104
    # project shape (not a thread): the clock read while the steps may still be running
    return (time.perf_counter() - start) / n  # reported: JNP603


def time_steps_ok(n=5):
    step, state, batch, keys = setup()
    batch = jax.device_put(batch)
    state, metrics = step(state, batch, keys.next())
    jax.block_until_ready(state)
    start = time.perf_counter()
    for _ in range(n):
        state, metrics = step(state, batch, keys.next())
    jax.block_until_ready((state, metrics))
    return (time.perf_counter() - start) / n


def case_time_steps():
    return time_steps()


def case_ok_time_steps_synced():
    return time_steps_ok()


if __name__ == "__main__":
    print(f"{time_steps_ok() * 1e3:.2f} ms/step")
