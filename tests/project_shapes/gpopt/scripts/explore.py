"""Compare acquisition functions and candidate generators on a fitted GP: `python scripts/explore.py`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402
import functools  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from bokit import (ACQUISITIONS, OBJECTIVES, AcqConfig, BayesOptOk, BOConfig, KeyStream, Observations,  # noqa: E402
                   best_feasible, best_feasible_ok, device_data, device_data_ok, initial_design, posterior,
                   refine, refine_ok, uniform, uniform_half, uniform_half_ok)
from bokit import acquisition  # noqa: E402

CFG = BOConfig()


def fitted(cfg=CFG, to_device=device_data_ok):
    f, dim, _ = OBJECTIVES[cfg.objective]
    obs = Observations(dim)
    X0 = initial_design(np.random.default_rng(cfg.seed), 10, dim)
    obs.add(X0, f(X0))
    X, y = to_device(*obs.standardized())
    keys = KeyStream(cfg.seed)
    bo = BayesOptOk(cfg, dim)
    params = bo.fitter.fit(bo.gp.init_params(keys.next(), dim), X, y, cfg.fit_steps)
    return bo, params, X, y, keys


def score_with(name, cfg=CFG):
    bo, params, X, y, keys = fitted(cfg)
    score = jax.jit(lambda cands: ACQUISITIONS[name](*posterior(bo.gp.kernel, params, X, y, cands), jnp.min(y)))
    return [score(uniform(keys.next(), 64, bo.lo, bo.hi)) for _ in range(3)]


def choose(pick, cfg=CFG):
    bo, params, X, y, keys = fitted(cfg)
    cands = uniform(keys.next(), 64, bo.lo, bo.hi)
    return jax.jit(pick)(cands, bo.score(params, X, y, cands, bo.beta))


def refined(refiner, cfg=CFG):
    bo, params, X, y, keys = fitted(cfg)
    score_fn = functools.partial(bo.score, params, X, y, beta=bo.beta)
    step = jax.jit(functools.partial(refiner, score_fn))
    x = jnp.full((bo.dim,), 0.5)
    if refiner is refine:
        return [step(x) for _ in range(3)]
    return [step(x, keys.next()) for _ in range(3)]


def case_ei():
    return score_with("ei")


def case_counted_ei():
    before = acquisition.N_SCORED
    bo, params, X, y, keys = fitted(dataclasses.replace(CFG, acq=AcqConfig(name="counted_ei")))
    for _ in range(4):
        bo.suggest(keys.next(), params, X, y)
    return acquisition.N_SCORED - before


def case_debug_ei():
    return score_with("debug_ei")


def case_best_feasible():
    return choose(best_feasible)


def case_refine():
    return refined(refine)


def case_uniform_half():
    bo, params, X, y, keys = fitted()
    return uniform_half(keys.next(), 64, bo.lo, bo.hi).dtype


def case_device_data():
    return fitted(to_device=device_data)[2].dtype


def case_ok_scores():
    return [score_with(name) for name in ("ei_ok", "lcb", "debug_ei_ok")]


def case_ok_best_feasible():
    return choose(best_feasible_ok)


def case_ok_refine():
    return refined(refine_ok)


def case_ok_uniform_half():
    bo, params, X, y, keys = fitted()
    return uniform_half_ok(keys.next(), 64, bo.lo, bo.hi).dtype


if __name__ == "__main__":
    for name in ("ei_ok", "lcb"):
        # project shape (not a thread): each score's maximum read back on its own
        print(name, [float(s.max()) for s in score_with(name)])  # reported: JNP102
