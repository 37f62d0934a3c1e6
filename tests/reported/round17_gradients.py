"""Seventeenth round, held out: a masked attention softmax whose excluded logits overflow exp, and
an observable model that guards its log with jnp.where after taking it (JNP604)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/17117
# The masked softmax subtracts the maximum of the valid logits only, so the exp of a large masked-out
# logit overflows; where() drops the value but its gradient is inf * 0, and the whole gradient is nan.
def masked_softmax(logits, mask):
    peak = jnp.max(jnp.where(mask, logits, -jnp.inf))
    weights = jnp.where(mask, jnp.exp(logits - peak), 0.0)  # reported: JNP604
    return weights / jnp.sum(weights)


def attention_loss(logits, mask, values):
    return jnp.sum(masked_softmax(logits, mask) * values)


def case_masked_softmax_gradient_is_nan():
    logits = jnp.array([1.0, 1.0, 100.0])
    mask = jnp.array([True, True, False])
    return jax.grad(attention_loss)(logits, mask, jnp.array([1.0, 2.0, 3.0]))


def masked_softmax_guarded(logits, mask):
    safe_logits = jnp.where(mask, logits, -jnp.inf)
    peak = jnp.max(safe_logits)
    weights = jnp.where(mask, jnp.exp(safe_logits - peak), 0.0)
    return weights / jnp.sum(weights)


def attention_loss_guarded(logits, mask, values):
    return jnp.sum(masked_softmax_guarded(logits, mask) * values)


def case_ok_masked_logits_replaced_before_exp():
    logits = jnp.array([1.0, 1.0, 100.0])
    mask = jnp.array([True, True, False])
    return jax.grad(attention_loss_guarded)(logits, mask, jnp.array([1.0, 2.0, 3.0]))


class Observable:
    """An observable on a log scale; concentrations can reach zero during the simulation."""

    def __init__(self, offset):
        self.offset = offset

    def __call__(self, concentration):
        return jnp.where(concentration > 0, jnp.log(concentration), self.offset)  # reported: JNP604


# https://github.com/AMICI-dev/AMICI/pull/2611
# Several models evaluated log observables where a state hits zero; the where() kept the value
# finite, but the log still ran on the zero and the objective's gradient came back nan.
def objective(concentrations, observed):
    observable = Observable(-10.0)
    return jnp.sum((observable(concentrations) - observed) ** 2)


def case_log_observable_gradient_is_nan():
    return jax.grad(objective)(jnp.array([1.0, 0.0, 2.0]), jnp.zeros(3))


class SafeObservable:
    def __init__(self, offset):
        self.offset = offset

    def __call__(self, concentration):
        positive = concentration > 0
        safe = jnp.where(positive, concentration, 1.0)
        return jnp.where(positive, jnp.log(safe), self.offset)


def objective_safe(concentrations, observed):
    observable = SafeObservable(-10.0)
    return jnp.sum((observable(concentrations) - observed) ** 2)


def case_ok_log_observable_input_guarded():
    return jax.grad(objective_safe)(jnp.array([1.0, 0.0, 2.0]), jnp.zeros(3))
