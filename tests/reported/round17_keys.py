"""Seventeenth round, held out: an agent's rollout that samples every step's exploration noise from
the key it was given, and an encoder layer applied position by position with one dropout key
(JNP601)."""
import jax
import jax.numpy as jnp


class GaussianPolicy:
    def __init__(self, weights):
        self.weights = weights

    def act(self, observation, key):
        mean = jnp.tanh(observation @ self.weights)
        return mean + 0.1 * jax.random.normal(key, mean.shape)


def env_step(observation, action):
    return 0.9 * observation + 0.1 * jnp.sum(action)


# https://github.com/instadeepai/Mava/pull/1096
# The rollout loop handed the same key to the policy on every step instead of splitting it, so the
# exploration noise was identical at each step of the episode.
def rollout(policy, observation, key, steps):
    actions = []
    for _ in range(steps):
        action = policy.act(observation, key)  # reported: JNP601
        observation = env_step(observation, action)
        actions.append(action)
    return jnp.stack(actions)


def case_rollout_reuses_key_each_step():
    return rollout(GaussianPolicy(jnp.eye(3)), jnp.ones(3), jax.random.key(0), 4)


def rollout_split(policy, observation, key, steps):
    actions = []
    for _ in range(steps):
        key, act_key = jax.random.split(key)
        action = policy.act(observation, act_key)
        observation = env_step(observation, action)
        actions.append(action)
    return jnp.stack(actions)


def case_ok_rollout_splits_key_each_step():
    return rollout_split(GaussianPolicy(jnp.eye(3)), jnp.ones(3), jax.random.key(0), 4)


def dropout(x, rate, key):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def feed_forward(token, key):
    hidden = jax.nn.gelu(token * 2.0)
    return dropout(hidden, 0.5, key)


# https://github.com/patrick-kidger/equinox/pull/316
# The BERT example applied its feed-forward block to each position with the one dropout key of the
# layer, so every position of the sequence was dropped with the same mask.
def encode(tokens, ff_key):
    outputs = []
    for token in tokens:
        outputs.append(feed_forward(token, ff_key))  # reported: JNP601
    return jnp.stack(outputs)


def case_one_dropout_key_for_every_position():
    return encode(jnp.ones((4, 8)), jax.random.key(1))


def encode_split(tokens, ff_key):
    keys = jax.random.split(ff_key, tokens.shape[0])
    return jnp.stack([feed_forward(token, key) for token, key in zip(tokens, keys)])


def case_ok_dropout_key_split_per_position():
    return encode_split(jnp.ones((4, 8)), jax.random.key(1))
