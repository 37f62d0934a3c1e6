"""Kinetic energy, temperature and velocity-rescaling thermostats looked up by name."""
import jax.numpy as jnp
import numpy as np


def kinetic_energy(V, mass=1.0):
    return 0.5 * mass * jnp.sum(V ** 2)


def temperature(V, mass=1.0):
    return 2.0 * kinetic_energy(V, mass) / (3.0 * (V.shape[0] - 1))


def berendsen(V, target, dt, tau):
    """Berendsen's weak coupling: the velocities scaled towards the target temperature."""
    T = temperature(V)
    # project shape (not a thread): NumPy's square root on the traced temperature ratio
    scale = np.sqrt(1.0 + dt / tau * (target / T - 1.0))  # reported: JNP201
    return V * scale


def berendsen_ok(V, target, dt, tau):
    return V * jnp.sqrt(1.0 + dt / tau * (target / temperature(V) - 1.0))


def rescale(V, target, dt, tau):
    return V * jnp.sqrt(target / temperature(V))


def no_thermostat(V, target, dt, tau):
    return V


THERMOSTATS = {"none": no_thermostat, "berendsen": berendsen, "berendsen_ok": berendsen_ok,
               "rescale": rescale}
