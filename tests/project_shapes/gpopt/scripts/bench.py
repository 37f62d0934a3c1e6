"""Time the posterior on a large candidate set: `python scripts/bench.py`."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from bokit import GP, GPOk, KernelConfig, init_params, initial_design  # noqa: E402


def setup(cls=GPOk, n=64, m=2048):
    model = cls(KernelConfig())
    rng = np.random.default_rng(0)
    X = jnp.asarray(initial_design(rng, n, 2))
    y = jnp.sin(3.0 * X[:, 0]) * jnp.cos(2.0 * X[:, 1])
    Xs = jnp.asarray(rng.uniform(size=(m, 2)), jnp.float32)
    return model, init_params(jax.random.key(0), 2), X, y, Xs


def bench(n_iters=5, cls=GPOk):
    model, params, X, y, Xs = setup(cls)
    jax.block_until_ready(model.predict(params, X, y, Xs))
    start = time.perf_counter()
    for _ in range(n_iters):
        mu, var = model.predict(params, X, y, Xs)
    # project shape (not a thread): the clock read while the last posteriors may still be computing
    elapsed = time.perf_counter() - start  # reported: JNP603
    return elapsed / n_iters, mu


def bench_ok(n_iters=5):
    model, params, X, y, Xs = setup()
    jax.block_until_ready(model.predict(params, X, y, Xs))
    start = time.perf_counter()
    for _ in range(n_iters):
        mu, var = model.predict(params, X, y, Xs)
    jax.block_until_ready((mu, var))
    return (time.perf_counter() - start) / n_iters, mu


def case_bench():
    return bench()


def case_bench_plain_gp():
    return bench(cls=GP)


def case_ok_bench():
    return bench_ok()


if __name__ == "__main__":
    print(f"{bench_ok()[0] * 1e3:.2f} ms per posterior")
