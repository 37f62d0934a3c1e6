"""Ancestral (DDPM) and deterministic (DDIM) samplers."""
import functools

import jax
import jax.numpy as jnp
import numpy as np


class Sampler:
    """DDPM ancestral sampling with the predicted clean sample clipped to [-clip, clip]."""

    def __init__(self, model, sched, clip=3.0):
        self.model, self.sched, self.clip = model, jax.device_put(sched), clip

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, params, x, t, key):
        beta, alpha, abar = self.sched.betas[t], self.sched.alphas[t], self.sched.alpha_bars[t]
        eps = self.model(params, x, jnp.full((x.shape[0],), t))
        x0 = jnp.clip((x - jnp.sqrt(1.0 - abar) * eps) / jnp.sqrt(abar), -self.clip, self.clip)
        abar_prev = jnp.where(t > 0, self.sched.alpha_bars[jnp.maximum(t - 1, 0)], 1.0)
        mean = (jnp.sqrt(abar_prev) * beta * x0 + jnp.sqrt(alpha) * (1.0 - abar_prev) * x) / (1.0 - abar)
        noise = jax.random.normal(key, x.shape)
        return mean + jnp.where(t > 0, jnp.sqrt(beta), 0.0) * noise

    def sample(self, params, key, n, trajectory=None):
        key, init_key = jax.random.split(key)
        x = jax.random.normal(init_key, (n, 2))
        for t in reversed(range(len(self.sched.betas))):
            key, sub = jax.random.split(key)
            x = self.step(params, x, t, sub)
            if trajectory is not None:
                # project shape (not a thread): every step's samples copied to the host for an animation
                trajectory.append(np.asarray(x))  # reported: JNP101
        return x


@functools.partial(jax.jit, static_argnums=0, static_argnames=("t", "t_prev"))
def ddim_step(model, params, x, alpha_bars, t, t_prev):
    abar = alpha_bars[t]
    abar_prev = alpha_bars[t_prev] if t_prev >= 0 else 1.0
    eps = model(params, x, jnp.full((x.shape[0],), t))
    x0 = (x - jnp.sqrt(1.0 - abar) * eps) / jnp.sqrt(abar)
    return jnp.sqrt(abar_prev) * x0 + jnp.sqrt(1.0 - abar_prev) * eps


def ddim_sample(model, params, key, n, alpha_bars, num_steps=5):
    ts = np.linspace(len(alpha_bars) - 1, 0, num_steps).round().astype(int).tolist()
    x = jax.random.normal(key, (n, 2))
    for t, t_prev in zip(ts, ts[1:] + [-1]):
        # project shape (not a thread): a new static timestep every step, and the schedule passed
        # as the NumPy array make_schedule() returns
        x = ddim_step(model, params, x, alpha_bars, t=t, t_prev=t_prev)  # reported: JNP602 JNP104
    return x


@functools.partial(jax.jit, static_argnums=0)
def ddim_step_traced(model, params, x, alpha_bars, t, t_prev):
    abar = alpha_bars[t]
    abar_prev = jnp.where(t_prev >= 0, alpha_bars[jnp.maximum(t_prev, 0)], 1.0)
    eps = model(params, x, jnp.full((x.shape[0],), t))
    x0 = (x - jnp.sqrt(1.0 - abar) * eps) / jnp.sqrt(abar)
    return jnp.sqrt(abar_prev) * x0 + jnp.sqrt(1.0 - abar_prev) * eps


def ddim_sample_traced(model, params, key, n, alpha_bars, num_steps=5):
    alpha_bars = jnp.asarray(alpha_bars)
    ts = np.linspace(len(alpha_bars) - 1, 0, num_steps).round().astype(int).tolist()
    x = jax.random.normal(key, (n, 2))
    for t, t_prev in zip(ts, ts[1:] + [-1]):
        x = ddim_step_traced(model, params, x, alpha_bars, t, t_prev)
    return x
