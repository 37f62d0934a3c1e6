"""Flax NNX and Optax code as users write it, held out (needs flax and optax to run)."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx

TEMPERATURE = 1.0


# framework shape (not a thread)
# A sampler module reads a module-level temperature in __call__; the caller anneals it by
# rebinding the global between calls of an nnx.jit function, which keeps the first value.
class Sampler(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)

    def __call__(self, x):
        return jax.nn.softmax(self.linear(x) / TEMPERATURE)  # reported: JNP304

    def at_temperature(self, x, temperature):
        return jax.nn.softmax(self.linear(x) / temperature)


@nnx.jit
def _sample_probs(model, x):
    return model(x)


@nnx.jit
def _sample_probs_at(model, x, temperature):
    return model.at_temperature(x, temperature)


def case_global_temperature_annealed_between_calls():
    global TEMPERATURE
    model = Sampler(nnx.Rngs(0))
    probs = []
    for temperature in (1.0, 0.5, 0.25):
        TEMPERATURE = temperature
        probs.append(_sample_probs(model, jnp.ones((2, 3))))
    return probs


def case_ok_temperature_passed_to_each_call():
    model = Sampler(nnx.Rngs(0))
    return [_sample_probs_at(model, jnp.ones((2, 3)), t) for t in (1.0, 0.5, 0.25)]


# framework shape (not a thread)
# An evaluation step made by a factory keeps the encoder's features for a probe in a list it
# closes over; under nnx.jit the append happens once, while tracing, and stores a tracer.
class EncoderHead(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.encoder = nnx.Linear(3, 4, rngs=rngs)
        self.head = nnx.Linear(4, 2, rngs=rngs)


def _make_eval_step(features):
    @nnx.jit
    def eval_step(model, x):
        h = nnx.relu(model.encoder(x))
        features.append(h)  # reported: JNP303
        return model.head(h)
    return eval_step


@nnx.jit
def _eval_with_features(model, x):
    h = nnx.relu(model.encoder(x))
    return model.head(h), h


def case_features_appended_in_factory_eval_step():
    features = []
    eval_step = _make_eval_step(features)
    model = EncoderHead(nnx.Rngs(0))
    logits = [eval_step(model, jnp.full((2, 3), float(i))) for i in range(3)]
    return logits, features


def case_ok_features_returned_by_eval_step():
    model = EncoderHead(nnx.Rngs(0))
    features, logits = [], []
    for i in range(3):
        out, h = _eval_with_features(model, jnp.full((2, 3), float(i)))
        logits.append(out)
        features.append(h)
    return logits, features


# framework shape (not a thread)
# A warm-up factor computed from the step number, which the nnx.jit step declares static: the host
# loop passes a new step number every time, so every step compiles again.
class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 2, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


@functools.partial(nnx.jit, static_argnames="step")
def _warm_step(model, optimizer, x, y, step):
    warm = min(1.0, (step + 1) / 10)

    def loss_fn(model):
        return warm * jnp.mean((model(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


@nnx.jit
def _warm_step_traced(model, optimizer, x, y, step):
    warm = jnp.minimum(1.0, (step + 1) / 10)

    def loss_fn(model):
        return warm * jnp.mean((model(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def case_static_step_number_every_step():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    losses = []
    for step in range(5):
        losses.append(_warm_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 2)), step=step))  # reported: JNP602
    return losses


def case_ok_traced_step_number_every_step():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    losses = []
    for step in range(5):
        losses.append(_warm_step_traced(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 2)), step=step))
    return losses


# framework shape (not a thread)
# A length regulator (as in FastSpeech) repeats each frame by a predicted duration with
# jnp.repeat; under nnx.jit the total length depends on the data.
class LengthRegulator(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.duration = nnx.Linear(3, 1, rngs=rngs)

    def durations(self, x):
        return jnp.clip(jnp.round(nnx.softplus(self.duration(x))[:, 0]), 1, 4).astype(jnp.int32)

    def __call__(self, x):
        return jnp.repeat(x, self.durations(x), axis=0)  # reported: JNP203

    def padded(self, x, max_frames):
        return jnp.repeat(x, self.durations(x), axis=0, total_repeat_length=max_frames)


@nnx.jit
def _regulate(model, x):
    return model(x)


@functools.partial(nnx.jit, static_argnames="max_frames")
def _regulate_padded(model, x, max_frames):
    return model.padded(x, max_frames)


def case_repeat_by_predicted_durations():
    return _regulate(LengthRegulator(nnx.Rngs(0)), jnp.ones((5, 3)))


def case_ok_repeat_with_total_length():
    return _regulate_padded(LengthRegulator(nnx.Rngs(0)), jnp.ones((5, 3)), 20)


# framework shape (not a thread)
# Adaptive computation: __call__ decides how many times to apply its block from a halting score,
# and loops range(int(...)) over it; under nnx.jit the score is traced.
class Ponder(nnx.Module):
    def __init__(self, rngs: nnx.Rngs, max_steps: int = 4):
        self.halt = nnx.Linear(3, 1, rngs=rngs)
        self.block = nnx.Linear(3, 3, rngs=rngs)
        self.max_steps = max_steps

    def __call__(self, x):
        steps = jnp.ceil(nnx.sigmoid(self.halt(x)).max() * self.max_steps)
        for _ in range(int(steps)):  # reported: JNP202
            x = x + nnx.tanh(self.block(x))
        return x

    def fixed(self, x):
        keep = nnx.sigmoid(self.halt(x))
        for _ in range(self.max_steps):
            x = x + keep * nnx.tanh(self.block(x))
        return x


@nnx.jit
def _ponder(model, x):
    return model(x)


@nnx.jit
def _ponder_fixed(model, x):
    return model.fixed(x)


def case_int_of_halting_score_in_call():
    return _ponder(Ponder(nnx.Rngs(0)), jnp.ones((2, 3)))


def case_ok_fixed_steps_in_method():
    return _ponder_fixed(Ponder(nnx.Rngs(0)), jnp.ones((2, 3)))


# framework shape (not a thread)
# The model's __init__ orthogonalises its kernel with NumPy's QR; the abstract model for a
# checkpoint restore is built with nnx.eval_shape, which traces __init__.
class Orthogonal(nnx.Module):
    def __init__(self, rngs: nnx.Rngs, numpy_qr: bool = True):
        self.linear = nnx.Linear(4, 4, rngs=rngs)
        if numpy_qr:
            q, _ = np.linalg.qr(self.linear.kernel.value)  # reported: JNP201
        else:
            q, _ = jnp.linalg.qr(self.linear.kernel.value)
        self.linear.kernel.value = jnp.asarray(q)


def case_numpy_qr_in_init_under_eval_shape():
    return nnx.eval_shape(lambda: Orthogonal(nnx.Rngs(0)))


def case_ok_jnp_qr_in_init_under_eval_shape():
    return nnx.eval_shape(lambda: Orthogonal(nnx.Rngs(0), numpy_qr=False))


# framework shape (not a thread)
# Training until the loss is small: the while condition compares the loss an nnx.jit step returns,
# which pulls it to the host on every step.
@nnx.jit
def _train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def case_while_on_device_loss():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 2))
    loss = _train_step(model, optimizer, x, y)
    steps = 1
    while loss > 1e-3 and steps < 20:  # reported: JNP102
        loss = _train_step(model, optimizer, x, y)
        steps += 1
    return steps


def case_ok_fixed_steps_then_loss():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 2))
    for _ in range(20):
        loss = _train_step(model, optimizer, x, y)
    return float(loss)
