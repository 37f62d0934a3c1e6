"""Convergence diagnostics of draws shaped (chains, draws, dims): R-hat, ESS, summaries."""
import jax
import jax.numpy as jnp
import numpy as np


def split_rhat(draws):
    chains, n, _ = draws.shape
    halves = jnp.concatenate([draws[:, : n // 2], draws[:, n - n // 2:]], axis=0)
    within = jnp.mean(jnp.var(halves, axis=1, ddof=1), axis=0)
    between = (n // 2) * jnp.var(jnp.mean(halves, axis=1), axis=0, ddof=1)
    return jnp.sqrt(((n // 2 - 1) / (n // 2) * within + between / (n // 2)) / within)


def autocorrelation(chain):
    """The normalised autocorrelation of one chain's draws of one coordinate, by FFT."""
    n = chain.shape[0]
    centred = chain - chain.mean()
    spectrum = jnp.fft.rfft(centred, 2 * n)
    acf = jnp.fft.irfft(spectrum * jnp.conj(spectrum))[:n]
    acf = acf / acf[0]
    # project shape (not a thread): the lag-zero term pinned to one in place, as with a NumPy array
    acf[0] = 1.0  # reported: JNP501
    return acf


def autocorrelation_ok(chain):
    n = chain.shape[0]
    centred = chain - chain.mean()
    spectrum = jnp.fft.rfft(centred, 2 * n)
    acf = jnp.fft.irfft(spectrum * jnp.conj(spectrum))[:n]
    return (acf / acf[0]).at[0].set(1.0)


def effective_sample_size(draws, acf_fn=autocorrelation):
    chains, n, dims = draws.shape
    ess = []
    for d in range(dims):
        rho = jnp.mean(jnp.stack([acf_fn(draws[c, :, d]) for c in range(chains)]), axis=0)
        # project shape (not a thread): the positive autocorrelations picked by a boolean mask inside the jitted summary
        tau = 1.0 + 2.0 * jnp.sum(rho[1:][rho[1:] > 0])  # reported: JNP203
        ess.append(chains * n / tau)
    return jnp.stack(ess)


def effective_sample_size_ok(draws):
    chains, n, dims = draws.shape
    ess = []
    for d in range(dims):
        rho = jnp.mean(jnp.stack([autocorrelation_ok(draws[c, :, d]) for c in range(chains)]), axis=0)
        tau = 1.0 + 2.0 * jnp.sum(jnp.where(rho[1:] > 0, rho[1:], 0.0))
        ess.append(chains * n / tau)
    return jnp.stack(ess)


@jax.jit
def summary(draws):
    return {"mean": jnp.mean(draws, axis=(0, 1)), "sd": jnp.std(draws, axis=(0, 1)), "rhat": split_rhat(draws),
            "ess": effective_sample_size(draws, autocorrelation_ok)}


@jax.jit
def summary_ok(draws):
    return {"mean": jnp.mean(draws, axis=(0, 1)), "sd": jnp.std(draws, axis=(0, 1)), "rhat": split_rhat(draws),
            "ess": effective_sample_size_ok(draws)}


def quantiles(draws, qs=(0.05, 0.5, 0.95)):
    flat = jnp.reshape(draws, (-1, draws.shape[-1]))
    # project shape (not a thread): NumPy's in-place sort asked of JAX to save memory
    return jnp.quantile(flat, jnp.array(qs), axis=0, overwrite_input=True)  # reported: JNP503


def quantiles_ok(draws, qs=(0.05, 0.5, 0.95)):
    return jnp.quantile(jnp.reshape(draws, (-1, draws.shape[-1])), jnp.array(qs), axis=0)


def worst_rhat(per_run_draws):
    """The largest R-hat over the runs of a sweep."""
    # project shape (not a thread): a list of device values handed to jnp.max
    return jnp.max([jnp.max(split_rhat(draws)) for draws in per_run_draws])  # reported: JNP505


def worst_rhat_ok(per_run_draws):
    return jnp.max(jnp.stack([jnp.max(split_rhat(draws)) for draws in per_run_draws]))


def as_float_draws(draws):
    """Draws as a floating-point array, whatever the caller collected."""
    # project shape (not a thread): NumPy 1's asfarray, which jax.numpy never had
    return jnp.asfarray(draws)  # reported: JNP502


def as_float_draws_ok(draws):
    return jnp.asarray(draws, dtype=jnp.float32)


def mean_log_density(values):
    """The average log density, accumulated in double precision."""
    # project shape (not a thread): double precision asked of JAX without x64
    return jnp.mean(jnp.asarray(values, dtype=jnp.float64))  # reported: JNP402


def mean_log_density_ok(values):
    return jnp.mean(jnp.asarray(values, dtype=jnp.float32))


def normalising_constant(log_density_on_grid, grid):
    """A one-dimensional evidence by the trapezoidal rule on a grid."""
    # project shape (not a thread): jnp.trapz, removed from JAX in favour of jax.scipy.integrate.trapezoid
    return jnp.trapz(jnp.exp(log_density_on_grid), grid)  # reported: JNP504


def normalising_constant_ok(log_density_on_grid, grid):
    return jax.scipy.integrate.trapezoid(jnp.exp(log_density_on_grid), grid)
