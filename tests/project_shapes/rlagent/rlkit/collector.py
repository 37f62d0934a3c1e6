"""Experience collection: steps the NumPy environment with a jitted policy and fills the buffer."""
import functools

import jax


class Collector:
    def __init__(self, env, buffer, apply_fn, policy, key, act=None):
        self.env = env
        self.buffer = buffer
        self.act = act if act is not None else jax.jit(functools.partial(policy, apply_fn))
        self.key = key
        self.obs = env.reset()
        self.episode_return = 0.0
        self.returns = []

    def _advance(self, action):
        next_obs, reward, done = self.env.step(action)
        self.buffer.add(self.obs, action, reward, next_obs, done, self.env.action_mask())
        self.episode_return += reward
        if done:
            self.returns.append(self.episode_return)
            self.episode_return = 0.0
            next_obs = self.env.reset()
        self.obs = next_obs
        return done

    def collect(self, params, steps, epsilon_fn, start=0):
        for t in range(start, start + steps):
            self.key, sub = jax.random.split(self.key)
            # project shape (not a thread): a new epsilon every step, a static argument of the
            # act function that train.py jits with static_argnames
            action = self.act(params, self.obs, sub, epsilon=epsilon_fn(t))  # reported: JNP602
            self._advance(action)
        return self.returns

    def episode(self, params, key, epsilon=0.05):
        """One episode with a small exploration rate, from a caller's key."""
        self.obs, done = self.env.reset(), False
        start = len(self.returns)
        while not done:
            # project shape (not a thread): the same key for every action of the episode
            action = self.act(params, self.obs, key, epsilon=epsilon)  # reported: JNP601
            done = self._advance(action)
        return self.returns[start]

    def episode_split(self, params, key, epsilon=0.05):
        self.obs, done = self.env.reset(), False
        start = len(self.returns)
        while not done:
            key, sub = jax.random.split(key)
            action = self.act(params, self.obs, sub, epsilon=epsilon)
            done = self._advance(action)
        return self.returns[start]
