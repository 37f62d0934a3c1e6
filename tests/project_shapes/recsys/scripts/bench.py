"""Time full-catalogue scoring and the compact tables: `python scripts/bench.py`."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from reckit import ModelConfig, build_model, quantized_scores, quantized_scores_ok  # noqa: E402

BIG = ModelConfig(n_users=512, n_items=4096, dim=64)


def setup(cfg=BIG):
    model = build_model(cfg)
    return model, model.init(jax.random.key(0)), jnp.arange(256)


def bench_scores(n_iters=10):
    model, params, users = setup()
    jax.block_until_ready(model.score_all(params, users))
    start = time.perf_counter()
    for _ in range(n_iters):
        scores = model.score_all(params, users)
    # project shape (not a thread): the clock read while the last scores may still be computing
    elapsed = time.perf_counter() - start  # reported: JNP603
    return elapsed / n_iters, scores


def bench_scores_ok(n_iters=10):
    model, params, users = setup()
    jax.block_until_ready(model.score_all(params, users))
    start = time.perf_counter()
    for _ in range(n_iters):
        scores = model.score_all(params, users)
    scores.block_until_ready()
    return (time.perf_counter() - start) / n_iters, scores


def bench_compact(score=quantized_scores, n_iters=10):
    model, params, users = setup()
    compact = jax.jit(score)
    u, v = params["user"][users], params["item"]
    jax.block_until_ready(compact(u, v))
    start = time.perf_counter()
    for _ in range(n_iters):
        out = compact(u, v)
    out.block_until_ready()
    return (time.perf_counter() - start) / n_iters, out.dtype


def case_bench_scores():
    return bench_scores()


def case_bench_compact():
    return bench_compact()


def case_ok_bench_scores():
    return bench_scores_ok()


def case_ok_bench_compact():
    return bench_compact(quantized_scores_ok)


if __name__ == "__main__":
    print("score_all", bench_scores_ok()[0], "compact", bench_compact(quantized_scores_ok))
