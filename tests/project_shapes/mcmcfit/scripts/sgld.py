"""Stochastic-gradient Langevin dynamics on the logistic posterior: `python scripts/sgld.py`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402
import functools  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from bayeskit import Dataset, KeyStream, RunConfig, sgld_chain, sgld_step  # noqa: E402
from bayeskit.sgld import _sgld_step  # noqa: E402

CFG = RunConfig(n_samples=12)


def full_batch(cfg=CFG, step_size=1e-3):
    """Langevin steps on the whole data set, the positions kept on the host."""
    data, keys = Dataset(cfg), KeyStream(cfg.seed)
    theta = jnp.zeros(cfg.model.n_features)
    trace = []
    for key in keys.take(cfg.n_samples):
        # project shape (not a thread): the same NumPy features and labels uploaded on every step
        theta = sgld_step(theta, key, data.x, data.y, step_size, len(data))  # reported: JNP104
        # project shape (not a thread): each position copied to the host as it is drawn
        trace.append(jax.device_get(theta))  # reported: JNP101
    return np.stack(trace)


def full_batch_ok(cfg=CFG, step_size=1e-3):
    data, keys = Dataset(cfg), KeyStream(cfg.seed)
    x, y = jax.device_put((data.x, data.y))
    theta = jnp.zeros(cfg.model.n_features)
    trace = []
    for key in keys.take(cfg.n_samples):
        theta = sgld_step(theta, key, x, y, step_size, len(data))
        trace.append(theta)
    return jax.device_get(jnp.stack(trace))


def minibatch(cfg=CFG, step_size=1e-3):
    """Minibatches change every step, so uploading each one is the work to do."""
    data, keys = Dataset(cfg), KeyStream(cfg.seed)
    batches = data.minibatches(np.random.default_rng(cfg.seed), cfg.batch_size)
    theta = jnp.zeros(cfg.model.n_features)
    trace = []
    for key in keys.take(cfg.n_samples):
        x, y = next(batches)
        theta = sgld_step(theta, key, x, y, step_size, len(data))
        trace.append(theta)
    return jax.device_get(jnp.stack(trace))


def decaying(cfg=CFG, step_size=1e-3, decay=0.55):
    """Step sizes that decay as a / (1 + t) ** decay, each step jitted with its own."""
    data, keys = Dataset(cfg), KeyStream(cfg.seed)
    x, y = jax.device_put((data.x, data.y))
    theta = jnp.zeros(cfg.model.n_features)
    for t, key in enumerate(keys.take(cfg.n_samples)):
        # project shape (not a thread): a fresh jit of the step with this iteration's step size bound in
        step = jax.jit(functools.partial(_sgld_step, step_size=step_size / (1 + t) ** decay, n_data=len(data)))  # reported: JNP602
        theta = step(theta, key, x, y)
    return theta


def decaying_ok(cfg=CFG, step_size=1e-3, decay=0.55):
    data, keys = Dataset(cfg), KeyStream(cfg.seed)
    x, y = jax.device_put((data.x, data.y))
    theta = jnp.zeros(cfg.model.n_features)
    for t, key in enumerate(keys.take(cfg.n_samples)):
        theta = sgld_step(theta, key, x, y, step_size / (1 + t) ** decay, len(data))
    return theta


def running_mean(cfg=CFG, step_size=1e-3):
    """The posterior mean accumulated in half precision to save memory on large models."""
    data, keys = Dataset(cfg), KeyStream(cfg.seed)
    _, thetas = sgld_chain(jnp.zeros(cfg.model.n_features), jnp.stack(keys.take(cfg.n_samples)), data.x, data.y,
                           step_size, len(data))
    mean = jnp.zeros(cfg.model.n_features, dtype=jnp.bfloat16)
    for t in range(cfg.n_samples):
        # project shape (not a thread): a bfloat16 accumulator plus a float32 draw, silently float32 from then on
        mean = mean + (thetas[t] - mean) / (t + 1)  # reported: JNP401
    return mean


def running_mean_ok(cfg=CFG, step_size=1e-3):
    data, keys = Dataset(cfg), KeyStream(cfg.seed)
    _, thetas = sgld_chain(jnp.zeros(cfg.model.n_features), jnp.stack(keys.take(cfg.n_samples)), data.x, data.y,
                           step_size, len(data))
    return jnp.mean(thetas, axis=0).astype(jnp.bfloat16)


def case_full_batch():
    return full_batch()


def case_decaying():
    return decaying()


def case_running_mean():
    return running_mean()


def case_ok_full_batch():
    return full_batch_ok()


def case_ok_minibatch():
    return minibatch(dataclasses.replace(CFG, n_samples=4))


def case_ok_decaying():
    return decaying_ok()


def case_ok_running_mean():
    return running_mean_ok()


if __name__ == "__main__":
    print(full_batch_ok()[-1])
