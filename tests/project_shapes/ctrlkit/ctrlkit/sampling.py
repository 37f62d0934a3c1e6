"""Sampling planners: MPPI and the cross-entropy method, each a `plan(x0, mean, key)` method."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .rollout import batch_cost


class MPPI:
    def __init__(self, cfg, dynamics_fn, cost_fn, record=False):
        self.cfg = cfg
        self.temperature = cfg.temperature
        self.costs_of = batch_cost(dynamics_fn, cost_fn, record)

    def sample_noise(self, key, shape):
        return self.cfg.noise_scale * jax.random.normal(key, shape)

    def weights(self, costs):
        return jax.nn.softmax(-(costs - costs.min()) / self.temperature)

    def plan(self, x0, mean, key):
        def iteration(i, carry):
            mean, key = carry
            key, sub = jax.random.split(key)
            candidates = mean[None] + self.sample_noise(sub, (self.cfg.n_samples,) + mean.shape)
            w = self.weights(self.costs_of(x0, candidates))
            return jnp.einsum("s,shd->hd", w, candidates), key

        mean, _ = lax.fori_loop(0, self.cfg.n_iters, iteration, (mean, key))
        return mean


class LoggedMPPI(MPPI):
    def weights(self, costs):
        # project shape (not a thread): the best sampled cost printed from the fori_loop's body
        print("best sampled cost:", costs.min())  # reported: JNP301
        return super().weights(costs)


class LoggedMPPIOk(MPPI):
    def weights(self, costs):
        jax.debug.print("best sampled cost: {c}", c=costs.min())
        return super().weights(costs)


class HostNoiseMPPI(MPPI):
    """MPPI with the exploration noise drawn by NumPy's generator."""

    def sample_noise(self, key, shape):
        # project shape (not a thread): NumPy noise drawn inside the jitted plan
        return self.cfg.noise_scale * np.random.normal(size=shape)  # reported: JNP305


class CEM:
    def __init__(self, cfg, dynamics_fn, cost_fn, record=False):
        self.cfg = cfg
        self.costs_of = batch_cost(dynamics_fn, cost_fn, record)

    def elites(self, samples, costs):
        order = jnp.argsort(costs)
        return samples[order[: self.cfg.n_elites]]

    def plan(self, x0, mean, key):
        cfg = self.cfg

        def iteration(carry, _):
            mean, std, key = carry
            key, sub = jax.random.split(key)
            samples = mean + std * jax.random.normal(sub, (cfg.n_samples,) + mean.shape)
            costs = self.costs_of(x0, samples)
            elite = self.elites(samples, costs)
            return (elite.mean(axis=0), elite.std(axis=0) + 1e-3, key), costs.min()

        std = jnp.full_like(mean, cfg.noise_scale)
        (mean, _, _), _ = lax.scan(iteration, (mean, std, key), None, length=cfg.n_iters)
        return mean


class QuantileCEM(CEM):
    """CEM keeping every sample under the cost quantile, however many there are."""

    def elites(self, samples, costs):
        # project shape (not a thread): a boolean mask selecting the elites inside the scan
        return samples[costs <= jnp.quantile(costs, 0.1)]  # reported: JNP203


class TopKCEM(CEM):
    def elites(self, samples, costs):
        _, index = lax.top_k(-costs, self.cfg.n_elites)
        return samples[index]
