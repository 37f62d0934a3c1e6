"""The Bayesian-optimisation loop: fit the GP, score candidates, evaluate the best, repeat."""
import jax
import jax.numpy as jnp
import numpy as np

from .acquisition import ACQUISITIONS, lower_confidence_bound
from .candidates import around, uniform
from .fitting import HyperFitterOk
from .gp import GPOk, posterior
from .objectives import Observations


def device_data(X, y):
    """The observations on the device, in double precision as GP code usually wants them."""
    # project shape (not a thread): float64 asked of JAX without x64
    return jnp.asarray(X, dtype=jnp.float64), jnp.asarray(y, dtype=jnp.float64)  # reported: JNP402


def device_data_ok(X, y):
    return jnp.asarray(X, dtype=jnp.float32), jnp.asarray(y, dtype=jnp.float32)


def next_point(cands, scores):
    """The best-scoring candidate, on the host for the objective."""
    return np.asarray(cands[jnp.argmax(scores)])


class BayesOpt:
    """Scores candidates with a GP; the scoring is jitted from a method in __init__."""

    def __init__(self, cfg, dim):
        self.cfg, self.dim = cfg, dim
        self.gp = GPOk(cfg.kernel)
        self.fitter = HyperFitterOk(cfg.kernel.name, cfg.kernel.prior, cfg.lr)
        self.beta = cfg.acq.beta
        self.lo, self.hi = jnp.zeros(dim), jnp.ones(dim)
        self.trace = []
        self.score = jax.jit(self._score)

    def _score(self, params, X, y, cands):
        mu, var = posterior(self.gp.kernel, params, X, y, cands)
        if self.cfg.acq.name == "lcb":
            scores = lower_confidence_bound(mu, var, jnp.min(y), self.beta)
        else:
            scores = ACQUISITIONS[self.cfg.acq.name](mu, var, jnp.min(y))
        if self.cfg.acq.debug:
            # project shape (not a thread): the best score kept on the object from inside the jitted scoring
            self.trace.append(scores.max())  # reported: JNP303
        return scores

    def scores(self, params, X, y, cands):
        return self.score(params, X, y, cands)

    def suggest(self, key, params, X, y):
        cands = uniform(key, self.cfg.acq.n_candidates, self.lo, self.hi)
        x_best = cands[jnp.argmax(self.scores(params, X, y, cands))]
        # project shape (not a thread): the key of the uniform candidates drawn from again for the local ones
        local = around(key, x_best, self.cfg.acq.n_candidates // 4)  # reported: JNP601
        cands = jnp.concatenate([cands, local])
        return cands[jnp.argmax(self.scores(params, X, y, cands))]

    def anneal(self):
        # project shape (not a thread): beta lowered on the object whose bound method was jitted once
        self.beta = self.beta * self.cfg.acq.beta_decay  # reported: JNP306

    def run(self, f, X0, keys, n_iters):
        obs = Observations(self.dim)
        obs.add(X0, f(X0))
        params = self.gp.init_params(keys.next(), self.dim)
        for _ in range(n_iters):
            X, y = device_data_ok(*obs.standardized())
            params = self.fitter.fit(params, X, y, self.cfg.fit_steps)
            # project shape (not a thread): the next point read back on every iteration for the NumPy objective
            x = np.asarray(self.suggest(keys.next(), params, X, y))  # reported: JNP101
            obs.add(x, f(x[None]))
            self.anneal()
        return obs


class BayesOptOk(BayesOpt):
    def __init__(self, cfg, dim):
        super().__init__(cfg, dim)
        self.score = jax.jit(self._score_beta)

    def _score_beta(self, params, X, y, cands, beta):
        mu, var = posterior(self.gp.kernel, params, X, y, cands)
        if self.cfg.acq.name == "lcb":
            return lower_confidence_bound(mu, var, jnp.min(y), beta)
        return ACQUISITIONS[self.cfg.acq.name](mu, var, jnp.min(y))

    def scores(self, params, X, y, cands):
        scores = self.score(params, X, y, cands, self.beta)
        if self.cfg.acq.debug:
            self.trace.append(scores.max())
        return scores

    def suggest(self, key, params, X, y):
        k_uniform, k_local = jax.random.split(key)
        cands = uniform(k_uniform, self.cfg.acq.n_candidates, self.lo, self.hi)
        x_best = cands[jnp.argmax(self.scores(params, X, y, cands))]
        cands = jnp.concatenate([cands, around(k_local, x_best, self.cfg.acq.n_candidates // 4)])
        return cands[jnp.argmax(self.scores(params, X, y, cands))]
