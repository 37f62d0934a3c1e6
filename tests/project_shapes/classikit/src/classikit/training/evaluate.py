"""The evaluation loop over the batches of data/."""
import jax
import jax.numpy as jnp
import numpy as np

import classikit.models as models
from classikit.utils import metrics, rng

from ..data import pipeline
from ..config import ModelConfig
from .steps import make_eval_step

MODEL = ModelConfig()
BATCH = 16


def _params():
    return models.init(rng.make_key(0), MODEL)


def _device_data():
    return jax.device_put(pipeline.load())


# project shape (not a thread): every batch's logits copied to NumPy by metrics.py
def case_logits_to_numpy_every_batch():
    x, y = _device_data()
    step, params, outputs = make_eval_step(), _params(), []
    for xb, _ in pipeline.batches(x, y, BATCH):
        outputs.append(metrics.to_numpy(step(params, xb)))  # reported: JNP101
    return outputs


def case_ok_logits_copied_once():
    x, y = _device_data()
    step, params, outputs = make_eval_step(), _params(), []
    for xb, _ in pipeline.batches(x, y, BATCH):
        outputs.append(step(params, xb))
    return np.asarray(jnp.concatenate(outputs))


# project shape (not a thread): the accuracy helper returns a Python float for every batch
def case_accuracy_every_batch():
    x, y = _device_data()
    step, params, scores = make_eval_step(), _params(), []
    for xb, yb in pipeline.batches(x, y, BATCH):
        scores.append(metrics.accuracy(step(params, xb), yb))  # reported: JNP102
    return scores


# project shape (not a thread): the eval step made for each batch
def case_eval_step_made_per_batch():
    x, y = _device_data()
    params, outputs = _params(), []
    for xb, _ in pipeline.batches(x, y, BATCH):
        outputs.append(make_eval_step()(params, xb))  # reported: JNP602
    return outputs


# project shape (not a thread): the same key augments every batch
def case_noise_key_every_batch():
    x, y = _device_data()
    step, params, key, outputs = make_eval_step(), _params(), rng.make_key(3), []
    for xb, _ in pipeline.batches(x, y, BATCH):
        outputs.append(step(params, pipeline.augment_with_key(key, xb)))  # reported: JNP601
    return outputs


def case_ok_noise_keys_split_per_batch():
    x, y = _device_data()
    step, params, key, outputs = make_eval_step(), _params(), rng.make_key(3), []
    for xb, _ in pipeline.batches(x, y, BATCH):
        key, sub = rng.split(key)
        outputs.append(step(params, pipeline.augment_with_key(sub, xb)))
    return outputs


# project shape (not a thread): the debug forward pass jitted for evaluation
def case_debug_forward_evaluated():
    x, _ = _device_data()
    step, params = make_eval_step(models.apply_debug), _params()
    return [step(params, x) for _ in range(3)]


# project shape (not a thread): the active-unit count jitted for evaluation
def case_active_units():
    x, _ = _device_data()
    return jax.jit(models.active_units)(_params(), x)


def case_ok_active_units_summed():
    x, _ = _device_data()
    return jax.jit(models.active_units_ok)(_params(), x)


# project shape (not a thread): the bfloat16 forward pass jitted for evaluation
def case_half_forward():
    x, _ = _device_data()
    return make_eval_step(models.apply_half)(_params(), x)


def case_ok_half_forward_cast():
    x, _ = _device_data()
    return make_eval_step(models.apply_half_ok)(_params(), x)
