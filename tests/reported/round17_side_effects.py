"""Seventeenth round, held out: a consistency model that counts its training steps with a Python
attribute incremented inside the jitted train step (JNP303)."""
import jax
import jax.numpy as jnp


class ConsistencyModel:
    def __init__(self, total_steps):
        self.total_steps = total_steps
        self.current_step = 0
        self.train_step = jax.jit(self.step)

    def discretisation(self):
        return jnp.minimum(2.0 + self.current_step / self.total_steps * 100.0, 150.0)

    # https://github.com/bayesflow-org/bayesflow/issues/223
    # The model advanced its schedule with `self.current_step += 1` in the train step; under jit the
    # increment runs once, while tracing, so the schedule never moved past the first step.
    def step(self, params, batch):
        n_levels = self.discretisation()
        loss = jnp.mean((batch * params - n_levels) ** 2)
        self.current_step += 1  # reported: JNP303
        return params - 0.01 * jax.grad(lambda p: jnp.mean((batch * p - n_levels) ** 2))(params), loss


def case_step_counter_incremented_in_jit():
    model = ConsistencyModel(10)
    params = jnp.float32(1.0)
    for _ in range(3):
        params, _ = model.train_step(params, jnp.ones(4))
    return model.current_step


class ConsistencyModelCarried:
    def __init__(self, total_steps):
        self.total_steps = total_steps
        self.train_step = jax.jit(self.step)

    def discretisation(self, current_step):
        return jnp.minimum(2.0 + current_step / self.total_steps * 100.0, 150.0)

    def step(self, params, current_step, batch):
        n_levels = self.discretisation(current_step)
        grad = jax.grad(lambda p: jnp.mean((batch * p - n_levels) ** 2))(params)
        return params - 0.01 * grad, current_step + 1


def case_ok_step_counter_carried_as_state():
    model = ConsistencyModelCarried(10)
    params, current_step = jnp.float32(1.0), jnp.int32(0)
    for _ in range(3):
        params, current_step = model.train_step(params, current_step, jnp.ones(4))
    return current_step
