"""The training loops: data from data/, the model from models/, steps from steps.py."""
import time

import jax
import jax.numpy as jnp

from classikit import ModelConfig, TrainConfig, WideModelConfig, init
from classikit.data.pipeline import augment_with_key, load, load_raw
from classikit.utils import KeyStream, MetricLogger, make_key

from ..models import apply_checked, apply_checked_ok, apply_numpy_act, dropout
from ..utils import metrics
from . import callbacks, steps

CFG = TrainConfig()
MODEL = ModelConfig()


def _params(seed=0, cfg=MODEL):
    return init(make_key(seed), cfg)


def _device_data():
    return jax.device_put(load())


# project shape (not a thread): NumPy batches from data/ given to the factory's jitted step every step
def case_host_batches_every_step():
    x, y = load()
    step, params = steps.make_train_step(CFG), _params()
    for _ in range(CFG.steps):
        params, loss = step(params, x, y)  # reported: JNP104
    return loss


def case_ok_batches_placed_once():
    x, y = _device_data()
    step, params = steps.make_train_step(CFG), _params()
    for _ in range(CFG.steps):
        params, loss = step(params, x, y)
    return loss


# project shape (not a thread): the loss turned into a Python number by metrics.py on every step
def case_loss_to_scalar_every_step():
    x, y = _device_data()
    step, params, history = steps.make_train_step(CFG), _params(), []
    for _ in range(CFG.steps):
        params, loss = step(params, x, y)
        history.append(metrics.to_scalar(loss))  # reported: JNP102
    return history


def case_ok_losses_stacked():
    x, y = _device_data()
    step, params, history = steps.make_train_step(CFG), _params(), []
    for _ in range(CFG.steps):
        params, loss = step(params, x, y)
        history.append(loss)
    return jnp.stack(history)


# project shape (not a thread): the logger's method formats the loss on every step
def case_logger_every_step():
    x, y = _device_data()
    step, params, logger = steps.make_train_step(CFG), _params(), MetricLogger()
    for i in range(CFG.steps):
        params, loss = step(params, x, y)
        logger.log(i, loss=loss)  # reported: JNP103


def case_ok_logger_flushed_at_the_end():
    x, y = _device_data()
    step, params, logger = steps.make_train_step(CFG), _params(), MetricLogger()
    for i in range(CFG.steps):
        params, loss = step(params, x, y)
        logger.keep(i, loss=loss)
    logger.flush()


# project shape (not a thread): the step factory called inside the loop: a new jit every step
def case_step_rebuilt_every_step():
    x, y = _device_data()
    params = _params()
    for _ in range(CFG.steps):
        params, loss = steps.make_train_step(CFG)(params, x, y)  # reported: JNP602
    return loss


# project shape (not a thread): a step timed without waiting for its result
def case_step_timed_without_waiting():
    x, y = _device_data()
    step, params, times = steps.make_train_step(CFG), _params(), []
    params, loss = step(params, x, y)
    for _ in range(CFG.steps):
        start = time.perf_counter()
        params, loss = step(params, x, y)
        times.append(time.perf_counter() - start)  # reported: JNP603
    return times


def case_ok_step_timed_with_wait():
    x, y = _device_data()
    step, params, times = steps.make_train_step(CFG), _params(), []
    params, loss = step(params, x, y)
    for _ in range(CFG.steps):
        start = time.perf_counter()
        params, loss = jax.block_until_ready(step(params, x, y))
        times.append(time.perf_counter() - start)
    return times


# project shape (not a thread): one key from utils/rng.py for the input noise (data/) and the dropout (models/)
def case_key_for_noise_and_dropout():
    key, params = make_key(CFG.seed), _params()
    x = augment_with_key(key, jnp.asarray(load()[0]))
    x = dropout(key, x)  # reported: JNP601
    return steps.make_eval_step()(params, x)


def case_ok_keys_from_stream():
    keys, params = KeyStream(CFG.seed), _params()
    x = augment_with_key(keys(), jnp.asarray(load()[0]))
    x = dropout(keys(), x)
    return steps.make_eval_step()(params, x)


# project shape (not a thread): the same noise key given to the keyed step on every step
def case_noise_key_every_step():
    x, y = _device_data()
    step, params, key = steps.make_keyed_step(CFG), _params(), make_key(1)
    for _ in range(CFG.steps):
        params, loss = step(params, key, x, y)  # reported: JNP601
    return loss


def case_ok_noise_key_from_stream():
    x, y = _device_data()
    step, params, keys = steps.make_keyed_step(CFG), _params(), KeyStream(1)
    for _ in range(CFG.steps):
        params, loss = step(params, keys(), x, y)
    return loss


# project shape (not a thread): the learning rate decayed by a callback that rebinds its global
def case_lr_decayed_by_callback():
    x, y = _device_data()
    step, params = steps.make_scheduled_step(CFG), _params()
    for _ in range(3):
        callbacks.decay_lr()
        params, loss = step(params, x, y)
    return loss


def case_ok_lr_scale_passed():
    x, y = _device_data()
    step, params = steps.make_scheduled_step_ok(CFG), _params()
    for scale in (0.5, 0.25, 0.125):
        params, loss = step(params, x, y, scale)
    return loss


# project shape (not a thread): callbacks counting steps and recording losses from the jitted step
def case_callbacks_in_step():
    x, y = _device_data()
    step, params = steps.make_counted_step(CFG), _params()
    for _ in range(3):
        params, loss = step(params, x, y)
    return callbacks.STEPS_SEEN, len(callbacks.LOSSES)


# project shape (not a thread): models.apply_checked given to the step factory
def case_checked_forward_in_step():
    x, y = _device_data()
    return steps.make_train_step(CFG, forward=apply_checked)(_params(), x, y)


def case_ok_nan_to_num_forward_in_step():
    x, y = _device_data()
    return steps.make_train_step(CFG, forward=apply_checked_ok)(_params(), x, y)


# project shape (not a thread): models.apply_numpy_act given to the step factory
def case_numpy_activation_in_step():
    x, y = _device_data()
    return steps.make_train_step(CFG, forward=apply_numpy_act)(_params(), x, y)


# project shape (not a thread): the augmented step draws its NumPy noise once
def case_augmented_steps():
    x, y = _device_data()
    step, params = steps.make_augmented_step(CFG), _params()
    for _ in range(3):
        params, loss = step(params, x, y)
    return loss


# project shape (not a thread): the float64 config without x64 enabled
def case_wide_config_params():
    return _params(cfg=WideModelConfig())


# project shape (not a thread): the raw float64 features of data/ handed to JAX
def case_raw_features_to_device():
    params = _params()
    x = jnp.asarray(load_raw())  # reported: JNP403
    return steps.make_eval_step()(params, x)


def case_ok_float32_features_to_device():
    params = _params()
    x = jnp.asarray(load()[0])
    return steps.make_eval_step()(params, x)
