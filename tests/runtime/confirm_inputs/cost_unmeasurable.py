"""--measure-cost: findings whose cost cannot be measured. The first case returns a new random draw
on every call, so the JNP104 fix cannot be shown to keep its result; the others raise or hang from
their second call on (the runtime mode's own run calls each once; each version of the file counts
its own calls)."""
import os
import subprocess
import time

import jax
import jax.numpy as jnp
import numpy as np

CALLS = []
STEPS = 3


@jax.jit
def step(x):
    return jnp.tanh(x @ x) / 10.0


def case_returns_a_new_draw():
    table, total = np.ones(3, dtype=np.float32), jnp.zeros(3)
    for _ in range(STEPS):
        total = total + jnp.asarray(table)  # expect: JNP104
    return total, np.random.default_rng().random()


def timed_step(x):
    CALLS.append(x)
    start = time.perf_counter()
    y = step(x)
    elapsed = time.perf_counter() - start  # expect: JNP603
    return y, elapsed


def case_raises_when_called_again():
    y, _ = timed_step(jnp.ones((1000, 1000)))
    if len(CALLS) > 1:
        raise RuntimeError("called again")
    return y


def timed_steps(x):
    start = time.perf_counter()
    y = step(x)
    elapsed = time.perf_counter() - start  # expect: JNP603
    return y, elapsed


def case_hangs_when_called_again():
    """Hangs, with a child of its own, from its second call on; the pids go where the test says."""
    CALLS.append(None)
    if len(CALLS) > 1:
        child = subprocess.Popen(["sleep", "600"])
        for pid in (os.getpid(), child.pid):
            with open(os.path.join(os.environ.get("JAXNP_COST_PIDS", "."), f"{pid}.pid"), "w"):
                pass
        time.sleep(600)
    return timed_steps(jnp.ones((1000, 1000)))[0]
