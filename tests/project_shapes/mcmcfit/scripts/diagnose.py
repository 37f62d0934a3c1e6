"""Convergence diagnostics of saved or freshly drawn chains: `python scripts/diagnose.py`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from bayeskit import KeyStream, diagnostics  # noqa: E402


def fake_draws(seed=0, chains=2, n=16, dims=2):
    """Autocorrelated draws from an AR(1) process, one per chain and dimension."""
    keys = KeyStream(seed)
    noise = jax.random.normal(keys.next(), (chains, n, dims))
    rows = [noise[:, 0]]
    for t in range(1, n):
        rows.append(0.7 * rows[-1] + noise[:, t])
    return jnp.stack(rows, axis=1)


def case_ess_eager():
    return diagnostics.effective_sample_size(fake_draws())


def case_quantiles():
    return diagnostics.quantiles(fake_draws())


def case_worst_rhat():
    return diagnostics.worst_rhat([fake_draws(0), fake_draws(1)])


def case_as_float():
    return diagnostics.as_float_draws(np.asarray(fake_draws(), dtype=np.float32))


def case_mean_log_density():
    return diagnostics.mean_log_density(fake_draws()[..., 0])


def case_evidence():
    grid = jnp.linspace(-4.0, 4.0, 33)
    return diagnostics.normalising_constant(-0.5 * grid ** 2, grid)


def case_jittered_inits():
    return KeyStream(0).jitter((2, 3), 0.5)


def case_ok_diagnostics():
    draws = fake_draws()
    return (diagnostics.effective_sample_size_ok(draws), diagnostics.quantiles_ok(draws),
            diagnostics.worst_rhat_ok([draws, fake_draws(1)]), diagnostics.as_float_draws_ok(draws),
            diagnostics.mean_log_density_ok(draws[..., 0]))


def case_ok_evidence():
    grid = jnp.linspace(-4.0, 4.0, 33)
    return diagnostics.normalising_constant_ok(-0.5 * grid ** 2, grid)


def case_ok_jittered_inits():
    return KeyStream(0).jitter_ok((2, 3), 0.5)


if __name__ == "__main__":
    print(diagnostics.summary_ok(fake_draws()))
