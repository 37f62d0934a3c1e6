"""Equinox code as users write it (filter_vmap lookups, layer keys, Python hyperparameters, Huber losses, weight snapshots, printed losses, float64 layers), held out (needs equinox and optax)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


# framework shape (not a thread)
# A prototype classifier looks its best prototype up with int() of the argmax; eqx.filter_vmap
# maps it over the batch, so the scores are tracers.
class Prototypes(eqx.Module):
    encoder: eqx.nn.Linear
    prototypes: jax.Array
    python_index: bool = eqx.field(static=True)

    def __init__(self, key, python_index):
        encoder_key, prototype_key = jax.random.split(key)
        self.encoder = eqx.nn.Linear(3, 4, key=encoder_key)
        self.prototypes = jax.random.normal(prototype_key, (5, 4))
        self.python_index = python_index

    def __call__(self, x):
        scores = self.prototypes @ self.encoder(x)
        if self.python_index:
            return self.prototypes[int(jnp.argmax(scores))]  # reported: JNP202
        return self.prototypes[jnp.argmax(scores)]


def _nearest(python_index):
    model = Prototypes(jax.random.PRNGKey(0), python_index)
    return eqx.filter_vmap(lambda model, x: model(x), in_axes=(None, 0))(model, jnp.ones((4, 3)))


def case_int_of_argmax_under_filter_vmap():
    return _nearest(True)


def case_ok_array_argmax_index_under_filter_vmap():
    return _nearest(False)


# framework shape (not a thread)
# A two-layer Module gives both layers the key its constructor received, so both start from
# the same random draw.
class TwoLayer(eqx.Module):
    first: eqx.nn.Linear
    second: eqx.nn.Linear

    def __init__(self, key, split):
        if split:
            first_key, second_key = jax.random.split(key)
            self.first = eqx.nn.Linear(4, 4, key=first_key)
            self.second = eqx.nn.Linear(4, 4, key=second_key)
        else:
            self.first = eqx.nn.Linear(4, 4, key=key)
            self.second = eqx.nn.Linear(4, 4, key=key)  # reported: JNP601

    def __call__(self, x):
        return self.second(jax.nn.relu(self.first(x)))


def case_one_key_for_both_layers():
    model = TwoLayer(jax.random.PRNGKey(0), False)
    return bool(jnp.array_equal(model.first.weight, model.second.weight))


def case_ok_split_keys_for_the_layers():
    model = TwoLayer(jax.random.PRNGKey(0), True)
    return bool(jnp.array_equal(model.first.weight, model.second.weight))


# framework shape (not a thread)
# After https://github.com/google-deepmind/optax/issues/577 (a learning rate that changes
# recompiles the update): the decayed learning rate is a Python float handed to the
# eqx.filter_jit step, which treats non-array arguments as static, so every step compiles again.
@eqx.filter_jit
def _sgd_step(model, x, y, learning_rate):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    return jax.tree.map(lambda p, g: p - learning_rate * g, model, grads)


def _decayed_training(as_array):
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    x, y = jnp.ones((8, 3)), jnp.zeros((8, 1))
    for step in range(4):
        learning_rate = 0.1 * 0.9 ** step
        if as_array:
            model = _sgd_step(model, x, y, jnp.asarray(learning_rate))
        else:
            model = _sgd_step(model, x, y, learning_rate)  # reported: JNP602
    return model


def case_python_float_learning_rate_every_step():
    return _decayed_training(False)


def case_ok_array_learning_rate_every_step():
    return _decayed_training(True)


# framework shape (not a thread)
# A Huber loss written from a NumPy reference selects its branch with np.where; eqx.filter_grad
# traces the loss, so the residuals are tracers.
class HuberRegression(eqx.Module):
    linear: eqx.nn.Linear
    use_numpy: bool = eqx.field(static=True)

    def loss(self, x, y, delta=1.0):
        residual = jnp.abs(jax.vmap(self.linear)(x) - y)
        if self.use_numpy:
            per_example = np.where(residual < delta, 0.5 * residual ** 2, delta * (residual - 0.5 * delta))  # reported: JNP201
        else:
            per_example = jnp.where(residual < delta, 0.5 * residual ** 2, delta * (residual - 0.5 * delta))
        return per_example.mean()


def _huber_grads(use_numpy):
    model = HuberRegression(eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0)), use_numpy)
    return eqx.filter_grad(lambda m: m.loss(jnp.ones((4, 3)), jnp.full((4, 1), 3.0)))(model)


def case_numpy_where_in_huber_loss_under_filter_grad():
    return _huber_grads(True)


def case_ok_jnp_where_in_huber_loss_under_filter_grad():
    return _huber_grads(False)


# framework shape (not a thread)
# The last layer's weights of an MLP are copied to the host after every Optax step to plot their
# trajectory; each copy waits for the device.
_adam = optax.adam(1e-2)


@eqx.filter_jit
def _adam_step(model, opt_state, x, y):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = _adam.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


def _mlp_training():
    model = eqx.nn.MLP(3, 1, 8, 2, key=jax.random.PRNGKey(0))
    return model, _adam.init(eqx.filter(model, eqx.is_array)), jnp.ones((8, 3)), jnp.zeros((8, 1))


def case_last_layer_copied_to_host_every_step():
    model, opt_state, x, y = _mlp_training()
    trajectory = []
    for _ in range(5):
        model, opt_state = _adam_step(model, opt_state, x, y)
        trajectory.append(np.asarray(model.layers[-1].weight))  # reported: JNP101
    return trajectory


def case_ok_last_layer_stacked_after_the_loop():
    model, opt_state, x, y = _mlp_training()
    trajectory = []
    for _ in range(5):
        model, opt_state = _adam_step(model, opt_state, x, y)
        trajectory.append(model.layers[-1].weight)
    return np.asarray(jnp.stack(trajectory))


# framework shape (not a thread)
# The loss prints itself for debugging; under eqx.filter_jit of filter_value_and_grad it prints
# once, while tracing, and shows a tracer.
def _printed_loss(model, x, y):
    loss = jnp.mean((jax.vmap(model)(x) - y) ** 2)
    print(f"loss: {loss}")  # reported: JNP301
    return loss


def _debug_printed_loss(model, x, y):
    loss = jnp.mean((jax.vmap(model)(x) - y) ** 2)
    jax.debug.print("loss: {}", loss)
    return loss


def _print_losses(loss_fn):
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    step = eqx.filter_jit(eqx.filter_value_and_grad(loss_fn))
    return [step(model, jnp.ones((4, 3)), jnp.zeros((4, 1)))[0] for _ in range(3)]


def case_loss_printed_under_filter_jit():
    return _print_losses(_printed_loss)


def case_ok_loss_debug_printed_under_filter_jit():
    return _print_losses(_debug_printed_loss)


# framework shape (not a thread)
# A layer asks for float64 weights for a "precise" head; x64 is off, so the initialiser warns and
# the weights are float32.
def _precise_head(wide):
    if wide:
        return eqx.nn.Linear(3, 2, dtype=jnp.float64, key=jax.random.PRNGKey(0))  # reported: JNP402
    return eqx.nn.Linear(3, 2, dtype=jnp.float32, key=jax.random.PRNGKey(0))


def case_float64_layer_with_x64_off():
    return _precise_head(True).weight.dtype


def case_ok_float32_layer():
    return _precise_head(False).weight.dtype
