"""Fit GP hyperparameters to an initial design: `python scripts/fit_gp.py [checkpoint-dir]`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402
import tempfile  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from bokit import (OBJECTIVES, BOConfig, HyperFitter, HyperFitterOk, KernelConfig, KeyStream,  # noqa: E402
                   Observations, add_noise, add_noise_ok, device_data_ok, fit_restarts, fit_restarts_ok,
                   init_params, initial_design, make_fit_step, set_jitter, to_host, to_host_ok)
from bokit import gp  # noqa: E402

CFG = BOConfig()


def setup(cfg=CFG, n=12):
    f, dim, _ = OBJECTIVES[cfg.objective]
    obs = Observations(dim)
    X0 = initial_design(np.random.default_rng(cfg.seed), n, dim)
    obs.add(X0, f(X0))
    X, y = device_data_ok(*obs.standardized())
    keys = KeyStream(cfg.seed)
    return X, y, keys, init_params(keys.next(), dim)


def fit(cfg=CFG, ckpt_dir=None, loss_name="mll"):
    X, y, keys, params = setup(cfg)
    opt, step = make_fit_step(cfg.kernel.name, cfg.kernel.prior, cfg.lr, cfg.donate, loss_name)
    opt_state = opt.init(params)
    path, losses = [], []
    for it in range(cfg.fit_steps):
        new_params, opt_state, loss = step(params, opt_state, X, y)
        if ckpt_dir and it % cfg.log_every == 0:
            # project shape (not a thread): the hyperparameters the step started from, saved after it donated them
            np.savez(os.path.join(ckpt_dir, f"hyp_{it}.npz"), **to_host_ok(params))  # reported: JNP605
        params = new_params
        # project shape (not a thread): the lengthscales copied to the host at every step, to plot their path
        path.append(np.asarray(params["log_lengthscale"]))  # reported: JNP101
        losses.append(loss)
    return params, jnp.stack(losses), np.stack(path)


def fit_ok(cfg=CFG, ckpt_dir=None, loss_name="mll_ok"):
    X, y, keys, params = setup(cfg)
    opt, step = make_fit_step(cfg.kernel.name, cfg.kernel.prior, cfg.lr, cfg.donate, loss_name)
    opt_state = opt.init(params)
    path, losses = [], []
    for it in range(cfg.fit_steps):
        params, opt_state, loss = step(params, opt_state, X, y)
        if ckpt_dir and it % cfg.log_every == 0:
            np.savez(os.path.join(ckpt_dir, f"hyp_{it}.npz"), **to_host_ok(params))
        path.append(jnp.exp(params["log_lengthscale"]))
        losses.append(loss)
    return params, jnp.stack(losses), np.log(np.asarray(jnp.stack(path)))


def fit_phases(cfg=dataclasses.replace(CFG, donate=False), jitters=(1e-6, 1e-1)):
    """A large jitter first, to get away from an ill-conditioned start, then the small one."""
    X, y, keys, params = setup(cfg)
    opt, step = make_fit_step(cfg.kernel.name, lr=cfg.lr, donate=False)
    opt_state, losses = opt.init(params), []
    for jitter in jitters:
        set_jitter(jitter)
        for _ in range(cfg.fit_steps):
            params, opt_state, loss = step(params, opt_state, X, y)
        losses.append(loss)
    set_jitter(1e-6)
    return losses


def fit_with(fitter_cls=HyperFitter, restarts=fit_restarts_ok, cfg=CFG):
    X, y, keys, _ = setup(cfg)
    fitter = fitter_cls(cfg.kernel.name, cfg.kernel.prior, cfg.lr)
    return restarts(fitter, keys.next(), X, y, cfg.n_restarts, cfg.fit_steps), fitter.losses


def case_fit():
    with tempfile.TemporaryDirectory() as tmp:
        return fit(ckpt_dir=tmp)


def case_fit_matern():
    params, losses, _ = fit(dataclasses.replace(CFG, kernel=KernelConfig(name="matern52"), donate=False))
    return jax.tree_util.tree_map(jnp.isnan, params), losses


def case_fit_periodic():
    return fit(dataclasses.replace(CFG, kernel=KernelConfig(name="periodic"), donate=False))


def case_fit_gamma_prior():
    return fit(dataclasses.replace(CFG, kernel=KernelConfig(prior="gamma"), donate=False))


def case_fit_checked():
    return fit(dataclasses.replace(CFG, donate=False), loss_name="mll_checked")


def case_fit_phases():
    return fit_phases()


def case_fitter():
    return fit_with()


def case_fit_restarts():
    return fit_with(HyperFitterOk, fit_restarts)


def case_to_host():
    return to_host(setup()[3])


def case_add_noise():
    X, y, keys, params = setup()
    return add_noise(gp.KERNELS["rbf"](params, X, X), 1e-3)


def case_posterior_mean():
    X, y, keys, params = setup()
    return gp.posterior_mean(gp.KERNELS["rbf"], params, X, y, X[:3])


def case_ok_fit():
    with tempfile.TemporaryDirectory() as tmp:
        return fit_ok(ckpt_dir=tmp)


def case_ok_fit_kernels():
    return [fit_ok(dataclasses.replace(CFG, kernel=KernelConfig(name=name, prior="gamma_ok")))[1]
            for name in ("matern52_ok", "periodic_ok", "rbf")]


def case_ok_fitter():
    return fit_with(HyperFitterOk)


def case_ok_to_host():
    return to_host_ok(setup()[3])


def case_ok_add_noise():
    X, y, keys, params = setup()
    return add_noise_ok(gp.KERNELS["rbf"](params, X, X), 1e-3)


def case_ok_posterior_mean():
    X, y, keys, params = setup()
    return gp.posterior_mean_ok(gp.KERNELS["rbf"], params, X, y, X[:3])


if __name__ == "__main__":
    params, losses, _ = fit_ok(ckpt_dir=sys.argv[1] if len(sys.argv) > 1 else None)
    print("final nll", float(losses[-1]), to_host_ok(params))
