"""The training loops: data from data.py, steps from steps.py, helpers from utils.py."""
import time

import jax
import jax.numpy as jnp

from fitlab import config, data, losses, models, steps, utils
from fitlab import train_step


def _params(seed=0, n_out=1):
    return models.init_params(jax.random.PRNGKey(seed), config.FEATURES, n_out)


# project shape (not a thread): X, y made by a data helper (NumPy) handed to the jitted step every step
def case_host_data_uploaded_every_step():
    X, y = data.make_data()
    params = _params()
    for _ in range(config.NUM_STEPS):
        params, loss = steps.train_step_ok(params, X, y)  # reported: JNP104
    return loss


def case_ok_data_placed_once():
    X, y = jax.device_put(data.make_data())
    params = _params()
    for _ in range(config.NUM_STEPS):
        params, loss = steps.train_step_ok(params, X, y)
    return loss


# project shape (not a thread): the loss converted to a Python float on every step
def case_loss_converted_every_step():
    X, y = jax.device_put(data.make_data())
    params, history = _params(), []
    for _ in range(config.NUM_STEPS):
        params, loss = steps.train_step_ok(params, X, y)
        history.append(float(loss))  # reported: JNP102
    return history


def case_ok_loss_kept_on_device():
    X, y = jax.device_put(data.make_data())
    params, history = _params(), []
    for _ in range(config.NUM_STEPS):
        params, loss = steps.train_step_ok(params, X, y)
        history.append(loss)
    return jnp.stack(history)


# project shape (not a thread): the same conversion, through a helper in utils.py
def case_loss_converted_by_helper():
    X, y = jax.device_put(data.make_data())
    params, history = _params(), []
    for _ in range(config.NUM_STEPS):
        params, loss = steps.train_step_ok(params, X, y)
        history.append(utils.as_float(loss))  # reported: JNP102
    return history


# project shape (not a thread): the loss printed by a helper on every step
def case_loss_logged_every_step():
    X, y = jax.device_put(data.make_data())
    params = _params()
    for step in range(config.NUM_STEPS):
        params, loss = steps.train_step_ok(params, X, y)
        utils.log_metric("loss", loss)  # reported: JNP103


def case_ok_loss_logged_at_the_end():
    X, y = jax.device_put(data.make_data())
    params = _params()
    for step in range(config.NUM_STEPS):
        params, loss = steps.train_step_ok(params, X, y)
    utils.log_metric("loss", loss)


# project shape (not a thread): the temperature annealed by rebinding the losses module's global
def case_temperature_annealed_through_module():
    X = jnp.asarray(data.make_data()[0])
    labels, weights = jnp.asarray(data.make_labels()), jnp.asarray(config.CLASS_WEIGHTS)
    params = _params(n_out=3)
    for t in (2.0, 1.0, 0.5):
        losses.TEMPERATURE = t
        params, loss = steps.xent_step(params, X, labels, weights)
    return loss


def case_ok_temperature_passed():
    X = jnp.asarray(data.make_data()[0])
    labels, weights = jnp.asarray(data.make_labels()), jnp.asarray(config.CLASS_WEIGHTS)
    params = _params(n_out=3)
    for t in (2.0, 1.0, 0.5):
        params, loss = steps.xent_step_at(params, X, labels, weights, t)
    return loss


# project shape (not a thread): the NumPy class weights of config.py given to the jitted step every step
def case_class_weights_uploaded_every_step():
    X = jnp.asarray(data.make_data()[0])
    labels = jnp.asarray(data.make_labels())
    params = _params(n_out=3)
    for _ in range(config.NUM_STEPS):
        params, loss = steps.xent_step_at(params, X, labels, config.CLASS_WEIGHTS, 1.0)  # reported: JNP104
    return loss


# project shape (not a thread): a gradient function jitted again inside the loop
def case_gradient_jitted_every_step():
    X, y = jax.device_put(data.make_data())
    params = _params()
    for _ in range(config.NUM_STEPS):
        grads = jax.jit(jax.grad(losses.mse_ok))(params, X, y)  # reported: JNP602
        params = jax.tree.map(lambda p, g: p - config.LEARNING_RATE * g, params, grads)
    return params


def case_ok_gradient_jitted_once():
    X, y = jax.device_put(data.make_data())
    params = _params()
    grad_fn = jax.jit(jax.grad(losses.mse_ok))
    for _ in range(config.NUM_STEPS):
        grads = grad_fn(params, X, y)
        params = jax.tree.map(lambda p, g: p - config.LEARNING_RATE * g, params, grads)
    return params


# project shape (not a thread): one key for the dropout mask and for the input noise, in two modules
def case_key_reused_across_modules():
    key = jax.random.PRNGKey(0)
    X = models.dropout(key, jnp.asarray(data.make_data()[0]))
    X = data.jitter(key, X)  # reported: JNP601
    return steps.predict(_params(), X)


def case_ok_key_split_across_modules():
    drop_key, noise_key = jax.random.split(jax.random.PRNGKey(0))
    X = models.dropout(drop_key, jnp.asarray(data.make_data()[0]))
    X = data.jitter(noise_key, X)
    return steps.predict(_params(), X)


# project shape (not a thread): the same dropout key given to the jitted step on every step
def case_dropout_key_reused_every_step():
    X, y = jax.device_put(data.make_data())
    params, key = _params(), jax.random.PRNGKey(1)
    for _ in range(config.NUM_STEPS):
        params, loss = steps.noisy_step(params, key, X, y)  # reported: JNP601
    return loss


def case_ok_dropout_key_split_every_step():
    X, y = jax.device_put(data.make_data())
    params, key = _params(), jax.random.PRNGKey(1)
    for _ in range(config.NUM_STEPS):
        key, sub = jax.random.split(key)
        params, loss = steps.noisy_step(params, sub, X, y)
    return loss


# project shape (not a thread): a step timed without waiting for it
def case_step_timed_without_waiting():
    X, y = jax.device_put(data.make_data())
    params, times = _params(), []
    params, loss = steps.train_step_ok(params, X, y)
    for _ in range(config.NUM_STEPS):
        start = time.perf_counter()
        params, loss = steps.train_step_ok(params, X, y)
        times.append(time.perf_counter() - start)  # reported: JNP603
    return times


def case_ok_step_timed_with_wait():
    X, y = jax.device_put(data.make_data())
    params, times = _params(), []
    params, loss = steps.train_step_ok(params, X, y)
    for _ in range(config.NUM_STEPS):
        start = time.perf_counter()
        params, loss = jax.block_until_ready(steps.train_step_ok(params, X, y))
        times.append(time.perf_counter() - start)
    return times


# project shape (not a thread): float64 parameters asked of models.py without x64 enabled
def case_wide_params_without_x64():
    return models.wide_params(jax.random.PRNGKey(0), config.FEATURES, 1)


def case_ok_params_in_float32():
    return models.init_params(jax.random.PRNGKey(0), config.FEATURES, 1)


# project shape (not a thread): the three-module chain steps.train_step -> losses.mse -> models.normalize
def case_train_step_reaches_normalize():
    X, y = jax.device_put(data.make_data())
    return train_step(_params(), X, y)


# project shape (not a thread): the star-imported safe_log reached from steps.log_step
def case_log_step_reaches_safe_log():
    X, y = jax.device_put(data.make_data())
    return steps.log_step(_params(), X, y)


# project shape (not a thread): utils.clip_by reached from steps.clipped_step
def case_clipped_step_reaches_numpy_clip():
    X, y = jax.device_put(data.make_data())
    return steps.clipped_step(_params(), X, y)


def case_ok_clipped_step_with_jnp_clip():
    X, y = jax.device_put(data.make_data())
    return steps.clipped_step_ok(_params(), X, y)


# project shape (not a thread): the counted steps
def case_counted_steps():
    X, y = jax.device_put(data.make_data())
    params = _params()
    for _ in range(3):
        params, loss = steps.counted_step(params, X, y)
        steps.counting_step(params, X, y)
    return steps.STEPS_TAKEN, utils.CALLS


# project shape (not a thread): the debug step's print
def case_debug_step_prints():
    X = jax.device_put(data.make_data()[0])
    params = _params()
    return [steps.debug_step(params, X) for _ in range(3)]


# project shape (not a thread): the recorded and augmented steps run three times
def case_recorded_and_augmented_steps():
    X, y = jax.device_put(data.make_data())
    params = _params()
    for _ in range(3):
        steps.recorded_step(params, X, y)
        params, loss = steps.augmented_step(params, X, y)
    return len(utils.HISTORY), loss
