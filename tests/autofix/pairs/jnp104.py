"""JNP104: upload loop-invariant host data once, before the loop."""
import jax
import jax.numpy as jnp
import numpy as np

STEPS = 100

features = np.ones((8, 3), dtype=np.float32)
params = jnp.zeros(3)
for step in range(STEPS):  # at the top level
    params = params + jnp.asarray(features).mean(axis=0)


@jax.jit
def update(p, f):
    return p - 0.1 * jnp.mean(f, axis=0)


def train(params):
    weights = np.linspace(0.0, 1.0, 3, dtype=np.float32)
    step = 0

    # the loop
    while step < STEPS:
        params = params + jax.device_put(
            weights,
        )  # over several lines
        step += 1
    return params


def passed_to_a_jitted_step(params):
    for _ in range(STEPS):
        params = update(params, features)
    return params


def nested(params):
    table = np.arange(3, dtype=np.float32)
    for epoch in range(STEPS):
        for _ in range(STEPS):  # the upload goes above both loops (one a round)
            params = params + jnp.array(table)
    return params


class Trainer:
    def run(self, params):
        data = np.ones(3, dtype=np.float32)
        for _ in range(STEPS):
            params = params * jnp.asarray(data); params = params + 1.0
        return params


def in_a_comprehension():
    table = np.arange(6, dtype=np.int32)
    return [jnp.array(table) * k for k in range(STEPS)]  # no fix


def name_taken(params):
    mask = np.ones(3, dtype=np.float32)
    mask_on_device = None
    for _ in range(STEPS):
        params = params + jnp.asarray(mask)  # no fix: the name is taken
    return params, mask_on_device


def one_line_loop(params):
    data = np.ones(3, dtype=np.float32)
    for _ in range(STEPS): params = params + jnp.asarray(data)  # a loop on one line
    return params
