"""Equinox and Optax code as users write it (needs equinox and optax to run)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


# framework shape (not a thread)
# eqx.nn.Linear composition; a Python if on the hidden activations in __call__.
class TwoLayer(eqx.Module):
    first: eqx.nn.Linear
    second: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.first = eqx.nn.Linear(3, 8, key=k1)
        self.second = eqx.nn.Linear(8, 1, key=k2)

    def __call__(self, x):
        h = jax.nn.relu(self.first(x))
        if jnp.all(h == 0):  # reported: JNP202
            h = h + 1e-3
        return self.second(h)


class TwoLayerWhere(eqx.Module):
    first: eqx.nn.Linear
    second: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.first = eqx.nn.Linear(3, 8, key=k1)
        self.second = eqx.nn.Linear(8, 1, key=k2)

    def __call__(self, x):
        h = jax.nn.relu(self.first(x))
        h = jnp.where(jnp.all(h == 0), h + 1e-3, h)
        return self.second(h)


@eqx.filter_jit
def _predict(model, x):
    return jax.vmap(model)(x)


def case_python_if_in_composed_call():
    return _predict(TwoLayer(jax.random.PRNGKey(0)), jnp.ones((4, 3)))


def case_ok_where_in_composed_call():
    return _predict(TwoLayerWhere(jax.random.PRNGKey(0)), jnp.ones((4, 3)))


# framework shape (not a thread)
# A method called from __call__: NumPy on the tracer it is given.
class Scaled(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    def squash(self, h):
        return np.clip(h, -1.0, 1.0)  # reported: JNP201

    def __call__(self, x):
        return self.squash(self.linear(x))


class ScaledJnp(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    def squash(self, h):
        return jnp.clip(h, -1.0, 1.0)

    def __call__(self, x):
        return self.squash(self.linear(x))


def case_numpy_in_method_called_from_call():
    return _predict(Scaled(jax.random.PRNGKey(0)), jnp.ones((4, 3)))


def case_ok_jnp_in_method_called_from_call():
    return _predict(ScaledJnp(jax.random.PRNGKey(0)), jnp.ones((4, 3)))


# framework shape (not a thread)
# The standard filter_value_and_grad + optax loop, reading loss.item() on every step.
def _loss(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


@eqx.filter_jit
def _make_step(model, opt_state, x, y, optim):
    loss, grads = eqx.filter_value_and_grad(_loss)(model, x, y)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    model = eqx.apply_updates(model, updates)
    return loss, model, opt_state


def case_item_of_loss_every_step():
    model = TwoLayerWhere(jax.random.PRNGKey(0))
    optim = optax.sgd(1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    losses = []
    for _ in range(20):
        loss, model, opt_state = _make_step(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)), optim)
        losses.append(loss.item())  # reported: JNP102
    return losses


def case_ok_loss_read_after_the_loop():
    model = TwoLayerWhere(jax.random.PRNGKey(0))
    optim = optax.sgd(1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    losses = []
    for _ in range(20):
        loss, model, opt_state = _make_step(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)), optim)
        losses.append(loss)
    return jnp.stack(losses).tolist()


# framework shape (not a thread)
# The same key initialises two layers: identical weights.
class Twins(eqx.Module):
    a: eqx.nn.Linear
    b: eqx.nn.Linear

    def __init__(self, key):
        self.a = eqx.nn.Linear(3, 3, key=key)
        self.b = eqx.nn.Linear(3, 3, key=key)  # reported: JNP601


class TwinsSplit(eqx.Module):
    a: eqx.nn.Linear
    b: eqx.nn.Linear

    def __init__(self, key):
        ka, kb = jax.random.split(key)
        self.a = eqx.nn.Linear(3, 3, key=ka)
        self.b = eqx.nn.Linear(3, 3, key=kb)


def case_one_key_for_two_layers():
    return Twins(jax.random.PRNGKey(0))


def case_ok_split_key_for_two_layers():
    return TwinsSplit(jax.random.PRNGKey(0))


# framework shape (not a thread)
# A module built inline with a Python int field from the loop counter, given to filter_jit:
# a new static value each iteration, a compile each.
class Shifted(eqx.Module):
    weight: jax.Array
    shift: int

    def __call__(self, x):
        return self.weight * x + self.shift


@eqx.filter_jit
def _apply(model, x):
    return model(x)


def case_counter_as_static_field_inline():
    return [_apply(Shifted(jnp.ones(3), step), jnp.ones(3)) for step in range(5)]  # reported: JNP602


def case_ok_counter_as_array_field_inline():
    return [_apply(Shifted(jnp.ones(3), jnp.asarray(step)), jnp.ones(3)) for step in range(5)]


# framework shape (not a thread)
# filter_vmap of a module whose __call__ prints the tracer it maps over, under filter_jit.
class Logged(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 2, key=key)

    def __call__(self, x):
        print("input", x)  # reported: JNP301
        return self.linear(x)


class LoggedDebug(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 2, key=key)

    def __call__(self, x):
        jax.debug.print("input {}", x)
        return self.linear(x)


@eqx.filter_jit
def _mapped(model, xs):
    return eqx.filter_vmap(model)(xs)


def case_print_in_filter_vmapped_call():
    model = Logged(jax.random.PRNGKey(0))
    return [_mapped(model, jnp.ones((4, 3))) for _ in range(3)]


def case_ok_debug_print_in_filter_vmapped_call():
    model = LoggedDebug(jax.random.PRNGKey(0))
    return [_mapped(model, jnp.ones((4, 3))) for _ in range(3)]


# framework shape (not a thread)
# eqx.nn.MLP (its activations are functions) passed to a plain jax.jit step through a helper.
def _mse(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def _evaluate(model, x, y):
    return jax.jit(_mse)(model, x, y)  # reported: JNP205


def case_mlp_through_helper_into_jax_jit():
    model = eqx.nn.MLP(3, 1, 8, 2, key=jax.random.PRNGKey(0))
    return _evaluate(model, jnp.ones((4, 3)), jnp.zeros((4, 1)))


def _evaluate_filtered(model, x, y):
    return eqx.filter_jit(_mse)(model, x, y)


def case_ok_mlp_through_helper_into_filter_jit():
    model = eqx.nn.MLP(3, 1, 8, 2, key=jax.random.PRNGKey(0))
    return _evaluate_filtered(model, jnp.ones((4, 3)), jnp.zeros((4, 1)))


# framework shape (not a thread)
# A plain function a module calls from its __call__, reached only through the module.
def _clip_norm(h):
    if jnp.linalg.norm(h) > 1.0:  # reported: JNP202
        h = h / jnp.linalg.norm(h)
    return h


def _clip_norm_where(h):
    norm = jnp.linalg.norm(h)
    return jnp.where(norm > 1.0, h / norm, h)


class Clipped(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    def __call__(self, x):
        return _clip_norm(self.linear(x))


class ClippedWhere(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    def __call__(self, x):
        return _clip_norm_where(self.linear(x))


def case_python_if_in_function_called_from_call():
    return _predict(Clipped(jax.random.PRNGKey(0)), jnp.ones((4, 3)))


def case_ok_where_in_function_called_from_call():
    return _predict(ClippedWhere(jax.random.PRNGKey(0)), jnp.ones((4, 3)))
