"""Flax Linen, train_state and Optax code as users write it, held out (needs flax and optax to run)."""
import time

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(nn.relu(nn.Dense(8)(x)))


def _regressor_state(model=None):
    model = Regressor() if model is None else model
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(1e-3))


@jax.jit
def _fit_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


# framework shape (not a thread)
# An epoch of a jitted TrainState step is timed with perf_counter around the loop; the clock is
# read as soon as the last step is dispatched, before the device has run it.
def case_epoch_timed_without_wait():
    state = _regressor_state()
    x, y = jnp.ones((16, 3)), jnp.zeros((16, 2))
    state, _ = _fit_step(state, x, y)
    start = time.perf_counter()
    for _ in range(5):
        state, loss = _fit_step(state, x, y)
    elapsed = time.perf_counter() - start  # reported: JNP603
    return elapsed, loss


def case_ok_epoch_timed_after_wait():
    state = _regressor_state()
    x, y = jnp.ones((16, 3)), jnp.zeros((16, 2))
    state, _ = _fit_step(state, x, y)
    start = time.perf_counter()
    for _ in range(5):
        state, loss = _fit_step(state, x, y)
    jax.block_until_ready((state, loss))
    elapsed = time.perf_counter() - start
    return elapsed, loss


# framework shape (not a thread)
# The validation set is kept as a NumPy array and given to a jitted evaluation step through
# state.apply_fn after every epoch: each call uploads the same data to the device again.
@jax.jit
def _eval_step(state, x):
    return state.apply_fn({"params": state.params}, x).argmax(-1)


def case_numpy_validation_set_every_epoch():
    state = _regressor_state()
    x, y = jnp.ones((16, 3)), jnp.zeros((16, 2))
    x_val = np.linspace(0.0, 1.0, 48, dtype=np.float32).reshape(16, 3)
    predictions = []
    for _ in range(4):
        state, _ = _fit_step(state, x, y)
        predictions.append(_eval_step(state, x_val))  # reported: JNP104
    return predictions


def case_ok_validation_set_uploaded_once():
    state = _regressor_state()
    x, y = jnp.ones((16, 3)), jnp.zeros((16, 2))
    x_val = jnp.asarray(np.linspace(0.0, 1.0, 48, dtype=np.float32).reshape(16, 3))
    predictions = []
    for _ in range(4):
        state, _ = _fit_step(state, x, y)
        predictions.append(_eval_step(state, x_val))
    return predictions


# framework shape (not a thread)
# A half-precision model: a learned float16 scale per feature multiplies the int32 position
# indices built with jnp.arange, which promotes the indices to float16 silently.
class PositionScaled(nn.Module):
    cast: bool = False

    @nn.compact
    def __call__(self, x):
        scale = self.param("scale", nn.initializers.ones, (x.shape[-1],), jnp.float16)
        positions = jnp.arange(x.shape[0])[:, None]
        if self.cast:
            offsets = positions.astype(jnp.float16) * scale
        else:
            offsets = positions * scale  # reported: JNP401
        return x + offsets


def _position_scaled(model):
    x = jnp.ones((4, 3), jnp.float16)
    variables = model.init(jax.random.PRNGKey(0), x)
    return jax.jit(model.apply)(variables, x)


def case_int_positions_times_half_scale():
    return _position_scaled(PositionScaled())


def case_ok_cast_positions_times_half_scale():
    return _position_scaled(PositionScaled(cast=True))


# framework shape (not a thread)
# A factory builds the jitted TrainState step and counts the steps in a nonlocal it closes over,
# to log every few steps; the count is rebound only while jax.jit traces the step.
def _make_counted_step():
    steps_done = 0

    @jax.jit
    def step(state, x, y):
        nonlocal steps_done
        steps_done += 1  # reported: JNP302
        return _fit_step(state, x, y)

    return step, lambda: steps_done


def _make_plain_step():
    @jax.jit
    def step(state, x, y):
        return _fit_step(state, x, y)

    return step


def case_nonlocal_step_count_in_jitted_step():
    step, steps_done = _make_counted_step()
    state = _regressor_state()
    for _ in range(4):
        state, _ = step(state, jnp.ones((4, 3)), jnp.zeros((4, 2)))
    return steps_done()


def case_ok_step_count_from_train_state():
    step = _make_plain_step()
    state = _regressor_state()
    for _ in range(4):
        state, _ = step(state, jnp.ones((4, 3)), jnp.zeros((4, 2)))
    return int(state.step)


# framework shape (not a thread)
# A @nn.compact layer silences its first output unit with .at[].set() but does not keep the
# result, so the unit is never silenced.
class SilencedFirst(nn.Module):
    keep: bool = False

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(4)(x)
        if self.keep:
            h = h.at[:, 0].set(0.0)
        else:
            h.at[:, 0].set(0.0)  # reported: JNP501
        return h


def _silenced(model):
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.PRNGKey(0), x)
    return jax.jit(model.apply)(variables, x)


def case_at_set_result_dropped_in_compact():
    return _silenced(SilencedFirst())


def case_ok_at_set_result_kept_in_compact():
    return _silenced(SilencedFirst(keep=True))


# framework shape (not a thread)
# Input-noise regularisation drawn with np.random in a @nn.compact method; the model trains
# through a jitted TrainState step, which draws the noise once while tracing and reuses it.
class NoisyInput(nn.Module):
    numpy_noise: bool = True

    @nn.compact
    def __call__(self, x):
        if self.numpy_noise:
            noise = np.random.normal(size=x.shape).astype(np.float32)  # reported: JNP305
        else:
            noise = jax.random.normal(self.make_rng("noise"), x.shape)
        return nn.Dense(2)(x + 0.1 * noise)


@jax.jit
def _noisy_fit_step(state, x, y, key):
    def loss_fn(params):
        pred = state.apply_fn({"params": params}, x, rngs={"noise": key})
        return jnp.mean((pred - y) ** 2)
    return state.apply_gradients(grads=jax.grad(loss_fn)(state.params))


def _noisy_training(model, num_steps):
    params = model.init({"params": jax.random.PRNGKey(0), "noise": jax.random.PRNGKey(1)},
                        jnp.ones((1, 3)))["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))
    key = jax.random.PRNGKey(2)
    for _ in range(num_steps):
        key, step_key = jax.random.split(key)
        state = _noisy_fit_step(state, jnp.ones((4, 3)), jnp.zeros((4, 2)), step_key)
    return state


def case_numpy_noise_in_compact_under_jitted_step():
    return _noisy_training(NoisyInput(), 4)


def case_ok_make_rng_noise_in_compact_under_jitted_step():
    return _noisy_training(NoisyInput(numpy_noise=False), 4)


# framework shape (not a thread)
# The jitted step returns a metrics dict; the host loop formats the loss from it into a log line
# on every step.
@jax.jit
def _metric_step(state, x, y):
    state, loss = _fit_step(state, x, y)
    return state, {"loss": loss, "step": state.step}


def case_metrics_loss_formatted_every_step():
    state = _regressor_state()
    lines = []
    for step in range(4):
        state, metrics = _metric_step(state, jnp.ones((4, 3)), jnp.zeros((4, 2)))
        lines.append(f"step {step}: loss {metrics['loss']:.4f}")  # reported: JNP103
    return lines


def case_ok_metrics_formatted_after_loop():
    state = _regressor_state()
    history = []
    for _ in range(4):
        state, metrics = _metric_step(state, jnp.ones((4, 3)), jnp.zeros((4, 2)))
        history.append(metrics["loss"])
    return [f"step {step}: loss {loss:.4f}" for step, loss in enumerate(jax.device_get(history))]
