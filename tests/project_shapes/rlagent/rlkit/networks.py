"""Flax Linen networks: a Q-network and a softmax policy over the allowed actions."""
from typing import Any

import flax.linen as nn
import jax.numpy as jnp


class QNetwork(nn.Module):
    num_actions: int
    hidden: int = 64
    dtype: Any = jnp.float32

    @nn.compact
    def __call__(self, obs):
        x = nn.relu(nn.Dense(self.hidden, dtype=self.dtype)(obs))
        x = nn.relu(nn.Dense(self.hidden, dtype=self.dtype)(x))
        return nn.Dense(self.num_actions, dtype=self.dtype)(x)


class MaskedPolicy(nn.Module):
    num_actions: int
    hidden: int = 64

    @nn.compact
    def __call__(self, obs, mask):
        x = nn.relu(nn.Dense(self.hidden)(obs))
        logits = nn.Dense(self.num_actions)(x)
        return jnp.where(mask, logits, -jnp.inf)


def make_q_network(cfg):
    """bfloat16 compute when the agent config asks for mixed precision."""
    dtype = jnp.bfloat16 if cfg.mixed_precision else jnp.float32
    return QNetwork(cfg.num_actions, cfg.hidden, dtype=dtype)
