"""Flax NNX and Optax code as users write it, held out (needs flax and optax to run)."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


# framework shape (not a thread)
# The functional split/merge pattern: the module is rebuilt with nnx.merge inside a jax.jit function;
# its __call__ rectifies with NumPy.
class Rectified(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)

    def __call__(self, x):
        return np.maximum(self.linear(x), 0.0)  # reported: JNP201


class RectifiedJnp(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)

    def __call__(self, x):
        return jnp.maximum(self.linear(x), 0.0)


def case_numpy_in_module_rebuilt_by_merge():
    graphdef, state = nnx.split(Rectified(nnx.Rngs(0)))

    @jax.jit
    def forward(state, x):
        return nnx.merge(graphdef, state)(x)

    return forward(state, jnp.ones((2, 3)))


def case_ok_jnp_in_module_rebuilt_by_merge():
    graphdef, state = nnx.split(RectifiedJnp(nnx.Rngs(0)))

    @jax.jit
    def forward(state, x):
        return nnx.merge(graphdef, state)(x)

    return forward(state, jnp.ones((2, 3)))


# framework shape (not a thread)
# A custom layer inside nnx.Sequential, applied by an nnx.jit function; the layer prints its input.
class Probe(nnx.Module):
    def __call__(self, x):
        print("probe", x)  # reported: JNP301
        return x


class ProbeQuiet(nnx.Module):
    def __call__(self, x):
        jax.debug.print("probe {}", x)
        return x


@nnx.jit
def _predict(model, x):
    return model(x)


def case_print_in_layer_of_nnx_sequential():
    rngs = nnx.Rngs(0)
    model = nnx.Sequential(nnx.Linear(3, 4, rngs=rngs), Probe())
    return [_predict(model, jnp.ones((2, 3))) for _ in range(2)]


def case_ok_debug_print_in_layer_of_nnx_sequential():
    rngs = nnx.Rngs(0)
    model = nnx.Sequential(nnx.Linear(3, 4, rngs=rngs), ProbeQuiet())
    return [_predict(model, jnp.ones((2, 3))) for _ in range(2)]


# framework shape (not a thread)
# A factory picks the model class from a config string; the chosen module scales by a Python float of its output.
class Normalised(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        return h / float(jnp.abs(h).max())  # reported: JNP202


class NormalisedArray(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        return h / jnp.abs(h).max()


def _build_model(kind, rngs):
    if kind == "python-scale":
        return Normalised(rngs)
    return NormalisedArray(rngs)


def case_float_in_module_from_factory():
    return _predict(_build_model("python-scale", nnx.Rngs(0)), jnp.ones((2, 3)))


def case_ok_array_scale_in_module_from_factory():
    return _predict(_build_model("array-scale", nnx.Rngs(0)), jnp.ones((2, 3)))


# framework shape (not a thread)
# The loss is a closure inside an nnx.jit step differentiated with nnx.grad; it counts the classes with jnp.unique.
class Classifier(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


@nnx.jit
def _balanced_step(model, optimizer, x, y):
    def loss_fn(model):
        logits = model(x)
        n_classes = jnp.unique(y).shape[0]  # reported: JNP203
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean() / n_classes
    optimizer.update(model, nnx.grad(loss_fn)(model))


@nnx.jit
def _plain_step(model, optimizer, x, y):
    def loss_fn(model):
        logits = model(x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean() / logits.shape[-1]
    optimizer.update(model, nnx.grad(loss_fn)(model))


def case_unique_in_loss_closure_under_nnx_grad():
    model = Classifier(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    return _balanced_step(model, optimizer, jnp.ones((4, 3)), jnp.array([0, 1, 1, 2]))


def case_ok_static_class_count_under_nnx_grad():
    model = Classifier(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    return _plain_step(model, optimizer, jnp.ones((4, 3)), jnp.array([0, 1, 1, 2]))


# framework shape (not a thread)
# Eager inference over batches: the predicted label of every batch read with int().
def case_int_of_eager_prediction_every_batch():
    model = Classifier(nnx.Rngs(0))
    labels = []
    for batch in jnp.ones((5, 3)):
        labels.append(int(model(batch).argmax()))  # reported: JNP102
    return labels


def case_ok_predictions_kept_on_device():
    model = Classifier(nnx.Rngs(0))
    labels = []
    for batch in jnp.ones((5, 3)):
        labels.append(model(batch).argmax())
    return [int(label) for label in jax.device_get(labels)]
