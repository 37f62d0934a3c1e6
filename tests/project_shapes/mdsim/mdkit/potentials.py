"""Pair potentials looked up by name, and total energies of a periodic configuration."""
import functools

import jax.numpy as jnp

from .space import pair_distances, safe_distances

CUTOFF = 2.5


def set_cutoff(value):
    global CUTOFF
    CUTOFF = value


def lennard_jones(r, sigma=1.0, epsilon=1.0):
    sr6 = (sigma / r) ** 6
    return 4.0 * epsilon * (sr6 ** 2 - sr6)


def morse(r, sigma=1.0, epsilon=1.0, alpha=3.0):
    x = jnp.exp(-alpha * (r - sigma))
    return epsilon * (x ** 2 - 2.0 * x)


def soft_sphere(r, sigma=1.0, epsilon=1.0, alpha=2.0):
    return jnp.where(r < sigma, epsilon / alpha * (1.0 - r / sigma) ** alpha, 0.0)


PAIR = {"lj": lennard_jones, "morse": morse, "soft": soft_sphere}


def shifted(pair, r, cutoff):
    return jnp.where(r < cutoff, pair(r) - pair(cutoff), 0.0)


def total_energy(R, box, name="lj"):
    """Half the sum of the pair energies within the cutoff; the self pairs are masked out."""
    r = pair_distances(R, box)
    # project shape (not a thread): the self pairs at r = 0 are masked by where, but their gradient is nan
    e = jnp.where((r > 0.0) & (r < 2.5), PAIR[name](r), 0.0)  # reported: JNP604
    return 0.5 * jnp.sum(e)


def total_energy_ok(R, box, name="lj", cutoff=2.5):
    r, off = safe_distances(R, box)
    return 0.5 * jnp.sum(jnp.where(off, shifted(PAIR[name], r, cutoff), 0.0))


def total_energy_cut(R, box, name="lj"):
    """The shifted energy with the module cutoff, which the sweep script changes."""
    r, off = safe_distances(R, box)
    # project shape (not a thread): the module cutoff read while the step is traced, then kept by the compiled step
    return 0.5 * jnp.sum(jnp.where(off, shifted(PAIR[name], r, CUTOFF), 0.0))  # reported: JNP304


def parametric_energy(params, R, box, cutoff=2.5):
    """The Lennard-Jones energy with fitted sigma and epsilon (for fitting.py)."""
    r, off = safe_distances(R, box)
    pair = functools.partial(lennard_jones, sigma=params["sigma"], epsilon=params["epsilon"])
    return 0.5 * jnp.sum(jnp.where(off, shifted(pair, r, cutoff), 0.0))


ENERGIES = {"plain": total_energy, "ok": total_energy_ok, "cut": total_energy_cut}
