"""Eleventh round, held out: one key handed to every control factor's categorical draw through a
tree map (JNP601)."""
import jax.numpy as jnp
import jax.random as jr
import jax.tree_util as jtu


def log_stable(x):
    return jnp.log(jnp.clip(x, 1e-16))


# https://github.com/infer-actively/pymdp/issues/430
# Stochastic action selection maps a categorical draw over the marginal of every control factor,
# and every draw uses the same rng_key: factors with the same marginal always pick the same
# action, and the others are not independent either.
def sample_action(marginal, action_selection="deterministic", alpha=16.0, rng_key=None):
    if action_selection == "deterministic":
        selected_policy = jtu.tree_map(lambda x: jnp.argmax(x, -1), marginal)
    elif action_selection == "stochastic":
        logits = lambda x: alpha * log_stable(x)  # noqa: E731
        selected_policy = jtu.tree_map(lambda x: jr.categorical(rng_key, logits(x)), marginal)  # reported: JNP601
    return jnp.array(selected_policy)


def case_one_key_for_every_factor():
    marginal = [jnp.array([0.25, 0.25, 0.25, 0.25])] * 3
    return sample_action(marginal, "stochastic", alpha=1.0, rng_key=jr.PRNGKey(0))


def sample_action_split(marginal, action_selection="deterministic", alpha=16.0, rng_key=None):
    if action_selection == "deterministic":
        selected_policy = jtu.tree_map(lambda x: jnp.argmax(x, -1), marginal)
    elif action_selection == "stochastic":
        keys = list(jr.split(rng_key, len(marginal)))
        logits = lambda x: alpha * log_stable(x)  # noqa: E731
        selected_policy = jtu.tree_map(lambda x, k: jr.categorical(k, logits(x)), marginal, keys)
    return jnp.array(selected_policy)


def case_ok_one_key_per_factor():
    marginal = [jnp.array([0.25, 0.25, 0.25, 0.25])] * 3
    return sample_action_split(marginal, "stochastic", alpha=1.0, rng_key=jr.PRNGKey(0))
