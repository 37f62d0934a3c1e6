"""Initial conditions in NumPy: a cubic lattice and Maxwell-Boltzmann velocities."""
import jax.numpy as jnp
import numpy as np


def box_length(cfg):
    return float((cfg.n_particles / cfg.density) ** (1.0 / 3.0))


def cubic_lattice(n_side, box):
    g = (np.arange(n_side) + 0.5) * (box / n_side)
    return np.stack(np.meshgrid(g, g, g, indexing="ij"), axis=-1).reshape(-1, 3)


def maxwell_boltzmann(rng, n, temperature, mass=1.0):
    V = rng.normal(scale=np.sqrt(temperature / mass), size=(n, 3))
    return V - V.mean(axis=0)


def initial_arrays(cfg, rng):
    box = box_length(cfg)
    R = cubic_lattice(cfg.n_side, box)
    return R, maxwell_boltzmann(rng, len(R), cfg.temperature), box


def initial_state(cfg, rng):
    R, V, box = initial_arrays(cfg, rng)
    return jnp.asarray(R, jnp.float32), jnp.asarray(V, jnp.float32), box


def initial_state_double(cfg, rng):
    """In double precision, for energy-conservation studies."""
    R, V, box = initial_arrays(cfg, rng)
    # project shape (not a thread): double precision asked for while x64 is off
    return jnp.asarray(R, dtype=jnp.float64), jnp.asarray(V, dtype=jnp.float64), box  # reported: JNP402


def perturbed(R, rng, scale=0.05):
    """Lattice positions jittered in NumPy, for reference configurations."""
    return R + rng.normal(scale=scale, size=R.shape)
