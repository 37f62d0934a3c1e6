"""Flax Linen code as users write it (setup-defined submodules, trainer classes, donated states, timing, noisy inputs, float64 scales, per-epoch shuffles), held out (needs flax and optax)."""
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state


def _data():
    return jnp.arange(32.0).reshape(8, 4) / 32.0, jnp.ones((8, 1))


class Encoder(nn.Module):
    features: int = 8

    def setup(self):
        self.hidden = nn.Dense(self.features)
        self.out = nn.Dense(1)

    def __call__(self, x):
        return self.out(nn.relu(self.hidden(x)))


def _state(model, tx=None):
    x, _ = _data()
    params = model.init(jax.random.PRNGKey(0), x)["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx or optax.sgd(0.1))


def _loss_and_grads(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)
    return jax.value_and_grad(loss_fn)(state.params)


# framework shape (not a thread)
# A setup-style Module rescales its hidden features to unit norm with a helper written for
# NumPy arrays: max() of the norm and a float floor asks Python to compare a tracer.
def _unit_rows(h, python_max):
    norm = jnp.linalg.norm(h, axis=-1, keepdims=True)
    if python_max:
        return h / max(norm.max(), 1e-6)  # reported: JNP202
    return h / jnp.maximum(norm, 1e-6)


class NormalisedEncoder(nn.Module):
    python_max: bool

    def setup(self):
        self.hidden = nn.Dense(8)
        self.head = nn.Dense(1)

    def __call__(self, x):
        return self.head(_unit_rows(self.hidden(x), self.python_max))


def _normalised(python_max):
    x, _ = _data()
    model = NormalisedEncoder(python_max)
    variables = model.init(jax.random.PRNGKey(0), x)
    return jax.jit(model.apply)(variables, x)


def case_python_max_of_a_norm_in_setup_module():
    return _normalised(True)


def case_ok_jnp_maximum_of_a_norm_in_setup_module():
    return _normalised(False)


# framework shape (not a thread)
# A pooling Module keeps the indices of the active tokens with jnp.nonzero; under the jitted
# apply the mask is a tracer, so the number of indices is unknown.
class ActivePool(nn.Module):
    fixed_size: bool

    def setup(self):
        self.score = nn.Dense(1)

    def __call__(self, tokens, mask):
        scores = self.score(tokens)[:, 0]
        if self.fixed_size:
            (active,) = jnp.nonzero(mask, size=tokens.shape[0], fill_value=0)
        else:
            (active,) = jnp.nonzero(mask)  # reported: JNP203
        return scores[active].sum()


def _pooled(fixed_size):
    tokens, mask = jnp.ones((6, 4)), jnp.array([True, True, False, True, False, False])
    model = ActivePool(fixed_size)
    variables = model.init(jax.random.PRNGKey(0), tokens, jnp.ones(6, bool))
    return jax.jit(model.apply)(variables, tokens, mask)


def case_nonzero_without_size_in_jitted_apply():
    return _pooled(False)


def case_ok_nonzero_with_size_in_jitted_apply():
    return _pooled(True)


# framework shape (not a thread)
# A trainer class keeps its shuffling key on self and permutes the data with it every epoch;
# the key never changes, so every epoch sees the same order.
class ShufflingTrainer:
    def __init__(self, split_every_epoch):
        self.state = _state(Encoder())
        self.key = jax.random.PRNGKey(3)
        self.split_every_epoch = split_every_epoch
        self.step = jax.jit(self._step)

    @staticmethod
    def _step(state, x, y):
        loss, grads = _loss_and_grads(state, x, y)
        return state.apply_gradients(grads=grads), loss

    def epoch_order(self, n):
        if self.split_every_epoch:
            self.key, key = jax.random.split(self.key)
            return jax.random.permutation(key, n)
        return jax.random.permutation(self.key, n)  # reported: JNP601

    def fit(self, epochs):
        x, y = _data()
        orders = []
        for _ in range(epochs):
            order = self.epoch_order(x.shape[0])
            self.state, _ = self.step(self.state, x[order], y[order])
            orders.append(order)
        return bool(jnp.array_equal(orders[0], orders[1]))


def case_shuffle_key_kept_on_the_trainer():
    return ShufflingTrainer(False).fit(3)


def case_ok_shuffle_key_split_every_epoch():
    return ShufflingTrainer(True).fit(3)


# framework shape (not a thread)
# The train step donates the state; the loop then reads the old state's parameters for an
# exponential moving average, but their buffers were given to the step.
def _donating_step(state, x, y):
    loss, grads = _loss_and_grads(state, x, y)
    return state.apply_gradients(grads=grads), loss


_donated_step = jax.jit(_donating_step, donate_argnums=0)


def _ema_training(read_new, steps):
    state = _state(Encoder())
    x, y = _data()
    ema = jax.tree.map(jnp.copy, state.params)
    for _ in range(steps):
        new_state, loss = _donated_step(state, x, y)
        if read_new:
            ema = jax.tree.map(lambda e, p: 0.9 * e + 0.1 * p, ema, new_state.params)
        else:
            ema = jax.tree.map(lambda e, p: 0.9 * e + 0.1 * p, ema, state.params)  # reported: JNP605
        state = new_state
    return ema


def case_old_state_read_after_donation():
    return _ema_training(False, 3)


def case_ok_new_state_read_after_donation():
    return _ema_training(True, 3)


# framework shape (not a thread)
# The epoch time is taken right after the last jitted step returns; JAX dispatches the step
# asynchronously, so the clock stops before the device finishes.
@jax.jit
def _plain_step(state, x, y):
    loss, grads = _loss_and_grads(state, x, y)
    return state.apply_gradients(grads=grads), loss


def _timed_epochs(wait, epochs):
    state = _state(Encoder(64))
    x, y = _data()
    seconds = []
    for _ in range(epochs):
        start = time.perf_counter()
        for _ in range(20):
            state, loss = _plain_step(state, x, y)
        if wait:
            loss.block_until_ready()
            seconds.append(time.perf_counter() - start)
        else:
            seconds.append(time.perf_counter() - start)  # reported: JNP603
    return seconds


def case_epoch_timed_without_waiting():
    return _timed_epochs(False, 3)


def case_ok_epoch_timed_after_waiting():
    return _timed_epochs(True, 3)


# framework shape (not a thread)
# Input noise for robustness is drawn with np.random inside a setup-style Module's method; under
# jit the noise is drawn once, while tracing, and baked into the compiled code.
class NoisyEncoder(nn.Module):
    host_noise: bool

    def setup(self):
        self.encoder = Encoder()

    def perturb(self, x):
        if self.host_noise:
            return x + 0.1 * np.random.normal(size=x.shape)  # reported: JNP305
        return x + 0.1 * jax.random.normal(self.make_rng("noise"), x.shape)

    def __call__(self, x):
        return self.encoder(self.perturb(x))


def _noisy_outputs(host_noise):
    x, _ = _data()
    model = NoisyEncoder(host_noise)
    variables = model.init({"params": jax.random.PRNGKey(0), "noise": jax.random.PRNGKey(1)}, x)
    apply = jax.jit(lambda v, key: model.apply(v, x, rngs={"noise": key}))
    return bool(jnp.array_equal(apply(variables, jax.random.PRNGKey(2)), apply(variables, jax.random.PRNGKey(3))))


def case_numpy_noise_in_a_jitted_method():
    return _noisy_outputs(True)


def case_ok_jax_noise_in_a_jitted_method():
    return _noisy_outputs(False)


# framework shape (not a thread)
# A learnable output scale is declared float64 for precision; without jax_enable_x64 the
# parameter is created as float32, with a warning.
class ScaledHead(nn.Module):
    wide: bool

    @nn.compact
    def __call__(self, x):
        if self.wide:
            scale = self.param("scale", nn.initializers.ones, (1,), jnp.float64)  # reported: JNP402
        else:
            scale = self.param("scale", nn.initializers.ones, (1,), jnp.float32)
        return nn.Dense(1)(x) * scale


def _scale_dtype(wide):
    x, _ = _data()
    return ScaledHead(wide).init(jax.random.PRNGKey(0), x)["params"]["scale"].dtype


def case_float64_param_without_x64():
    return _scale_dtype(True)


def case_ok_float32_param():
    return _scale_dtype(False)


# framework shape (not a thread)
# An evaluation method of a trainer class gathers every batch's predictions as NumPy arrays for
# a confusion matrix, fetching from the device on each batch.
class Evaluator:
    def __init__(self, state):
        self.state = state
        self.predict = jax.jit(lambda params, x: self.state.apply_fn({"params": params}, x))

    def predictions(self, batches, fetch_each):
        kept = []
        for x in batches:
            logits = self.predict(self.state.params, x)
            if fetch_each:
                kept.append(np.asarray(logits))  # reported: JNP101
            else:
                kept.append(logits)
        return np.concatenate(kept) if fetch_each else np.asarray(jnp.concatenate(kept))


def _evaluate(fetch_each):
    x, _ = _data()
    return Evaluator(_state(Encoder())).predictions([x[:4], x[4:], x[:4], x[4:]] * 4, fetch_each)


def case_predictions_fetched_every_batch():
    return _evaluate(True)


def case_ok_predictions_fetched_once():
    return _evaluate(False)


# framework shape (not a thread)
# The dropout rate of the regularised Module is a module-level setting the sweep changes; the
# jitted step read it while tracing and keeps the first rate.
DROPOUT_RATE = 0.0


class Regularised(nn.Module):
    rate_field: float = -1.0

    @nn.compact
    def __call__(self, x, key):
        h = nn.relu(nn.Dense(8)(x))
        if self.rate_field >= 0:
            h = nn.Dropout(self.rate_field, deterministic=False)(h, rng=key)
        else:
            h = nn.Dropout(DROPOUT_RATE, deterministic=False)(h, rng=key)  # reported: JNP304
        return nn.Dense(1)(h)


def _sweep(rate_field):
    global DROPOUT_RATE
    x, _ = _data()
    outputs = []
    for rate in (0.0, 0.9):
        model = Regularised(rate if rate_field else -1.0)
        variables = model.init(jax.random.PRNGKey(0), x, jax.random.PRNGKey(1))
        DROPOUT_RATE = rate
        apply = _sweep_apply if not rate_field else jax.jit(model.apply)
        outputs.append(apply(variables, x, jax.random.PRNGKey(1)))
    DROPOUT_RATE = 0.0
    return bool(jnp.array_equal(*outputs))


_sweep_apply = jax.jit(Regularised().apply)


def case_dropout_rate_global_changed_between_calls():
    return _sweep(False)


def case_ok_dropout_rate_field_per_model():
    return _sweep(True)
