"""Integrators looked up by name: each factory returns a `lax.scan` body over (R, V, F[, key])."""
import jax
import jax.numpy as jnp
import numpy as np

from .thermostats import THERMOSTATS

N_STEPS = 0
HISTORY = []


def velocity_verlet(force_fn, cfg, kT):
    dt = cfg.dt
    thermostat = THERMOSTATS[cfg.thermostat]

    def step(state, _):
        R, V, F = state
        V = V + 0.5 * dt * F
        R = R + dt * V
        F = force_fn(R)
        V = thermostat(V + 0.5 * dt * F, kT, dt, cfg.tau)
        return (R, V, F), None

    return step


def counted_verlet(force_fn, cfg, kT):
    """Velocity Verlet that counts the steps taken, for the log."""
    inner = velocity_verlet(force_fn, cfg, kT)

    def step(state, x):
        global N_STEPS
        # project shape (not a thread): a module counter incremented in a scanned, jitted step
        N_STEPS += 1  # reported: JNP302
        return inner(state, x)

    return step


def debug_verlet(force_fn, cfg, kT):
    inner = velocity_verlet(force_fn, cfg, kT)

    def step(state, x):
        state, _ = inner(state, x)
        # project shape (not a thread): the largest force printed from the scanned step
        print("max |F| =", jnp.max(jnp.abs(state[2])))  # reported: JNP301
        return state, None

    return step


def debug_verlet_ok(force_fn, cfg, kT):
    inner = velocity_verlet(force_fn, cfg, kT)

    def step(state, x):
        state, _ = inner(state, x)
        jax.debug.print("max |F| = {f}", f=jnp.max(jnp.abs(state[2])))
        return state, None

    return step


def recorded_verlet(force_fn, cfg, kT):
    inner = velocity_verlet(force_fn, cfg, kT)

    def step(state, x):
        state, _ = inner(state, x)
        # project shape (not a thread): the positions kept in a module list from the scanned step
        HISTORY.append(state[0])  # reported: JNP303
        return state, None

    return step


def recorded_verlet_ok(force_fn, cfg, kT):
    inner = velocity_verlet(force_fn, cfg, kT)

    def step(state, x):
        state, _ = inner(state, x)
        return state, state[0]

    return step


def langevin(force_fn, cfg, kT, key):
    """BAOAB Langevin dynamics; the key is given once, when the step is made."""
    dt, c1 = cfg.dt, jnp.exp(-cfg.gamma * cfg.dt)
    c2 = jnp.sqrt((1.0 - c1 ** 2) * kT)

    def step(state, _):
        R, V, F = state
        V = V + 0.5 * dt * F
        R = R + 0.5 * dt * V
        # project shape (not a thread): the same key on every step of the scan, so the same noise
        V = c1 * V + c2 * jax.random.normal(key, V.shape)  # reported: JNP601
        R = R + 0.5 * dt * V
        F = force_fn(R)
        return (R, V + 0.5 * dt * F, F), None

    return step


def langevin_host_noise(force_fn, cfg, kT):
    dt, c1 = cfg.dt, np.exp(-cfg.gamma * cfg.dt)
    c2 = np.sqrt((1.0 - c1 ** 2) * kT)

    def step(state, _):
        R, V, F = state
        V = V + 0.5 * dt * F
        R = R + 0.5 * dt * V
        # project shape (not a thread): NumPy noise drawn once while the scan body is traced
        V = c1 * V + c2 * np.random.normal(size=V.shape)  # reported: JNP305
        R = R + 0.5 * dt * V
        F = force_fn(R)
        return (R, V + 0.5 * dt * F, F), None

    return step


def langevin_ok(force_fn, cfg, kT):
    """The key travels in the state and is split on every step."""
    dt, c1 = cfg.dt, jnp.exp(-cfg.gamma * cfg.dt)
    c2 = jnp.sqrt((1.0 - c1 ** 2) * kT)

    def step(state, _):
        R, V, F, key = state
        key, sub = jax.random.split(key)
        V = V + 0.5 * dt * F
        R = R + 0.5 * dt * V
        V = c1 * V + c2 * jax.random.normal(sub, V.shape)
        R = R + 0.5 * dt * V
        F = force_fn(R)
        return (R, V + 0.5 * dt * F, F, key), None

    return step


INTEGRATORS = {"verlet": velocity_verlet, "counted": counted_verlet, "debug": debug_verlet,
               "debug_ok": debug_verlet_ok, "recorded": recorded_verlet, "recorded_ok": recorded_verlet_ok,
               "host_noise": langevin_host_noise, "langevin_ok": langevin_ok}
