"""JNP603: wait for the timed result before the clock stops."""
import time

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
x = jnp.ones((50, 50))
start = time.perf_counter()
y = matmul(x)  # the work
elapsed = time.perf_counter() - start


def bench(v):
    times = []
    for _ in range(3):  # in a loop
        t0 = time.time()
        matmul(v)
        times.append(time.time() - t0)
    return times


class Timer:
    def run(self, v):
        begin = time.monotonic()
        out = matmul(
            v,
        ); end = time.monotonic()
        return out, end - begin


bench(x)
Timer().run(x)
