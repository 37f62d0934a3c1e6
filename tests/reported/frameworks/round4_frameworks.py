"""Fourth round, held out: Equinox code (needs equinox to run; JNP202, JNP602)."""
import equinox as eqx
import jax
import jax.numpy as jnp


# https://github.com/patrick-kidger/equinox/issues/307
# A policy-gradient `train` defines its loss with @eqx.filter_jit inside itself: each episode
# builds a new function, so the loss compiles again on every call.
def train(model, obs, actions, rewards):
    @eqx.filter_jit
    def loss_fn(model, states, rewards, actions):
        logits = jax.vmap(model)(states)
        chosen = jnp.take_along_axis(logits, actions[:, None], axis=1)[:, 0]
        return -jnp.mean(chosen * rewards)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, obs, rewards, actions)  # reported: JNP602
    return loss, grads


def case_filter_jit_on_a_def_inside_train():
    model = eqx.nn.Linear(3, 2, key=jax.random.key(0))
    obs, actions, rewards = jnp.ones((5, 3)), jnp.zeros(5, dtype=int), jnp.ones(5)
    return [train(model, obs, actions, rewards)[0] for _ in range(4)]


def _policy_loss(model, states, rewards, actions):
    logits = jax.vmap(model)(states)
    chosen = jnp.take_along_axis(logits, actions[:, None], axis=1)[:, 0]
    return -jnp.mean(chosen * rewards)


@eqx.filter_jit
def train_once(model, obs, actions, rewards):
    return eqx.filter_value_and_grad(_policy_loss)(model, obs, rewards, actions)


def case_ok_filter_jit_on_the_whole_train_step():
    model = eqx.nn.Linear(3, 2, key=jax.random.key(0))
    obs, actions, rewards = jnp.ones((5, 3)), jnp.zeros(5, dtype=int), jnp.ones(5)
    return [train_once(model, obs, actions, rewards)[0] for _ in range(4)]


# https://github.com/GalacticDynamics/coordinax/pull/561
# A transform's constructor checks its factors with `if bool(jnp.any(...))`; building it under
# eqx.filter_jit converts a tracer to bool.
class Scale(eqx.Module):
    matrix: jax.Array

    @classmethod
    def from_factors(cls, factors):
        factors = jnp.asarray(factors)
        if bool(jnp.any(factors == 0)):  # reported: JNP202
            raise ValueError("a zero factor makes the transform singular")
        return cls(jnp.diag(factors))


def case_bool_check_in_constructor_under_filter_jit():
    return eqx.filter_jit(Scale.from_factors)(jnp.asarray([2.0, 1.0, 4.0]))


class CheckedScale(eqx.Module):
    matrix: jax.Array

    @classmethod
    def from_factors(cls, factors):
        factors = jnp.asarray(factors)
        factors = eqx.error_if(factors, jnp.any(factors == 0), "a zero factor makes the transform singular")
        return cls(jnp.diag(factors))


def case_ok_error_if_in_constructor_under_filter_jit():
    return eqx.filter_jit(CheckedScale.from_factors)(jnp.asarray([2.0, 1.0, 4.0]))
