"""Minimise a test function by Bayesian optimisation: `python scripts/optimize.py [objective]`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402

from bokit import (ACQUISITIONS, OBJECTIVES, AcqConfig, BayesOpt, BayesOptOk, BOConfig, GPOk, KeyStream,  # noqa: E402
                   Observations, grid, initial_design, neg_mll, neg_mll_ok, next_point, simple_regret,
                   simple_regret_ok)

CFG = BOConfig()
CFG_LCB = dataclasses.replace(CFG, acq=AcqConfig(name="lcb", beta=3.0, beta_decay=0.5))


def start(cfg):
    f, dim, optimum = OBJECTIVES[cfg.objective]
    obs = Observations(dim)
    X0 = initial_design(np.random.default_rng(cfg.seed), cfg.n_init, dim)
    obs.add(X0, f(X0))
    return f, dim, optimum, obs, KeyStream(cfg.seed), X0


def optimize(cfg=CFG, cls=BayesOpt):
    f, dim, optimum, _, keys, X0 = start(cfg)
    bo = cls(cfg, dim)
    obs = bo.run(f, X0, keys, cfg.n_iters)
    return obs.best(), bo


def optimize_on_grid(cfg=CFG):
    """A grid search of the acquisition, the hyperparameters refitted on every iteration."""
    f, dim, optimum, obs, keys, _ = start(cfg)
    gp, opt = GPOk(cfg.kernel), optax.adam(cfg.lr)
    params = gp.init_params(keys.next(), dim)
    cands = grid(12, dim)
    for it in range(cfg.n_iters):
        X, y = obs.standardized()
        opt_state = opt.init(params)
        for _ in range(cfg.fit_steps):
            # project shape (not a thread): the loss closes over this iteration's data and is jitted again at every step
            loss, grads = jax.jit(jax.value_and_grad(lambda p: neg_mll(p, X, y, cfg.kernel.name)))(params)  # reported: JNP602
            updates, opt_state = opt.update(grads, opt_state, params)
            params = optax.apply_updates(params, updates)
        # project shape (not a thread): the same NumPy grid uploaded at every iteration
        mu, var = gp.predict(params, X, y, cands)  # reported: JNP104
        x = next_point(cands, ACQUISITIONS[cfg.acq.name](mu, var, jnp.min(y)))
        obs.add(x, f(x[None]))
        # project shape (not a thread): every iteration formats the device loss and predicted minimum
        print(f"iter {it:2d} nll {loss:.3f} predicted min {jnp.min(mu):.3f}")  # reported: JNP103
    return simple_regret(obs.y.tolist(), optimum)


def optimize_on_grid_ok(cfg=CFG):
    f, dim, optimum, obs, keys, _ = start(cfg)
    gp, opt = GPOk(cfg.kernel), optax.adam(cfg.lr)
    params = gp.init_params(keys.next(), dim)
    cands = jnp.asarray(grid(12, dim))
    loss_and_grad = jax.jit(jax.value_and_grad(neg_mll_ok), static_argnames=("kernel", "prior"))
    losses = []
    for it in range(cfg.n_iters):
        X, y = obs.standardized()
        opt_state = opt.init(params)
        for _ in range(cfg.fit_steps):
            # project shape (not a thread), marked after the first measure (the runtime mode confirms it): the
            # iteration's NumPy X and y uploaded again at every fitting step
            loss, grads = loss_and_grad(params, X, y, kernel=cfg.kernel.name)  # reported: JNP104
            updates, opt_state = opt.update(grads, opt_state, params)
            params = optax.apply_updates(params, updates)
        mu, var = gp.predict(params, X, y, cands)
        x = next_point(cands, ACQUISITIONS[cfg.acq.name](mu, var, jnp.min(y)))
        obs.add(x, f(x[None]))
        losses.append(loss)
    print("nll per iteration", np.asarray(jnp.stack(losses)).round(3).tolist())
    return simple_regret_ok(obs.y.tolist(), optimum)


def case_optimize():
    return optimize()


def case_optimize_lcb():
    return optimize(CFG_LCB)


def case_optimize_debug():
    return optimize(dataclasses.replace(CFG, acq=AcqConfig(debug=True)))


def case_optimize_on_grid():
    return optimize_on_grid()


def case_ok_optimize():
    return optimize(cls=BayesOptOk)


def case_ok_optimize_lcb():
    return optimize(CFG_LCB, BayesOptOk)


def case_ok_optimize_debug():
    return optimize(dataclasses.replace(CFG, acq=AcqConfig(debug=True)), BayesOptOk)


def case_ok_optimize_on_grid():
    return optimize_on_grid_ok()


if __name__ == "__main__":
    objective = sys.argv[1] if len(sys.argv) > 1 else "branin"
    (x, y), _ = optimize(dataclasses.replace(CFG, objective=objective, n_iters=10), BayesOptOk)
    print("best", x, y, "regret", y - OBJECTIVES[objective][2])
