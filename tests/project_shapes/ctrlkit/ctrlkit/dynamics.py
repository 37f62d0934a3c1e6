"""Dynamics of the systems we control, in JAX for planning and in NumPy for the real plant."""
import jax.numpy as jnp
import numpy as np

GRAVITY = 9.81
STATE_DIM = {"pendulum": 2, "pendulum_soft": 2, "pendulum_soft_ok": 2, "point": 4}
ACTION_DIM = {"pendulum": 1, "pendulum_soft": 1, "pendulum_soft_ok": 1, "point": 2}


def pendulum(x, u, dt=0.05, max_action=2.0):
    """A unit pendulum, theta = 0 hanging down; the torque saturates at max_action."""
    torque = jnp.clip(u[0], -max_action, max_action)
    omega = x[1] + dt * (-GRAVITY * jnp.sin(x[0]) + torque)
    return jnp.stack([x[0] + dt * omega, omega])


def pendulum_soft(x, u, dt=0.05, max_action=2.0):
    """The pendulum with a smooth saturation, so that iLQR sees a gradient beyond the limit."""
    # project shape (not a thread): NumPy's tanh on the traced action inside the planner's rollout
    torque = max_action * np.tanh(u[0] / max_action)  # reported: JNP201
    omega = x[1] + dt * (-GRAVITY * jnp.sin(x[0]) + torque)
    return jnp.stack([x[0] + dt * omega, omega])


def pendulum_soft_ok(x, u, dt=0.05, max_action=2.0):
    torque = max_action * jnp.tanh(u[0] / max_action)
    omega = x[1] + dt * (-GRAVITY * jnp.sin(x[0]) + torque)
    return jnp.stack([x[0] + dt * omega, omega])


def point_mass(x, u, dt=0.05, max_action=2.0):
    """A 2D double integrator: x = (px, py, vx, vy), u = acceleration."""
    a = jnp.clip(u, -max_action, max_action)
    v = x[2:] + dt * a
    return jnp.concatenate([x[:2] + dt * v, v])


class PendulumPlant:
    """The real pendulum, stepped in NumPy with a finer inner step and a little process noise."""

    def __init__(self, dt=0.05, max_action=2.0, noise=0.01, seed=0):
        self.dt, self.max_action, self.noise = dt, max_action, noise
        self.rng = np.random.default_rng(seed)
        self.state = np.zeros(2, np.float32)

    def reset(self, theta=0.1):
        self.state = np.array([theta, 0.0], np.float32)
        return self.state.copy()

    def step(self, u):
        torque = float(np.clip(np.asarray(u)[0], -self.max_action, self.max_action))
        theta, omega = self.state
        for _ in range(4):
            omega = omega + self.dt / 4 * (-GRAVITY * np.sin(theta) + torque)
            theta = theta + self.dt / 4 * omega
        omega += self.noise * self.rng.standard_normal()
        self.state = np.array([theta, omega], np.float32)
        return self.state.copy()


def initial_state(name, theta=0.1):
    if name == "point":
        return jnp.array([-1.0, -1.0, 0.0, 0.0])
    return jnp.array([theta, 0.0])


def initial_state_double(name, theta=0.1):
    """For the precision study: the start state in double precision."""
    x0 = np.array([theta, 0.0]) if name != "point" else np.array([-1.0, -1.0, 0.0, 0.0])
    # project shape (not a thread): float64 asked for without x64
    return jnp.asarray(x0, dtype=jnp.float64)  # reported: JNP402
