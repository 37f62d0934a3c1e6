"""Fourteenth round, held out: a triangular learning-rate schedule that picks its rising or falling
half with a Python if on the step a jitted training step hands it, and a cosmology emulator that
orders its input parameters with np.stack, called from a jitted likelihood (JNP202, JNP201)."""
import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/google/flax/pull/1903
# The how-to's triangular schedule branches on which half of the cycle the step is in; the training
# step is jitted and reads the learning rate from the traced step, so the if raises
# TracerBoolConversionError (the PR swapped the example for a jit-friendly cosine schedule).
def create_triangular_schedule(lr_min, lr_max, steps_per_cycle):
    top = (steps_per_cycle + 1) // 2

    def learning_rate_fn(step):
        cycle_step = step % steps_per_cycle
        if cycle_step < top:  # reported: JNP202
            lr = lr_min + cycle_step / top * (lr_max - lr_min)
        else:
            lr = lr_max - ((cycle_step - top) / top) * (lr_max - lr_min)
        return lr

    return learning_rate_fn


def squared_error(params, x, y):
    return jnp.mean((x @ params - y) ** 2)


def make_train_step(learning_rate_fn):
    @jax.jit
    def train_step(params, step, x, y):
        grads = jax.grad(squared_error)(params, x, y)
        return params - learning_rate_fn(step) * grads, step + 1

    return train_step


def case_triangular_schedule_branching_on_the_traced_step():
    train_step = make_train_step(create_triangular_schedule(1e-3, 1e-1, 10))
    params, step = jnp.zeros(3), jnp.asarray(0)
    x, y = jnp.ones((8, 3)), jnp.ones(8)
    for _ in range(4):
        params, step = train_step(params, step, x, y)
    return params


def create_triangular_schedule_where(lr_min, lr_max, steps_per_cycle):
    top = (steps_per_cycle + 1) // 2

    def learning_rate_fn(step):
        cycle_step = step % steps_per_cycle
        rising = lr_min + cycle_step / top * (lr_max - lr_min)
        falling = lr_max - ((cycle_step - top) / top) * (lr_max - lr_min)
        return jnp.where(cycle_step < top, rising, falling)

    return learning_rate_fn


def case_ok_triangular_schedule_selecting_with_where():
    train_step = make_train_step(create_triangular_schedule_where(1e-3, 1e-1, 10))
    params, step = jnp.zeros(3), jnp.asarray(0)
    x, y = jnp.ones((8, 3)), jnp.ones(8)
    for _ in range(4):
        params, step = train_step(params, step, x, y)
    return params


# https://github.com/dpiras/cosmopower-jax/issues/9
# The emulator puts the parameter dictionary in its training order with np.stack; sampling calls it
# from a jitted log-likelihood, where the sampled parameters are tracers, so NumPy's conversion
# raises TracerArrayConversionError (the user passed an array instead of the dictionary).
class PowerSpectrumEmulator:
    parameters = ("omega_b", "omega_cdm", "h", "n_s", "ln10A_s")

    def __init__(self, weights, bias):
        self.weights = weights
        self.bias = bias

    def dict_to_ordered_array(self, input_dict):
        return np.stack([input_dict[name] for name in self.parameters], axis=1)  # reported: JNP201

    def predict(self, input_dict):
        features = self.dict_to_ordered_array(input_dict)
        return jnp.tanh(features @ self.weights + self.bias)


EMULATOR = PowerSpectrumEmulator(jnp.full((5, 4), 0.1), jnp.zeros(4))


@jax.jit
def log_likelihood(theta, data, inverse_covariance):
    params = {name: jnp.atleast_1d(value) for name, value in zip(EMULATOR.parameters, theta)}
    residual = EMULATOR.predict(params)[0] - data
    return -0.5 * residual @ inverse_covariance @ residual


def case_emulator_stacks_traced_parameters_with_numpy():
    theta = jnp.array([0.022, 0.12, 0.67, 0.96, 3.05])
    return log_likelihood(theta, jnp.zeros(4), jnp.eye(4))


class ArrayPowerSpectrumEmulator(PowerSpectrumEmulator):
    def dict_to_ordered_array(self, input_dict):
        return jnp.stack([input_dict[name] for name in self.parameters], axis=1)


ARRAY_EMULATOR = ArrayPowerSpectrumEmulator(jnp.full((5, 4), 0.1), jnp.zeros(4))


@jax.jit
def log_likelihood_array(theta, data, inverse_covariance):
    params = {name: jnp.atleast_1d(value) for name, value in zip(ARRAY_EMULATOR.parameters, theta)}
    residual = ARRAY_EMULATOR.predict(params)[0] - data
    return -0.5 * residual @ inverse_covariance @ residual


def case_ok_emulator_stacks_with_jax_numpy():
    theta = jnp.array([0.022, 0.12, 0.67, 0.96, 3.05])
    return log_likelihood_array(theta, jnp.zeros(4), jnp.eye(4))
