"""Equinox and Optax code as users write it, held out (needs equinox and optax to run)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


# framework shape (not a thread)
# A step counter kept in eqx.nn.State through an eqx.nn.StateIndex (eqx.nn.make_with_state); the
# module warms up with a Python if on the counter inside eqx.filter_jit.
class WarmupScale(eqx.Module):
    linear: eqx.nn.Linear
    count: eqx.nn.StateIndex

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)
        self.count = eqx.nn.StateIndex(jnp.array(0))

    def __call__(self, x, state):
        n = state.get(self.count)
        state = state.set(self.count, n + 1)
        if n < 5:  # reported: JNP202
            return x, state
        return self.linear(x), state


class WarmupScaleWhere(eqx.Module):
    linear: eqx.nn.Linear
    count: eqx.nn.StateIndex

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)
        self.count = eqx.nn.StateIndex(jnp.array(0))

    def __call__(self, x, state):
        n = state.get(self.count)
        state = state.set(self.count, n + 1)
        return jnp.where(n < 5, x, self.linear(x)), state


@eqx.filter_jit
def _stateful_apply(model, state, x):
    return model(x, state)


def case_python_if_on_state_index_counter():
    model, state = eqx.nn.make_with_state(WarmupScale)(jax.random.PRNGKey(0))
    return _stateful_apply(model, state, jnp.ones(3))


def case_ok_where_on_state_index_counter():
    model, state = eqx.nn.make_with_state(WarmupScaleWhere)(jax.random.PRNGKey(0))
    return _stateful_apply(model, state, jnp.ones(3))


# framework shape (not a thread)
# A block rematerialised with eqx.filter_checkpoint, called eagerly (no jit): the checkpoint traces
# the block, which squares with NumPy.
class Squared(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    def __call__(self, x):
        return np.square(self.linear(x))  # reported: JNP201


class SquaredJnp(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    def __call__(self, x):
        return jnp.square(self.linear(x))


def case_numpy_in_block_under_filter_checkpoint():
    block = Squared(jax.random.PRNGKey(0))
    return eqx.filter_checkpoint(block)(jnp.ones(3))


def case_ok_jnp_in_block_under_filter_checkpoint():
    block = SquaredJnp(jax.random.PRNGKey(0))
    return eqx.filter_checkpoint(block)(jnp.ones(3))


# framework shape (not a thread)
# A @property of the module turns a learned log-scale into a Python float; __call__ uses the
# property under eqx.filter_jit.
class LogScaled(eqx.Module):
    log_scale: jax.Array

    def __init__(self):
        self.log_scale = jnp.array(0.5)

    @property
    def scale(self):
        return float(jnp.exp(self.log_scale))  # reported: JNP202

    def __call__(self, x):
        return x * self.scale


class LogScaledArray(eqx.Module):
    log_scale: jax.Array

    def __init__(self):
        self.log_scale = jnp.array(0.5)

    @property
    def scale(self):
        return jnp.exp(self.log_scale)

    def __call__(self, x):
        return x * self.scale


@eqx.filter_jit
def _scaled(model, x):
    return model(x)


def case_float_in_property_under_filter_jit():
    return _scaled(LogScaled(), jnp.ones(3))


def case_ok_array_property_under_filter_jit():
    return _scaled(LogScaledArray(), jnp.ones(3))


# framework shape (not a thread)
# A model with eqx.nn.Dropout trained in a loop: the same dropout key is given to every step, so
# every step drops the same units.
class Dropped(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 1, key=key)
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x, *, key):
        return self.linear(self.dropout(x, key=key))


def _dropout_loss(model, x, y, key):
    keys = jax.random.split(key, x.shape[0])
    return jnp.mean((jax.vmap(lambda x, k: model(x, key=k))(x, keys) - y) ** 2)


@eqx.filter_jit
def _dropout_step(model, x, y, key):
    grads = eqx.filter_grad(_dropout_loss)(model, x, y, key)
    return eqx.apply_updates(model, jax.tree_util.tree_map(lambda g: -0.1 * g, grads))


def case_same_dropout_key_every_step():
    key = jax.random.PRNGKey(0)
    model = Dropped(jax.random.PRNGKey(1))
    for _ in range(20):
        model = _dropout_step(model, jnp.ones((4, 3)), jnp.zeros((4, 1)), key)  # reported: JNP601
    return model


def case_ok_fresh_dropout_key_every_step():
    key = jax.random.PRNGKey(0)
    model = Dropped(jax.random.PRNGKey(1))
    for _ in range(20):
        key, step_key = jax.random.split(key)
        model = _dropout_step(model, jnp.ones((4, 3)), jnp.zeros((4, 1)), step_key)
    return model


# framework shape (not a thread)
# A learning-rate schedule written as a Python function with an if on the step count; Optax calls it
# with the traced count inside the eqx.filter_jit step.
def _step_schedule(count):
    if count < 100:  # reported: JNP202
        return 1e-2
    return 1e-3


def _where_schedule(count):
    return jnp.where(count < 100, 1e-2, 1e-3)


def _mse(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def _optax_steps(optim):
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))

    @eqx.filter_jit
    def step(model, opt_state, x, y):
        grads = eqx.filter_grad(_mse)(model, x, y)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        return eqx.apply_updates(model, updates), opt_state

    return step(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_python_if_in_schedule_function():
    return _optax_steps(optax.adam(learning_rate=_step_schedule))


def case_ok_where_in_schedule_function():
    return _optax_steps(optax.adam(learning_rate=_where_schedule))


# framework shape (not a thread)
# A hand-written stateless transformation (optax.stateless) takes the sign of the updates with
# NumPy; it is chained inside optax.MultiSteps and runs in the eqx.filter_jit step.
def _numpy_sign(updates, params):
    return jax.tree_util.tree_map(lambda g: np.sign(g), updates)  # reported: JNP201


def _jnp_sign(updates, params):
    return jax.tree_util.tree_map(jnp.sign, updates)


def case_numpy_in_stateless_transformation():
    return _optax_steps(optax.MultiSteps(optax.chain(optax.stateless(_numpy_sign), optax.sgd(0.1)), 2))


def case_ok_jnp_in_stateless_transformation():
    return _optax_steps(optax.MultiSteps(optax.chain(optax.stateless(_jnp_sign), optax.sgd(0.1)), 2))
