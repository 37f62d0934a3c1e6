"""Equinox and Optax code as users write it, held out (needs equinox and optax to run)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


# framework shape (not a thread)
# eqx.filter_vmap of a module (no jit) whose __call__ applies a NumPy function to its input.
class SineFeatures(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)

    def __call__(self, x):
        return self.linear(np.sin(x))  # reported: JNP201


class SineFeaturesJnp(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)

    def __call__(self, x):
        return self.linear(jnp.sin(x))


def case_numpy_in_filter_vmapped_module():
    model = SineFeatures(jax.random.PRNGKey(0))
    return eqx.filter_vmap(model)(jnp.ones((5, 3)))


def case_ok_jnp_in_filter_vmapped_module():
    model = SineFeaturesJnp(jax.random.PRNGKey(0))
    return eqx.filter_vmap(model)(jnp.ones((5, 3)))


# framework shape (not a thread)
# BatchNorm with eqx.nn.State: the normalised activations tested with a Python if.
class NormNet(eqx.Module):
    linear: eqx.nn.Linear
    norm: eqx.nn.BatchNorm

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)
        self.norm = eqx.nn.BatchNorm(4, axis_name="batch")

    def __call__(self, x, state):
        h, state = self.norm(self.linear(x), state)
        if h.max() > 5.0:  # reported: JNP202
            h = h / 5.0
        return h, state


class NormNetWhere(eqx.Module):
    linear: eqx.nn.Linear
    norm: eqx.nn.BatchNorm

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)
        self.norm = eqx.nn.BatchNorm(4, axis_name="batch")

    def __call__(self, x, state):
        h, state = self.norm(self.linear(x), state)
        return jnp.where(h.max() > 5.0, h / 5.0, h), state


@eqx.filter_jit
def _batched(model, state, xs):
    return eqx.filter_vmap(model, in_axes=(0, None), out_axes=(0, None), axis_name="batch")(xs, state)


def case_python_if_after_batchnorm_state():
    model, state = eqx.nn.make_with_state(NormNet)(jax.random.PRNGKey(0))
    return _batched(model, state, jnp.ones((6, 3)))


def case_ok_where_after_batchnorm_state():
    model, state = eqx.nn.make_with_state(NormNetWhere)(jax.random.PRNGKey(0))
    return _batched(model, state, jnp.ones((6, 3)))


# framework shape (not a thread)
# A module method the loss calls under eqx.filter_grad (no jit) converts its output to NumPy.
class Regressor(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 1, key=key)

    def predict(self, x):
        return np.asarray(jax.vmap(self.linear)(x))  # reported: JNP201

    def __call__(self, x):
        return jax.vmap(self.linear)(x)


class RegressorJnp(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 1, key=key)

    def predict(self, x):
        return jnp.asarray(jax.vmap(self.linear)(x))

    def __call__(self, x):
        return jax.vmap(self.linear)(x)


def _predict_loss(model, x, y):
    return jnp.mean((model.predict(x) - y) ** 2)


def case_numpy_in_method_of_filter_grad_loss():
    model = Regressor(jax.random.PRNGKey(0))
    return eqx.filter_grad(_predict_loss)(model, jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_ok_jnp_in_method_of_filter_grad_loss():
    model = RegressorJnp(jax.random.PRNGKey(0))
    return eqx.filter_grad(_predict_loss)(model, jnp.ones((4, 3)), jnp.zeros((4, 1)))


# framework shape (not a thread)
# An Optax update in an eqx.filter_jit step that stops on a NaN loss with a Python if.
class Line(eqx.Module):
    weight: jax.Array
    bias: jax.Array

    def __call__(self, x):
        return x @ self.weight + self.bias


def _mse(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


_optim = optax.adam(1e-2)


@eqx.filter_jit
def _guarded_update(model, opt_state, x, y):
    loss, grads = eqx.filter_value_and_grad(_mse)(model, x, y)
    if jnp.isnan(loss):  # reported: JNP202
        raise FloatingPointError("nan loss")
    updates, opt_state = _optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state, loss


@eqx.filter_jit
def _checked_update(model, opt_state, x, y):
    loss, grads = eqx.filter_value_and_grad(_mse)(model, x, y)
    loss = eqx.error_if(loss, jnp.isnan(loss), "nan loss")
    updates, opt_state = _optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state, loss


def case_python_if_on_loss_in_optax_step():
    model = Line(jnp.ones((3, 1)), jnp.zeros(1))
    opt_state = _optim.init(eqx.filter(model, eqx.is_array))
    return _guarded_update(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_ok_error_if_on_loss_in_optax_step():
    model = Line(jnp.ones((3, 1)), jnp.zeros(1))
    opt_state = _optim.init(eqx.filter(model, eqx.is_array))
    return _checked_update(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))


# framework shape (not a thread)
# A distribution module built inside __call__ from traced parameters; its __check_init__ validates them.
class Normal(eqx.Module):
    loc: jax.Array
    scale: jax.Array

    def __check_init__(self):
        if jnp.any(self.scale <= 0):  # reported: JNP202
            raise ValueError("scale must be positive")

    def log_prob(self, x):
        return -0.5 * ((x - self.loc) / self.scale) ** 2 - jnp.log(self.scale)


class CheckedNormal(eqx.Module):
    loc: jax.Array
    scale: jax.Array

    def __check_init__(self):
        eqx.error_if(self.scale, jnp.any(self.scale <= 0), "scale must be positive")

    def log_prob(self, x):
        return -0.5 * ((x - self.loc) / self.scale) ** 2 - jnp.log(self.scale)


class Head(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 2, key=key)

    def __call__(self, x, y):
        loc, log_scale = self.linear(x)
        return Normal(loc, jnp.exp(log_scale)).log_prob(y)


class CheckedHead(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 2, key=key)

    def __call__(self, x, y):
        loc, log_scale = self.linear(x)
        return CheckedNormal(loc, jnp.exp(log_scale)).log_prob(y)


@eqx.filter_jit
def _log_likelihood(model, x, y):
    return model(x, y)


def case_check_init_of_module_built_in_call():
    return _log_likelihood(Head(jax.random.PRNGKey(0)), jnp.ones(3), jnp.asarray(0.5))


def case_ok_error_if_in_check_init_of_module_built_in_call():
    return _log_likelihood(CheckedHead(jax.random.PRNGKey(0)), jnp.ones(3), jnp.asarray(0.5))


# framework shape (not a thread)
# A module given to eqx.filter_jit holds a Python float field updated every step: a new trace each time.
class Tempered(eqx.Module):
    linear: eqx.nn.Linear
    temperature: float

    def __call__(self, x):
        return self.linear(x) / self.temperature


@eqx.filter_jit
def _sample_logits(model, x):
    return model(x)


def case_python_float_field_annealed_in_loop():
    model = Tempered(eqx.nn.Linear(3, 2, key=jax.random.PRNGKey(0)), 1.0)
    outs = []
    for step in range(5):
        model = eqx.tree_at(lambda m: m.temperature, model, 1.0 / (step + 1))
        outs.append(_sample_logits(model, jnp.ones(3)))  # reported: JNP602
    return outs


def case_ok_array_field_annealed_in_loop():
    model = Tempered(eqx.nn.Linear(3, 2, key=jax.random.PRNGKey(0)), jnp.asarray(1.0))
    outs = []
    for step in range(5):
        model = eqx.tree_at(lambda m: m.temperature, model, jnp.asarray(1.0 / (step + 1)))
        outs.append(_sample_logits(model, jnp.ones(3)))
    return outs
