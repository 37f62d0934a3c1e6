"""--measure-cost: a training loop with float(x) on every step (JNP102, no mechanical fix), the
same NumPy data uploaded on every step (JNP104, whose fix uploads it once before the loop), a
lambda jitted on every step (JNP602, whose fix jits it once) and a clock read that nothing waited
for (JNP603, whose fix waits): each gets a figure where it happens, JNP104 and JNP602 one against
their fix too."""
import time

import jax
import jax.numpy as jnp
import numpy as np

STEPS = 3


@jax.jit
def step(x):
    return jnp.tanh(x @ x) / 10.0


def train(x):
    total, bias = 0.0, np.full((1000, 1000), 0.5, dtype=np.float32)
    for _ in range(STEPS):
        x = step(x + jnp.asarray(bias))  # expect: JNP104
        total += float(x[0, 0])  # expect: JNP102
        x = jax.jit(lambda v: v * 0.5)(x)  # expect: JNP602
    start = time.perf_counter()
    y = step(x)
    elapsed = time.perf_counter() - start  # expect: JNP603
    return y, total, elapsed


def case_train_twice():
    """Returns what the fixes keep: the arrays and the total, not the clock."""
    x = jnp.ones((1000, 1000))
    y, total, _ = train(x)
    z, again, _ = train(y)
    return y, z, total + again
