"""Roll the operator forward in time from noisy initial conditions: `python scripts/rollout.py`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from opkit import DataConfig, FNOOk, PDEDataset, TrainConfig, init_fno_ok  # noqa: E402

CFG = TrainConfig(data=DataConfig(t_final=0.1, n_times=4))


def rollout(params, model, u0, grid, n_steps):
    """Feed each prediction back in as the next input."""
    states = [u0]
    for _ in range(n_steps):
        states.append(model.apply(params, states[-1], grid))
    return jnp.stack(states, axis=1)


def noisy_rollout(cfg=CFG, seed=0, noise=0.01):
    key = jax.random.key(seed)
    model = FNOOk(cfg.model)
    params = init_fno_ok(key, cfg.model)
    data = PDEDataset(cfg.data, "test")
    u0 = jnp.asarray(data.inputs, jnp.float32)
    # project shape (not a thread): the key that made the parameters drawn from again for the noise
    # (marked JNP601 as written; init_fno_ok splits the key, then it is drawn from: JNP606's, off by default)
    u0 = u0 + noise * jax.random.normal(key, u0.shape)  # reported: JNP606
    return rollout(params, model, u0, jnp.asarray(data.grid, jnp.float32), cfg.data.n_times)


def noisy_rollout_ok(cfg=CFG, seed=0, noise=0.01):
    k_init, k_noise = jax.random.split(jax.random.key(seed))
    model = FNOOk(cfg.model)
    params = init_fno_ok(k_init, cfg.model)
    data = PDEDataset(cfg.data, "test")
    u0 = jnp.asarray(data.inputs, jnp.float32)
    u0 = u0 + noise * jax.random.normal(k_noise, u0.shape)
    return rollout(params, model, u0, jnp.asarray(data.grid, jnp.float32), cfg.data.n_times)


def case_noisy_rollout():
    return noisy_rollout()


def case_ok_noisy_rollout():
    return noisy_rollout_ok(dataclasses.replace(CFG, seed=1))


if __name__ == "__main__":
    print(noisy_rollout_ok().shape)
