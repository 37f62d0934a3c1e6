"""Evaluation: the predictions of steps.py over the batches of data.py."""
import jax
import jax.numpy as jnp
import numpy as np

from . import config, data, models, steps, utils
from . import predict


def _params(n_out=1):
    return models.init_params(jax.random.PRNGKey(0), config.FEATURES, n_out)


# project shape (not a thread): every batch's predictions copied to NumPy inside the loop
def case_predictions_copied_every_batch():
    X, y = data.make_data()
    params, outputs = _params(), []
    for xb, _ in data.batches(jnp.asarray(X), jnp.asarray(y), config.BATCH_SIZE):
        outputs.append(np.asarray(predict(params, xb)))  # reported: JNP101
    return outputs


def case_ok_predictions_copied_once():
    X, y = data.make_data()
    params, outputs = _params(), []
    for xb, _ in data.batches(jnp.asarray(X), jnp.asarray(y), config.BATCH_SIZE):
        outputs.append(predict(params, xb))
    return np.asarray(jnp.concatenate(outputs))


# project shape (not a thread): a metric helper that calls .item() on every batch
def case_accuracy_item_every_batch():
    X, _ = data.make_data()
    labels = jnp.asarray(data.make_labels())
    params, scores = _params(n_out=3), []
    for start in range(0, len(X), config.BATCH_SIZE):
        pred = steps.predict(params, jnp.asarray(X[start:start + config.BATCH_SIZE]))
        scores.append(utils.accuracy(pred, labels[start:start + config.BATCH_SIZE]))  # reported: JNP102
    return scores


# project shape (not a thread): the margin step jitted by the project's wrapper, used per batch
def case_margin_through_project_jit():
    X, _ = data.make_data()
    return steps.margin(_params(), jnp.asarray(X))


def case_ok_margin_kept_as_array():
    X, _ = data.make_data()
    return steps.margin_ok(_params(), jnp.asarray(X))


# project shape (not a thread): the scores step jitted through the project's partial(jax.jit, ...)
def case_class_scores_print():
    X = jnp.asarray(data.make_data()[0])
    params = _params(n_out=3)
    return [steps.class_scores(params, X, 2) for _ in range(3)]


# project shape (not a thread): a lambda jitted here reaching a check in models.py
def case_lambda_reaches_normalize():
    X, _ = data.make_data()
    score = jax.jit(lambda p, x: models.forward(p, models.normalize(x)))
    return score(_params(), jnp.asarray(X))


def case_ok_lambda_with_safe_normalize():
    X, _ = data.make_data()
    score = jax.jit(lambda p, x: models.forward(p, models.normalize_ok(x)))
    return score(_params(), jnp.asarray(X))


# project shape (not a thread): models.predict_scaled jits a new lambda for every batch
def case_scaled_predictions_per_batch():
    X = jnp.asarray(data.make_data()[0])
    params, outputs = _params(), []
    for start in range(0, len(X), config.BATCH_SIZE):
        outputs.append(models.predict_scaled(params, X[start:start + config.BATCH_SIZE], 2.0))
    return outputs


def case_ok_scaled_predictions_jitted_once():
    X = jnp.asarray(data.make_data()[0])
    params, outputs = _params(), []
    for start in range(0, len(X), config.BATCH_SIZE):
        outputs.append(models.predict_scaled_ok(params, X[start:start + config.BATCH_SIZE], 2.0))
    return outputs
