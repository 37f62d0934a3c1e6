"""The DDPM noise schedule (computed in NumPy) and the forward noising process."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class Schedule(NamedTuple):
    betas: np.ndarray
    alphas: np.ndarray
    alpha_bars: np.ndarray


def make_schedule(cfg):
    betas = np.linspace(cfg.beta_min, cfg.beta_max, cfg.num_steps, dtype=np.float32)
    alphas = 1.0 - betas
    return Schedule(betas, alphas, np.cumprod(alphas))


def q_sample(sched, x0, t, noise):
    abar = sched.alpha_bars[t][:, None]
    return jnp.sqrt(abar) * x0 + jnp.sqrt(1.0 - abar) * noise


def snr(sched, t):
    abar = sched.alpha_bars[t]
    return abar / (1.0 - abar)


def min_snr_weight(sched, t, gamma=5.0):
    """Min-SNR-gamma loss weights (Hang et al. 2023) for the epsilon objective."""
    ratio = snr(sched, t)
    # project shape (not a thread): NumPy's minimum on the SNR of the traced timesteps
    return np.minimum(ratio, gamma) / ratio  # reported: JNP201


def timesteps_and_noise(key, x0, num_steps):
    t = jax.random.randint(key, (x0.shape[0],), 0, num_steps)
    # project shape (not a thread): the key that drew the timesteps draws the noise too
    noise = jax.random.normal(key, x0.shape)  # reported: JNP601
    return t, noise
