"""A uniform replay buffer in NumPy, sampled on the host."""
import numpy as np


class ReplayBuffer:
    def __init__(self, capacity, obs_dim, seed=0):
        self.capacity = capacity
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int32)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.masks = np.ones((capacity, 2), dtype=bool)
        self.rng = np.random.default_rng(seed)
        self.size = 0
        self.ptr = 0

    def __len__(self):
        return self.size

    def add(self, obs, action, reward, next_obs, done, mask=None):
        i = self.ptr
        self.obs[i], self.actions[i], self.rewards[i] = obs, action, reward
        self.next_obs[i], self.dones[i] = next_obs, done
        if mask is not None:
            self.masks[i] = mask
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        idx = self.rng.integers(0, self.size, size=batch_size)
        return {
            "obs": self.obs[idx], "action": self.actions[idx], "reward": self.rewards[idx],
            "next_obs": self.next_obs[idx], "done": self.dones[idx], "mask": self.masks[idx],
        }
