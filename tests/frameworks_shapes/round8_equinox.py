"""Equinox and Optax code as users write it, held out (needs equinox and optax to run)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


# framework shape (not a thread)
# The blocks are kept in a list field; __call__ runs each block's mix method (not its __call__),
# and one block kind mixes with NumPy. The model is applied under eqx.filter_jit.
class NumpyMixer(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    def mix(self, x):
        return np.maximum(self.linear(x), x)  # reported: JNP201


class JnpMixer(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    def mix(self, x):
        return jnp.maximum(self.linear(x), x)


class Mixed(eqx.Module):
    blocks: list

    def __init__(self, block, key):
        self.blocks = [block(k) for k in jax.random.split(key, 2)]

    def __call__(self, x):
        for block in self.blocks:
            x = block.mix(x)
        return x


@eqx.filter_jit
def _mixed_forward(model, x):
    return model(x)


def case_numpy_in_method_of_listed_blocks():
    return _mixed_forward(Mixed(NumpyMixer, jax.random.PRNGKey(0)), jnp.ones(3))


def case_ok_jnp_in_method_of_listed_blocks():
    return _mixed_forward(Mixed(JnpMixer, jax.random.PRNGKey(0)), jnp.ones(3))


# framework shape (not a thread)
# A plain function wrapped in eqx.nn.Lambda inside eqx.nn.Sequential; the function clips in Python
# with an if on its input's maximum, under eqx.filter_jit.
def _clip_if(x):
    if x.max() > 1.0:  # reported: JNP202
        return x / x.max()
    return x


def _clip_where(x):
    return jnp.where(x.max() > 1.0, x / x.max(), x)


def _sequential(fn):
    key1, key2 = jax.random.split(jax.random.PRNGKey(0))
    return eqx.nn.Sequential([eqx.nn.Linear(3, 4, key=key1), eqx.nn.Lambda(fn),
                              eqx.nn.Linear(4, 2, key=key2)])


@eqx.filter_jit
def _sequential_forward(model, x):
    return model(x)


def case_python_if_in_lambda_layer_of_sequential():
    return _sequential_forward(_sequential(_clip_if), jnp.ones(3))


def case_ok_where_in_lambda_layer_of_sequential():
    return _sequential_forward(_sequential(_clip_where), jnp.ones(3))


# framework shape (not a thread)
# The optimiser is given to the eqx.filter_jit step as an argument, and a new optax.adam is built
# every epoch for the epoch's rate: its functions are new static leaves, so every epoch compiles.
def _mse(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


@eqx.filter_jit
def _step_with(model, opt_state, optim, x, y):
    grads = eqx.filter_grad(_mse)(model, x, y)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


def case_new_optimiser_given_to_filter_jit_every_epoch():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    for epoch in range(4):
        optim = optax.adam(1e-2 / (epoch + 1))
        opt_state = optim.init(eqx.filter(model, eqx.is_array))
        model, opt_state = _step_with(model, opt_state, optim, jnp.ones((4, 3)), jnp.zeros((4, 1)))  # reported: JNP602
    return model


def case_ok_injected_rate_given_to_filter_jit_every_epoch():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    optim = optax.inject_hyperparams(optax.adam)(learning_rate=1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    for epoch in range(4):
        opt_state.hyperparams["learning_rate"] = jnp.asarray(1e-2 / (epoch + 1))
        model, opt_state = _step_with(model, opt_state, optim, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    return model


# framework shape (not a thread)
# A module with two dropout layers draws both masks from the one key its __call__ is given, so the
# second layer drops the same units as the first.
class TwiceDropped(eqx.Module):
    linear: eqx.nn.Linear
    drop1: eqx.nn.Dropout
    drop2: eqx.nn.Dropout

    def __init__(self, key):
        self.linear = eqx.nn.Linear(4, 4, key=key)
        self.drop1 = eqx.nn.Dropout(0.5)
        self.drop2 = eqx.nn.Dropout(0.5)

    def __call__(self, x, *, key):
        h = self.drop1(x, key=key)
        return self.drop2(self.linear(h), key=key)  # reported: JNP601

    def split_call(self, x, *, key):
        key1, key2 = jax.random.split(key)
        h = self.drop1(x, key=key1)
        return self.drop2(self.linear(h), key=key2)


def case_one_key_for_two_dropout_layers():
    model = TwiceDropped(jax.random.PRNGKey(0))
    return model(jnp.ones(4), key=jax.random.PRNGKey(1))


def case_ok_split_key_for_two_dropout_layers():
    model = TwiceDropped(jax.random.PRNGKey(0))
    return model.split_call(jnp.ones(4), key=jax.random.PRNGKey(1))


# framework shape (not a thread)
# The host loop of an eqx.filter_jit step asserts that every loss is finite: the assert pulls the
# device bool to the host on every step.
@eqx.filter_jit
def _train_step(model, opt_state, x, y):
    loss, grads = eqx.filter_value_and_grad(_mse)(model, x, y)
    updates, opt_state = _OPTIM.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state, loss


_OPTIM = optax.sgd(0.1)


def case_assert_finite_loss_every_step():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    opt_state = _OPTIM.init(eqx.filter(model, eqx.is_array))
    for _ in range(5):
        model, opt_state, loss = _train_step(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        assert jnp.isfinite(loss)  # reported: JNP102
    return model


def case_ok_assert_finite_losses_after_loop():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    opt_state = _OPTIM.init(eqx.filter(model, eqx.is_array))
    losses = []
    for _ in range(5):
        model, opt_state, loss = _train_step(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        losses.append(loss)
    assert jnp.isfinite(jnp.stack(losses)).all()
    return model


# framework shape (not a thread)
# Scan over layers: identical layers are stacked with eqx.filter_vmap, split with eqx.partition,
# and lax.scan rebuilds each layer with eqx.combine and calls its step method, which uses NumPy.
class NumpyLayer(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    def step(self, x):
        return np.sin(self.linear(x))  # reported: JNP201


class JnpLayer(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    def step(self, x):
        return jnp.sin(self.linear(x))


def _scan_layers(layer_cls):
    layers = eqx.filter_vmap(layer_cls)(jax.random.split(jax.random.PRNGKey(0), 3))
    dynamic, static = eqx.partition(layers, eqx.is_array)

    def body(x, dyn):
        layer = eqx.combine(dyn, static)
        return layer.step(x), None
    out, _ = jax.lax.scan(body, jnp.ones(3), dynamic)
    return out


def case_numpy_in_method_of_scanned_layers():
    return _scan_layers(NumpyLayer)


def case_ok_jnp_in_method_of_scanned_layers():
    return _scan_layers(JnpLayer)
