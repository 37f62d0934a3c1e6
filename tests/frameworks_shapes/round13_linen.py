"""Flax Linen code as users write it (train states, Optax schedules, nn.scan, BatchNorm statistics, methods calling methods), held out (needs flax and optax)."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(8)(x)))


def _regression_data():
    return jnp.arange(24.0).reshape(8, 3) / 24.0, jnp.ones((8, 1))


@jax.jit
def _state_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def _regression_state(tx):
    x, _ = _regression_data()
    model = Regressor()
    params = model.init(jax.random.PRNGKey(0), x[:1])["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


# framework shape (not a thread)
# A warm-up schedule written as a Python function branches on the step count with `if`; Optax
# calls it inside apply_gradients, under the jitted step, where the count is a tracer.
def _python_warmup(count):
    if count < 10:  # reported: JNP202
        return 1e-2 * count / 10
    return 1e-2


def _traced_warmup(count):
    return jnp.where(count < 10, 1e-2 * count / 10, 1e-2)


def _fit_scheduled(schedule):
    state = _regression_state(optax.adam(schedule))
    x, y = _regression_data()
    for _ in range(3):
        state, loss = _state_step(state, x, y)
    return loss


def case_python_if_in_optax_schedule_under_jit():
    return _fit_scheduled(_python_warmup)


def case_ok_jnp_where_in_optax_schedule_under_jit():
    return _fit_scheduled(_traced_warmup)


# framework shape (not a thread)
# A train state that carries BatchNorm statistics; the loop turns every metric of every step
# into a Python float for the history, which waits for the device on each step.
class BatchNormRegressor(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        h = nn.Dense(8)(x)
        h = nn.BatchNorm(use_running_average=not train)(h)
        return nn.Dense(1)(nn.relu(h))


class BatchNormState(train_state.TrainState):
    batch_stats: dict


@jax.jit
def _batch_norm_step(state, x, y):
    def loss_fn(params):
        pred, updates = state.apply_fn({"params": params, "batch_stats": state.batch_stats}, x, train=True,
                                       mutable=["batch_stats"])
        return jnp.mean((pred - y) ** 2), (pred, updates)
    (loss, (pred, updates)), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(grads=grads).replace(batch_stats=updates["batch_stats"])
    return state, {"loss": loss, "mae": jnp.mean(jnp.abs(pred - y))}


def _batch_norm_state():
    x, _ = _regression_data()
    model = BatchNormRegressor()
    variables = model.init(jax.random.PRNGKey(0), x, train=False)
    return BatchNormState.create(apply_fn=model.apply, params=variables["params"], tx=optax.sgd(0.1),
                                 batch_stats=variables["batch_stats"])


def case_metrics_floated_every_step():
    state, (x, y) = _batch_norm_state(), _regression_data()
    history = []
    for _ in range(5):
        state, metrics = _batch_norm_step(state, x, y)
        history.append({name: float(value) for name, value in metrics.items()})  # reported: JNP102
    return history


def case_ok_metrics_floated_after_the_loop():
    state, (x, y) = _batch_norm_state(), _regression_data()
    history = []
    for _ in range(5):
        state, metrics = _batch_norm_step(state, x, y)
        history.append(metrics)
    return [{name: float(value) for name, value in metrics.items()} for metrics in jax.device_get(history)]


# framework shape (not a thread)
# A recurrent cell written from a NumPy reference squashes its state with np.tanh; nn.scan traces
# the cell over the sequence, so the state is a tracer even in init.
class TanhCell(nn.Module):
    use_numpy: bool

    @nn.compact
    def __call__(self, carry, x):
        h = nn.Dense(4)(jnp.concatenate([carry, x]))
        if self.use_numpy:
            carry = np.tanh(h)  # reported: JNP201
        else:
            carry = jnp.tanh(h)
        return carry, carry


class ScannedRNN(nn.Module):
    use_numpy: bool

    @nn.compact
    def __call__(self, xs):
        scan = nn.scan(TanhCell, variable_broadcast="params", split_rngs={"params": False}, in_axes=0, out_axes=0)
        _, ys = scan(self.use_numpy)(jnp.zeros(4), xs)
        return ys


def case_numpy_tanh_in_scanned_cell():
    return ScannedRNN(True).init(jax.random.PRNGKey(0), jnp.ones((5, 2)))


def case_ok_jnp_tanh_in_scanned_cell():
    return ScannedRNN(False).init(jax.random.PRNGKey(0), jnp.ones((5, 2)))


# framework shape (not a thread)
# The dropout key is made once before the loop and handed to every step, so every step drops the
# same units.
class DropoutRegressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.Dropout(0.5, deterministic=False)(nn.relu(nn.Dense(8)(x))))


@jax.jit
def _dropout_step(state, x, y, dropout_key):
    def loss_fn(params):
        pred = state.apply_fn({"params": params}, x, rngs={"dropout": dropout_key})
        return jnp.mean((pred - y) ** 2)
    grads = jax.grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), grads


def _dropout_training(fold_step):
    x, y = _regression_data()
    model = DropoutRegressor()
    params = model.init(jax.random.PRNGKey(0), x[:1])["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.0))
    dropout_key = jax.random.PRNGKey(1)
    masks = []
    for step in range(3):
        if fold_step:
            state, grads = _dropout_step(state, x, y, jax.random.fold_in(dropout_key, step))
        else:
            state, grads = _dropout_step(state, x, y, dropout_key)  # reported: JNP601
        masks.append(grads["Dense_1"]["kernel"] != 0)
    return bool(jnp.array_equal(masks[0], masks[1]))


def case_one_dropout_key_every_step():
    return _dropout_training(False)


def case_ok_dropout_key_folded_with_the_step():
    return _dropout_training(True)


# framework shape (not a thread)
# Input noise for augmentation is drawn with np.random inside the module; under the jitted apply
# it is drawn once, while tracing, and every call adds the same noise.
class NoisyInput(nn.Module):
    host_noise: bool

    @nn.compact
    def __call__(self, x):
        if self.host_noise:
            x = x + 0.1 * np.random.normal(size=x.shape)  # reported: JNP305
        else:
            x = x + 0.1 * jax.random.normal(self.make_rng("noise"), x.shape)
        return nn.Dense(2)(x)


def _noisy_twice(host_noise):
    model = NoisyInput(host_noise)
    x = jnp.ones((2, 3))
    variables = model.init({"params": jax.random.PRNGKey(0), "noise": jax.random.PRNGKey(1)}, x)
    apply = jax.jit(model.apply)
    first = apply(variables, x, rngs={"noise": jax.random.PRNGKey(2)})
    second = apply(variables, x, rngs={"noise": jax.random.PRNGKey(3)})
    return bool(jnp.array_equal(first, second))


def case_host_noise_under_jitted_apply():
    return _noisy_twice(True)


def case_ok_make_rng_noise_under_jitted_apply():
    return _noisy_twice(False)


# framework shape (not a thread)
# A setup-style module's __call__ calls a feature method that takes square roots of a projection
# and guards the non-positive values with jnp.where; padded rows project to exactly 0, where sqrt
# still runs under jax.grad and its infinite slope makes the gradient nan.
class RootFeatures(nn.Module):
    guarded: bool

    def setup(self):
        self.hidden = nn.Dense(4, use_bias=False)
        self.out = nn.Dense(1)

    def features(self, x):
        h = self.hidden(x)
        if self.guarded:
            safe = jnp.where(h > 0, h, 1.0)
            return jnp.where(h > 0, jnp.sqrt(safe), 0.0)
        return jnp.where(h > 0, jnp.sqrt(h), 0.0)  # reported: JNP604

    def __call__(self, x):
        return self.out(self.features(x))


def _root_grads(guarded):
    model = RootFeatures(guarded)
    x = jnp.concatenate([jnp.ones((2, 3)), jnp.zeros((2, 3))])
    params = model.init(jax.random.PRNGKey(0), x)["params"]
    grads = jax.grad(lambda p: jnp.mean(model.apply({"params": p}, x) ** 2))(params)
    return bool(jnp.isnan(grads["hidden"]["kernel"]).any())


def case_where_guarded_sqrt_under_grad():
    return _root_grads(False)


def case_ok_double_where_sqrt_under_grad():
    return _root_grads(True)


# framework shape (not a thread)
# The evaluation loop jits a partial of apply_fn with the current parameters for every batch: a
# new function each time, so every batch traces and compiles again.
def _eval_batches():
    state = _regression_state(optax.sgd(0.1))
    return state, [jnp.full((4, 3), float(i)) for i in range(4)]


def case_partial_jitted_every_batch():
    state, batches = _eval_batches()
    outputs = []
    for batch in batches:
        predict = jax.jit(functools.partial(state.apply_fn, {"params": state.params}))  # reported: JNP602
        outputs.append(predict(batch))
    return outputs


def case_ok_apply_jitted_once():
    state, batches = _eval_batches()
    predict = jax.jit(state.apply_fn)
    outputs = []
    for batch in batches:
        outputs.append(predict({"params": state.params}, batch))
    return outputs


# framework shape (not a thread)
# A checkpoint-like copy of the parameters is taken on the host after every step, with
# np.asarray mapped over the tree; each copy waits for the device and transfers every leaf.
def case_host_copy_of_params_every_step():
    state, (x, y) = _regression_state(optax.sgd(0.1)), _regression_data()
    snapshots = []
    for _ in range(4):
        state, _ = _state_step(state, x, y)
        snapshots.append(jax.tree.map(np.asarray, state.params))  # reported: JNP101
    return snapshots


def case_ok_host_copy_of_params_after_training():
    state, (x, y) = _regression_state(optax.sgd(0.1)), _regression_data()
    for _ in range(4):
        state, _ = _state_step(state, x, y)
    return jax.tree.map(np.asarray, state.params)
