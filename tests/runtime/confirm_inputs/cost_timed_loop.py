"""--measure-cost: a training loop with float(x) on every step (JNP102, no mechanical fix) and a
clock read that nothing waited for (JNP603, whose fix waits): the JNP603 cost is measured."""
import time

import jax
import jax.numpy as jnp

STEPS = 3


@jax.jit
def step(x):
    return jnp.tanh(x @ x) / 10.0


def train(x):
    total = 0.0
    for _ in range(STEPS):
        x = step(x)
        total += float(x[0, 0])  # expect: JNP102
    start = time.perf_counter()
    y = step(x)
    elapsed = time.perf_counter() - start  # expect: JNP603
    return y, total, elapsed


def case_train_twice():
    """Returns what the fix keeps: the arrays and the total, not the clock."""
    x = jnp.ones((1000, 1000))
    y, total, _ = train(x)
    z, again, _ = train(y)
    return y, z, total + again
