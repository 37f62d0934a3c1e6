"""Equinox and Optax code as users write it, held out (needs equinox and optax to run)."""
import time

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

NUM_STEPS = 6


@eqx.filter_jit
def _predict(model, x):
    return jax.vmap(model)(x)


# framework shape (not a thread)
# A benchmark helper times any function it is given; it is given an eqx.filter_jit prediction, and
# reads the clock as soon as the call returns, before the device has run it.
def _bench(fn, *args):
    fn(*args)
    start = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - start  # reported: JNP603


def _bench_ready(fn, *args):
    fn(*args)
    start = time.perf_counter()
    out = jax.block_until_ready(fn(*args))
    return out, time.perf_counter() - start


def case_filter_jit_timed_by_helper_without_wait():
    model = eqx.nn.MLP(3, 2, 32, 2, key=jax.random.PRNGKey(0))
    return _bench(_predict, model, jnp.ones((64, 3)))


def case_ok_filter_jit_timed_by_helper_after_wait():
    model = eqx.nn.MLP(3, 2, 32, 2, key=jax.random.PRNGKey(0))
    return _bench_ready(_predict, model, jnp.ones((64, 3)))


# framework shape (not a thread)
# Full-batch training on a data set kept as NumPy arrays: every eqx.filter_jit step is given the
# same NumPy arrays, so every step uploads them to the device again.
OPTIM = optax.adam(1e-2)


@eqx.filter_jit
def _full_batch_step(model, opt_state, x, y):
    def loss_fn(model):
        return jnp.mean((jax.vmap(model)(x) - y) ** 2)
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = OPTIM.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state, loss


def _numpy_data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(32, 3)).astype(np.float32), rng.normal(size=(32, 2)).astype(np.float32)


def case_numpy_data_set_every_filter_jit_step():
    model = eqx.nn.MLP(3, 2, 8, 1, key=jax.random.PRNGKey(0))
    opt_state = OPTIM.init(eqx.filter(model, eqx.is_array))
    xs, ys = _numpy_data()
    for _ in range(NUM_STEPS):
        model, opt_state, loss = _full_batch_step(model, opt_state, xs, ys)  # reported: JNP104
    return loss


def case_ok_data_set_uploaded_once():
    model = eqx.nn.MLP(3, 2, 8, 1, key=jax.random.PRNGKey(0))
    opt_state = OPTIM.init(eqx.filter(model, eqx.is_array))
    xs, ys = map(jnp.asarray, _numpy_data())
    for _ in range(NUM_STEPS):
        model, opt_state, loss = _full_batch_step(model, opt_state, xs, ys)
    return loss


# framework shape (not a thread)
# A module method computes an upper quantile of its scores by sorting them with the NumPy-style
# .sort() statement, which returns a new array and leaves the scores unsorted.
class Scorer(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 8, key=key)

    def upper_quantile(self, x):
        scores = self.linear(x)
        scores.sort()  # reported: JNP501
        return scores[-2]

    def upper_quantile_sorted(self, x):
        scores = jnp.sort(self.linear(x))
        return scores[-2]


@eqx.filter_jit
def _quantile(model, x):
    return model.upper_quantile(x)


@eqx.filter_jit
def _quantile_sorted(model, x):
    return model.upper_quantile_sorted(x)


def case_sort_statement_in_method_under_filter_jit():
    return _quantile(Scorer(jax.random.PRNGKey(0)), jnp.arange(3.0))


def case_ok_jnp_sort_in_method_under_filter_jit():
    return _quantile_sorted(Scorer(jax.random.PRNGKey(0)), jnp.arange(3.0))


# framework shape (not a thread)
# Each step splits a fresh key, but gives the one subkey both to the augmentation and to the
# eqx.filter_jit step that draws the dropout masks from it.
class DropoutMLP(eqx.Module):
    mlp: eqx.nn.MLP
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.mlp = eqx.nn.MLP(3, 1, 8, 1, key=key)
        self.dropout = eqx.nn.Dropout(0.2)

    def __call__(self, x, key):
        return self.mlp(self.dropout(x, key=key))


def _augment(x, key):
    return x + 0.05 * jax.random.normal(key, x.shape)


@eqx.filter_jit
def _dropout_step(model, x, y, key):
    def loss_fn(model):
        keys = jax.random.split(key, x.shape[0])
        return jnp.mean((jax.vmap(model)(x, keys) - y) ** 2)
    grads = eqx.filter_grad(loss_fn)(model)
    return eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads))


def case_one_subkey_for_augment_and_dropout():
    model = DropoutMLP(jax.random.PRNGKey(0))
    key = jax.random.PRNGKey(1)
    xs, ys = jnp.ones((4, 3)), jnp.zeros((4, 1))
    for _ in range(NUM_STEPS):
        key, step_key = jax.random.split(key)
        batch = _augment(xs, step_key)
        model = _dropout_step(model, batch, ys, step_key)  # reported: JNP606
    return model


def case_ok_two_subkeys_for_augment_and_dropout():
    model = DropoutMLP(jax.random.PRNGKey(0))
    key = jax.random.PRNGKey(1)
    xs, ys = jnp.ones((4, 3)), jnp.zeros((4, 1))
    for _ in range(NUM_STEPS):
        key, augment_key, dropout_key = jax.random.split(key, 3)
        batch = _augment(xs, augment_key)
        model = _dropout_step(model, batch, ys, dropout_key)
    return model


# framework shape (not a thread)
# Per-example dropout at evaluation with jax.vmap over the batch, the key given unmapped
# (in_axes None): every example is dropped with the same mask.
def case_unmapped_dropout_key_under_vmap():
    model = DropoutMLP(jax.random.PRNGKey(0))
    key = jax.random.PRNGKey(1)
    return jax.vmap(model, in_axes=(0, None))(jnp.ones((8, 3)), key)  # reported: JNP601


def case_ok_mapped_dropout_keys_under_vmap():
    model = DropoutMLP(jax.random.PRNGKey(0))
    keys = jax.random.split(jax.random.PRNGKey(1), 8)
    return jax.vmap(model)(jnp.ones((8, 3)), keys)


# framework shape (not a thread)
# A hand-written Optax transformation records the updates it sees in a list for inspection; it
# runs inside the eqx.filter_jit step, so it appends once, while tracing, and keeps tracers.
def _recording_sgd(learning_rate, seen):
    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        seen.append(updates)  # reported: JNP303
        return jax.tree.map(lambda g: -learning_rate * g, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def _scaled_sgd(learning_rate):
    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        return jax.tree.map(lambda g: -learning_rate * g, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


@eqx.filter_jit
def _optim_step(model, opt_state, optim, x, y):
    def loss_fn(model):
        return jnp.mean((jax.vmap(model)(x) - y) ** 2)
    grads = eqx.filter_grad(loss_fn)(model)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


def case_updates_recorded_in_transformation_under_filter_jit():
    seen = []
    optim = _recording_sgd(0.1, seen)
    model = eqx.nn.MLP(3, 1, 8, 1, key=jax.random.PRNGKey(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    for _ in range(NUM_STEPS):
        model, opt_state = _optim_step(model, opt_state, optim, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    return seen


def case_ok_plain_transformation_under_filter_jit():
    optim = _scaled_sgd(0.1)
    model = eqx.nn.MLP(3, 1, 8, 1, key=jax.random.PRNGKey(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    for _ in range(NUM_STEPS):
        model, opt_state = _optim_step(model, opt_state, optim, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    return model


# framework shape (not a thread)
# A counting model keeps a learned float16 rate per feature as a field; __call__ multiplies the
# int32 counts it is given by the rate, which promotes the counts to float16 silently.
class CountRate(eqx.Module):
    rate: jax.Array

    def __init__(self):
        self.rate = jnp.full(3, 0.5, jnp.float16)

    def __call__(self, counts):
        return counts * self.rate  # reported: JNP401

    def cast(self, counts):
        return counts.astype(jnp.float16) * self.rate


def case_int_counts_times_half_field():
    return eqx.filter_jit(CountRate())(jnp.arange(3, dtype=jnp.int32))


def case_ok_cast_counts_times_half_field():
    model = CountRate()
    return eqx.filter_jit(model.cast)(jnp.arange(3, dtype=jnp.int32))
