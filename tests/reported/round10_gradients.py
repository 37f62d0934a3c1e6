"""Tenth round, held out: a KL divergence that guards log(0) with jnp.where and is differentiated
with respect to its targets (JNP604)."""
import jax
import jax.numpy as jnp


# https://github.com/google-deepmind/optax/pull/1786
# The loss guards the value with where(targets == 0, 0, log(targets)), but log is still
# differentiated at the zero targets, and its infinite slope there turns their gradient into nan.
def kl_divergence(log_predictions, targets):
    loss = targets * (jnp.where(targets == 0, 0, jnp.log(targets)) - log_predictions)  # reported: JNP604
    return jnp.sum(loss, axis=-1)


def case_kl_divergence_differentiated_at_zero_targets():
    log_ps = jax.nn.log_softmax(jnp.array([0.5, 1.0, 2.0, -1.0]))
    qs = jnp.array([0.0, 0.4, 0.6, 0.0])
    return jax.grad(kl_divergence, argnums=1)(log_ps, qs)


def kl_divergence_safe(log_predictions, targets):
    safe_targets = jnp.where(targets == 0, 1.0, targets)
    loss = targets * (jnp.where(targets == 0, 0, jnp.log(safe_targets)) - log_predictions)
    return jnp.sum(loss, axis=-1)


def case_ok_kl_divergence_with_the_double_where():
    log_ps = jax.nn.log_softmax(jnp.array([0.5, 1.0, 2.0, -1.0]))
    qs = jnp.array([0.0, 0.4, 0.6, 0.0])
    return jax.grad(kl_divergence_safe, argnums=1)(log_ps, qs)
