"""Sample the posterior of a logistic regression with several chains: `python scripts/sample.py`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from bayeskit import (Dataset, KeyStream, ModelConfig, KernelConfig, Posterior, PosteriorOk, RunConfig,  # noqa: E402
                      Sampler, SamplerOk, make_log_density, set_prior_scale, stack_chains, stack_chains_ok, summary,
                      summary_ok)
from bayeskit import diagnostics, kernels  # noqa: E402
from bayeskit.models import log_prior_ok, logistic_log_lik  # noqa: E402

CFG = RunConfig()
CFG_OK = RunConfig(kernel=KernelConfig(name="hmc_ok"))


def setup(cfg, sampler_cls=Sampler, **kwargs):
    data = Dataset(cfg)
    log_density = make_log_density(cfg.model, data.x, data.y)
    return data, sampler_cls(log_density, cfg, **kwargs), KeyStream(cfg.seed)


def run_chains(cfg=CFG, sampler_cls=Sampler):
    data, sampler, keys = setup(cfg, sampler_cls)
    finals, all_draws = [], []
    for chain in range(cfg.n_chains):
        state = sampler.init(keys.jitter_ok((cfg.model.n_features,), 0.5))
        state = sampler.warmup(state, keys.take(cfg.n_warmup))
        state, draws, accept_rate = sampler.sample(state, keys.take(cfg.n_samples))
        finals.append(state)
        all_draws.append(draws)
        # project shape (not a thread): each chain's last log density formatted on the host
        print(f"chain {chain}: accept {accept_rate:.2f}, log density {state.log_density:.3f}")  # reported: JNP103
    return stack_chains_ok(finals), jnp.stack(all_draws)


def run_chains_same_key(cfg=CFG_OK):
    data, sampler, keys = setup(cfg, SamplerOk)
    key = keys.next()
    chains = []
    for chain in range(cfg.n_chains):
        state = sampler.init(jnp.zeros(cfg.model.n_features))
        chain_keys = jax.random.split(key, cfg.n_samples)
        # project shape (not a thread): every chain's keys split from one key, so the chains are copies
        state, draws, _ = sampler.sample(state, chain_keys)  # reported: JNP601
        chains.append(draws)
    return jnp.stack(chains)


def run_chains_ok(cfg=CFG_OK):
    data, sampler, keys = setup(cfg, SamplerOk)
    finals, all_draws, rates = [], [], []
    for chain in range(cfg.n_chains):
        state = sampler.init(keys.jitter_ok((cfg.model.n_features,), 0.5))
        state = sampler.warmup(state, keys.take(cfg.n_warmup))
        state, draws, accept_rate = sampler.sample(state, keys.take(cfg.n_samples))
        finals.append(state)
        all_draws.append(draws)
        rates.append(accept_rate)
    print("accept", rates)
    return stack_chains_ok(finals), jnp.stack(all_draws)


def tempered(cfg=CFG_OK, scales=(4.0, 1.0)):
    """The same sampler run under a prior that narrows between phases."""
    data, sampler, keys = setup(cfg, SamplerOk)
    state = sampler.init(jnp.zeros(cfg.model.n_features))
    draws = []
    for scale in scales:
        set_prior_scale(scale)
        state, phase_draws, _ = sampler.sample(state, keys.take(cfg.n_samples))
        draws.append(phase_draws)
    set_prior_scale(1.0)
    return jnp.concatenate(draws)


def tempered_ok(cfg=CFG, scales=(4.0, 1.0)):
    data = Dataset(cfg)
    keys = KeyStream(cfg.seed)
    step = jax.jit(lambda state, key, scale: kernels.hmc_step_ok(
        lambda theta: log_prior_ok(theta, scale) + logistic_log_lik(theta, data.x, data.y), state, key,
        cfg.kernel.step_size, cfg.kernel.n_leapfrog))
    draws = []
    for scale in scales:
        log_density = lambda theta: log_prior_ok(theta, scale) + logistic_log_lik(theta, data.x, data.y)  # noqa: E731
        state = kernels.init_state(log_density, jnp.zeros(cfg.model.n_features))
        for key in keys.take(cfg.n_samples):
            state, _ = step(state, key, scale)
            draws.append(state.position)
    return jnp.stack(draws)


def case_run_chains():
    return run_chains()[1]


def case_run_chains_rwm():
    return run_chains(dataclasses.replace(CFG, kernel=KernelConfig(name="rwm"), donate=False), SamplerOk)[1]


def case_run_chains_greedy():
    return run_chains(dataclasses.replace(CFG, kernel=KernelConfig(name="rwm_greedy")), SamplerOk)[1]


def case_run_chains_debug():
    return run_chains(dataclasses.replace(CFG, debug=True, n_chains=1), SamplerOk)[1]


def case_run_chains_trajectory():
    cfg = dataclasses.replace(CFG, donate=False)
    path = []
    data, sampler, keys = setup(cfg, Sampler, path=path)
    state = sampler.init(jnp.zeros(cfg.model.n_features))
    sampler.sample(state, keys.take(2))
    return path


def case_run_chains_same_key():
    return run_chains_same_key()


def case_tempered():
    return tempered()


def case_hierarchical_gradient():
    data = Dataset(CFG)
    log_density = make_log_density(dataclasses.replace(CFG.model, name="hierarchical"), data.x, data.y)
    return jax.grad(log_density)(jnp.array([-0.5, 0.1, 0.2]))


def case_robust_likelihood():
    cfg = dataclasses.replace(CFG_OK, model=ModelConfig(name="robust"), n_chains=1)
    return run_chains(cfg, SamplerOk)[1]


def case_posterior_method():
    data = Dataset(CFG)
    return Posterior(CFG.model, data.x, data.y).log_density(jnp.zeros(CFG.model.n_features))


def case_stack_chains():
    _, sampler, keys = setup(CFG_OK, SamplerOk)
    return stack_chains([sampler.init(jnp.zeros(CFG.model.n_features)) for _ in range(2)])


def case_summary():
    _, draws = run_chains_ok()
    return summary(draws)


def case_ok_run_chains():
    return run_chains_ok()[1]


def case_ok_run_chains_kernels():
    return [run_chains_ok(dataclasses.replace(CFG, kernel=KernelConfig(name=name), debug=True, n_chains=1))[1]
            for name in ("rwm_ok", "hmc_ok")]


def case_ok_hierarchical_gradient():
    data = Dataset(CFG)
    log_density = make_log_density(dataclasses.replace(CFG.model, name="hierarchical_ok"), data.x, data.y)
    return jax.grad(log_density)(jnp.array([-0.5, 0.1, 0.2]))


def case_ok_robust_likelihood():
    return run_chains_ok(dataclasses.replace(CFG_OK, model=ModelConfig(name="robust_ok"), n_chains=1))[1]


def case_ok_posterior_method():
    data = Dataset(CFG)
    return PosteriorOk(data.x, data.y).log_density(jnp.zeros(CFG.model.n_features))


def case_ok_tempered():
    return tempered_ok()


def case_ok_summary():
    _, draws = run_chains_ok()
    return summary_ok(draws), diagnostics.quantiles_ok(draws), diagnostics.worst_rhat_ok([draws, draws])


if __name__ == "__main__":
    _, draws = run_chains_ok()
    print(jax.device_get(summary_ok(draws)))
