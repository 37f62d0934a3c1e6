"""The jitted steps; train.py and eval.py drive them."""
import jax

from . import losses, models, utils
from .config import LEARNING_RATE
from .decorators import compiled, jit_classes

STEPS_TAKEN = 0


@jax.jit
def train_step(params, X, y):
    loss, grads = jax.value_and_grad(losses.mse)(params, X, y)
    return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads), loss


@jax.jit
def train_step_ok(params, X, y):
    loss, grads = jax.value_and_grad(losses.mse_ok)(params, X, y)
    return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads), loss


@jax.jit
def counted_step(params, X, y):
    # project shape (not a thread): a step counter kept in a global
    global STEPS_TAKEN
    STEPS_TAKEN += 1  # reported: JNP302
    loss, grads = jax.value_and_grad(losses.mse_ok)(params, X, y)
    return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads), loss


@jax.jit
def clipped_step(params, X, y):
    grads = jax.grad(losses.mse_ok)(params, X, y)
    w = utils.clip_by(grads["w"], 1.0)
    return {"w": params["w"] - LEARNING_RATE * w, "b": params["b"] - LEARNING_RATE * grads["b"]}


@jax.jit
def clipped_step_ok(params, X, y):
    grads = jax.grad(losses.mse_ok)(params, X, y)
    w = utils.clip_by_jnp(grads["w"], 1.0)
    return {"w": params["w"] - LEARNING_RATE * w, "b": params["b"] - LEARNING_RATE * grads["b"]}


@jax.jit
def log_step(params, X, y):
    loss, grads = jax.value_and_grad(losses.log_loss)(params, X, y)
    return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads), loss


@jax.jit
def counting_step(params, X, y):
    X = utils.count_call(X)
    return losses.mse_ok(params, X, y)


@jax.jit
def recorded_step(params, X, y):
    return utils.record(losses.mse_ok(params, X, y))


@jax.jit
def augmented_step(params, X, y):
    loss, grads = jax.value_and_grad(losses.mse_ok)(params, utils.augment(X), y)
    return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads), loss


@jax.jit
def debug_step(params, X):
    return models.debug_forward(params, X)


@jax.jit
def xent_step(params, X, labels, weights):
    loss, grads = jax.value_and_grad(losses.xent)(params, X, labels, weights)
    return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads), loss


@jax.jit
def xent_step_at(params, X, labels, weights, temperature):
    loss, grads = jax.value_and_grad(losses.xent_at)(params, X, labels, weights, temperature)
    return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads), loss


@jax.jit
def noisy_step(params, key, X, y):
    X = models.dropout(key, X)
    loss, grads = jax.value_and_grad(losses.mse_ok)(params, X, y)
    return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads), loss


@jit_classes
def class_scores(params, X, n_classes):
    scores = models.forward(params, X)[:, :n_classes]
    # project shape (not a thread): a print in a step jitted through the project's partial(jax.jit, ...)
    print("scores", scores)  # reported: JNP301
    return scores


@compiled
def margin(params, X):
    scores = models.forward(params, X)
    # project shape (not a thread): a Python float of a traced value in a step jitted by the project's wrapper
    return float(scores.max())  # reported: JNP202


@compiled
def margin_ok(params, X):
    return models.forward(params, X).max()


@jax.jit
def predict(params, X):
    return models.forward(params, X)
