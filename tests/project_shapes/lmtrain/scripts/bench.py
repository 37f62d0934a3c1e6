"""Time the train step: `python scripts/bench.py`."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from lmkit import TrainConfig, Trainer, build_model, with_size  # noqa: E402

CFG = with_size(TrainConfig(), "mini")


def setup(cfg=CFG):
    trainer = Trainer(build_model(cfg.model, jax.random.key(0)), cfg)
    rng = np.random.default_rng(0)
    x = rng.integers(1, cfg.model.vocab_size, size=(cfg.batch_size, cfg.model.seq_len), dtype=np.int32)
    return trainer, x, np.roll(x, -1, axis=1)


def time_steps(n=5):
    trainer, x, y = setup()
    params, opt_state = trainer.init()
    key = jax.random.key(0)
    params, opt_state, metrics = trainer.step(params, opt_state, x, y, key)
    start = time.perf_counter()
    for _ in range(n):
        # project shape (not a thread): the same NumPy batch uploaded for every timed step
        params, opt_state, metrics = trainer.step(params, opt_state, x, y, key)  # reported: JNP104
    # project shape (not a thread): the clock read while the steps may still be running
    return (time.perf_counter() - start) / n  # reported: JNP603


def time_steps_ok(n=5):
    trainer, x, y = setup()
    x, y = jnp.asarray(x), jnp.asarray(y)
    params, opt_state = trainer.init()
    key = jax.random.key(0)
    params, opt_state, metrics = trainer.step(params, opt_state, x, y, key)
    jax.block_until_ready(params)
    start = time.perf_counter()
    for _ in range(n):
        params, opt_state, metrics = trainer.step(params, opt_state, x, y, key)
    jax.block_until_ready((params, metrics))
    return (time.perf_counter() - start) / n


def case_time_steps():
    return time_steps()


def case_ok_time_steps_synced():
    return time_steps_ok()


if __name__ == "__main__":
    print(f"{time_steps_ok() * 1e3:.2f} ms/step")
