"""Time the forward pass: `python scripts/bench.py`."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from opkit import FNOOk, PDEDataset, TrainConfig, init_fno_ok  # noqa: E402

CFG = TrainConfig()


def setup(cfg=CFG):
    model = FNOOk(cfg.model)
    params = init_fno_ok(jax.random.key(0), cfg.model)
    data = PDEDataset(cfg.data, "test")
    return jax.jit(model.apply), params, jnp.asarray(data.inputs, jnp.float32), jnp.asarray(data.grid, jnp.float32)


def bench(n_iters=5):
    predict, params, u, grid = setup()
    predict(params, u, grid).block_until_ready()
    start = time.perf_counter()
    for _ in range(n_iters):
        out = predict(params, u, grid)
    # project shape (not a thread): the clock read while the last forward passes may still be running
    elapsed = time.perf_counter() - start  # reported: JNP603
    return elapsed / n_iters, out


def bench_ok(n_iters=5):
    predict, params, u, grid = setup()
    predict(params, u, grid).block_until_ready()
    start = time.perf_counter()
    for _ in range(n_iters):
        out = predict(params, u, grid)
    out.block_until_ready()
    return (time.perf_counter() - start) / n_iters, out


def case_bench():
    return bench()


def case_ok_bench():
    return bench_ok()


if __name__ == "__main__":
    print(f"{bench_ok()[0] * 1e3:.2f} ms per forward pass")
