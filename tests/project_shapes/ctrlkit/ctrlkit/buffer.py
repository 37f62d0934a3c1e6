"""A replay buffer of transitions in NumPy, sampled with a NumPy generator."""
import numpy as np


class ReplayBuffer:
    def __init__(self, capacity, state_dim, action_dim):
        self.x = np.zeros((capacity, state_dim), np.float32)
        self.u = np.zeros((capacity, action_dim), np.float32)
        self.x_next = np.zeros((capacity, state_dim), np.float32)
        self.capacity, self.size, self.ptr = capacity, 0, 0

    def add(self, x, u, x_next):
        self.x[self.ptr], self.u[self.ptr], self.x_next[self.ptr] = x, u, x_next
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def add_trajectory(self, xs, us):
        """Adds a planned or simulated trajectory (states xs[0..T], actions us[0..T-1])."""
        for t in range(len(us)):
            # project shape (not a thread): each state of a JAX trajectory copied to the host on its own
            self.add(np.asarray(xs[t]), np.asarray(us[t]), np.asarray(xs[t + 1]))  # reported: JNP101

    def add_trajectory_ok(self, xs, us):
        xs, us = np.asarray(xs), np.asarray(us)
        for t in range(len(us)):
            self.add(xs[t], us[t], xs[t + 1])

    def sample(self, rng, batch_size):
        index = rng.integers(0, self.size, batch_size)
        return self.x[index], self.u[index], self.x_next[index]

    def split(self, fraction, rng):
        order = rng.permutation(self.size)
        cut = int(fraction * self.size)
        train, valid = order[cut:], order[:cut]
        return ((self.x[train], self.u[train], self.x_next[train]),
                (self.x[valid], self.u[valid], self.x_next[valid]))

    def statistics(self):
        inputs = np.concatenate([self.x[: self.size], self.u[: self.size]], axis=1)
        return inputs.mean(axis=0), inputs.std(axis=0) + 1e-6


def collect_random(plant, buffer, rng, n_episodes, episode_len, max_action):
    """Random torques on the NumPy plant, the usual first batch of model-based RL."""
    for _ in range(n_episodes):
        x = plant.reset(theta=rng.uniform(-np.pi, np.pi))
        for _ in range(episode_len):
            u = rng.uniform(-max_action, max_action, size=1).astype(np.float32)
            x_next = plant.step(u)
            buffer.add(x, u, x_next)
            x = x_next
    return buffer
