"""CartPole, stepped in NumPy on the host (the classic-control equations)."""
import math

import numpy as np


class CartPole:
    obs_dim = 4
    num_actions = 2

    def __init__(self, cfg, seed=0):
        self.cfg = cfg
        self.rng = np.random.default_rng(seed)
        self.state = np.zeros(4, dtype=np.float32)
        self.t = 0

    def reset(self):
        self.state = self.rng.uniform(-0.05, 0.05, size=4).astype(np.float32)
        self.t = 0
        return self.state.copy()

    def action_mask(self):
        """Pushing further towards a wall near the edge of the track is not allowed."""
        x = self.state[0]
        return np.array([x > -2.0, x < 2.0])

    def step(self, action):
        cfg = self.cfg
        x, x_dot, theta, theta_dot = (float(v) for v in self.state)
        force = cfg.force if int(action) == 1 else -cfg.force
        total_mass = cfg.cart_mass + cfg.pole_mass
        pole_ml = cfg.pole_mass * cfg.pole_length
        cos, sin = math.cos(theta), math.sin(theta)
        temp = (force + pole_ml * theta_dot ** 2 * sin) / total_mass
        theta_acc = (cfg.gravity * sin - cos * temp) / (
            cfg.pole_length * (4.0 / 3.0 - cfg.pole_mass * cos ** 2 / total_mass))
        x_acc = temp - pole_ml * theta_acc * cos / total_mass
        x, x_dot = x + cfg.dt * x_dot, x_dot + cfg.dt * x_acc
        theta, theta_dot = theta + cfg.dt * theta_dot, theta_dot + cfg.dt * theta_acc
        self.state = np.array([x, x_dot, theta, theta_dot], dtype=np.float32)
        self.t += 1
        done = abs(x) > 2.4 or abs(theta) > 0.21 or self.t >= cfg.max_steps
        return self.state.copy(), 1.0, done

    def probe_states(self, n=16):
        """Fixed states whose Q-values are tracked across training."""
        return np.random.default_rng(123).uniform(-0.1, 0.1, size=(n, 4)).astype(np.float32)
