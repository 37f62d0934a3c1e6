"""Equinox and Optax code as users write it, held out (needs equinox and optax to run)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


# framework shape (not a thread)
# A temperature annealed in the host loop and written into the model with eqx.tree_at as a Python
# float: eqx.filter_jit keeps non-array leaves static, so every new temperature compiles again.
class Tempered(eqx.Module):
    linear: eqx.nn.Linear
    temperature: float

    def __call__(self, x):
        return jax.nn.softmax(self.linear(x) / self.temperature)


@eqx.filter_jit
def _entropy(model, x):
    p = model(x)
    return -jnp.sum(p * jnp.log(p))


def case_python_float_leaf_set_by_tree_at_every_step():
    model = Tempered(eqx.nn.Linear(3, 4, key=jax.random.PRNGKey(0)), 1.0)
    entropies = []
    for step in range(5):
        model = eqx.tree_at(lambda m: m.temperature, model, 1.0 / (step + 1))
        entropies.append(_entropy(model, jnp.ones(3)))  # reported: JNP602
    return entropies


def case_ok_array_leaf_set_by_tree_at_every_step():
    model = Tempered(eqx.nn.Linear(3, 4, key=jax.random.PRNGKey(0)), jnp.asarray(1.0))
    entropies = []
    for step in range(5):
        model = eqx.tree_at(lambda m: m.temperature, model, jnp.asarray(1.0 / (step + 1)))
        entropies.append(_entropy(model, jnp.ones(3)))
    return entropies


# framework shape (not a thread)
# The loss differentiated by eqx.filter_grad (no jit) logs its value with float() into a list
# the caller keeps.
def _loss_logged(model, x, y, log):
    loss = jnp.mean((jax.vmap(model)(x) - y) ** 2)
    log.append(float(loss))  # reported: JNP202
    return loss


def _loss_plain(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def case_float_in_filter_grad_loss():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    log = []
    return eqx.filter_grad(_loss_logged)(model, jnp.ones((4, 3)), jnp.zeros((4, 1)), log)


def case_ok_value_and_grad_then_item():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    loss, grads = eqx.filter_value_and_grad(_loss_plain)(model, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    return loss.item(), grads


# framework shape (not a thread)
# A BatchNorm model built with eqx.nn.make_with_state; the host loop reads the running mean from
# the eqx.nn.State after every step with float() to watch it converge.
class NormedNet(eqx.Module):
    linear: eqx.nn.Linear
    norm: eqx.nn.BatchNorm

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)
        self.norm = eqx.nn.BatchNorm(4, axis_name="batch")

    def __call__(self, x, state):
        return self.norm(self.linear(x), state)


@eqx.filter_jit
def _normed_forward(model, state, x):
    out, state = jax.vmap(model, axis_name="batch", in_axes=(0, None), out_axes=(0, None))(x, state)
    return out, state


def case_float_of_state_mean_every_step():
    model, state = eqx.nn.make_with_state(NormedNet)(jax.random.PRNGKey(0))
    means = []
    for _ in range(5):
        _, state = _normed_forward(model, state, jnp.ones((8, 3)))
        means.append(float(state.get(model.norm.ema_state_index)[0].mean()))  # reported: JNP102
    return means


def case_ok_state_mean_read_after_loop():
    model, state = eqx.nn.make_with_state(NormedNet)(jax.random.PRNGKey(0))
    for _ in range(5):
        _, state = _normed_forward(model, state, jnp.ones((8, 3)))
    return float(state.get(model.norm.ema_state_index)[0].mean())


# framework shape (not a thread)
# A model method other than __call__, bucketize(), called from an eqx.filter_jit function; it finds
# each output's bucket with NumPy's digitize over the model's edges.
class Bucketed(eqx.Module):
    linear: eqx.nn.Linear
    edges: jax.Array

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)
        self.edges = jnp.linspace(-1.0, 1.0, 5)

    def bucketize(self, x):
        return np.digitize(self.linear(x), self.edges)  # reported: JNP201

    def bucketize_jnp(self, x):
        return jnp.digitize(self.linear(x), self.edges)


@eqx.filter_jit
def _buckets(model, x):
    return model.bucketize(x)


@eqx.filter_jit
def _buckets_jnp(model, x):
    return model.bucketize_jnp(x)


def case_numpy_digitize_in_method_under_filter_jit():
    return _buckets(Bucketed(jax.random.PRNGKey(0)), jnp.ones(3))


def case_ok_jnp_digitize_in_method_under_filter_jit():
    return _buckets_jnp(Bucketed(jax.random.PRNGKey(0)), jnp.ones(3))


# framework shape (not a thread)
# The key that initialises an eqx.nn.MLP also draws the synthetic training inputs, so the inputs
# and the first layer's weights come from the same random bits.
def case_same_key_for_mlp_and_data():
    key = jax.random.PRNGKey(0)
    model = eqx.nn.MLP(3, 1, 8, 2, key=key)
    x = jax.random.normal(key, (16, 3))  # reported: JNP601
    return jax.vmap(model)(x)


def case_ok_split_key_for_mlp_and_data():
    model_key, data_key = jax.random.split(jax.random.PRNGKey(0))
    model = eqx.nn.MLP(3, 1, 8, 2, key=model_key)
    x = jax.random.normal(data_key, (16, 3))
    return jax.vmap(model)(x)


# framework shape (not a thread)
# Activations kept for debugging in a module-level list; __call__ appends to it, but under
# eqx.filter_jit that happens only while tracing, and it stores tracers.
ACTIVATIONS = []


class Recorded(eqx.Module):
    linear: eqx.nn.Linear

    def __call__(self, x):
        h = self.linear(x)
        ACTIVATIONS.append(h)  # reported: JNP303
        return jnp.tanh(h)


class Unrecorded(eqx.Module):
    linear: eqx.nn.Linear

    def __call__(self, x):
        h = self.linear(x)
        return jnp.tanh(h), h


@eqx.filter_jit
def _recorded_loss(model, x):
    return model(x).sum()


@eqx.filter_jit
def _unrecorded_loss(model, x):
    out, h = model(x)
    return out.sum(), h


def case_global_list_appended_under_filter_jit():
    model = Recorded(eqx.nn.Linear(3, 3, key=jax.random.PRNGKey(0)))
    return [_recorded_loss(model, jnp.ones(3) * i) for i in range(3)]


def case_ok_activations_returned_under_filter_jit():
    model = Unrecorded(eqx.nn.Linear(3, 3, key=jax.random.PRNGKey(0)))
    return [_unrecorded_loss(model, jnp.ones(3) * i) for i in range(3)]
