"""Equinox and Optax code as users write it, held out (needs equinox and optax to run)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


# framework shape (not a thread)
# A bound method of a module given to eqx.filter_jit; the sampler rejects with a Python if.
class Gaussian(eqx.Module):
    mean: jax.Array
    log_std: jax.Array

    def sample(self, key):
        z = self.mean + jnp.exp(self.log_std) * jax.random.normal(key, self.mean.shape)
        if jnp.any(jnp.abs(z) > 10.0):  # reported: JNP202
            z = jnp.clip(z, -10.0, 10.0)
        return z


class ClippedGaussian(eqx.Module):
    mean: jax.Array
    log_std: jax.Array

    def sample(self, key):
        z = self.mean + jnp.exp(self.log_std) * jax.random.normal(key, self.mean.shape)
        return jnp.clip(z, -10.0, 10.0)


def case_python_if_in_filter_jitted_bound_method():
    dist = Gaussian(jnp.zeros(3), jnp.zeros(3))
    sample = eqx.filter_jit(dist.sample)
    return sample(jax.random.PRNGKey(0))


def case_ok_clip_in_filter_jitted_bound_method():
    dist = ClippedGaussian(jnp.zeros(3), jnp.zeros(3))
    sample = eqx.filter_jit(dist.sample)
    return sample(jax.random.PRNGKey(0))


# framework shape (not a thread)
# The train step is built in a closure over the optimiser; it prints the loss it computes.
class Mlp(eqx.Module):
    layers: list

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.layers = [eqx.nn.Linear(3, 8, key=k1), eqx.nn.Linear(8, 1, key=k2)]

    def __call__(self, x):
        return self.layers[1](jax.nn.relu(self.layers[0](x)))


def _loss(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def _make_step(optim):
    @eqx.filter_jit
    def step(model, opt_state, x, y):
        loss, grads = eqx.filter_value_and_grad(_loss)(model, x, y)
        print("loss", loss)  # reported: JNP301
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        return eqx.apply_updates(model, updates), opt_state, loss
    return step


def _make_quiet_step(optim):
    @eqx.filter_jit
    def step(model, opt_state, x, y):
        loss, grads = eqx.filter_value_and_grad(_loss)(model, x, y)
        jax.debug.print("loss {}", loss)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        return eqx.apply_updates(model, updates), opt_state, loss
    return step


def case_print_in_closure_built_step():
    model = Mlp(jax.random.PRNGKey(0))
    optim = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    step = _make_step(optim)
    for _ in range(2):
        model, opt_state, loss = step(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    return loss


def case_ok_debug_print_in_closure_built_step():
    model = Mlp(jax.random.PRNGKey(0))
    optim = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    step = _make_quiet_step(optim)
    for _ in range(2):
        model, opt_state, loss = step(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    return loss


# framework shape (not a thread)
# A method the loss calls under eqx.filter_jit scores with NumPy's log-sum-exp trick.
class Classifier(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)

    def log_probs(self, x):
        logits = self.linear(x)
        return logits - np.log(np.sum(np.exp(logits)))  # reported: JNP201

    def __call__(self, x):
        return self.linear(x)


class ClassifierJnp(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)

    def log_probs(self, x):
        return jax.nn.log_softmax(self.linear(x))

    def __call__(self, x):
        return self.linear(x)


@eqx.filter_jit
def _nll(model, x, label):
    return -model.log_probs(x)[label]


def case_numpy_in_method_called_under_filter_jit():
    return _nll(Classifier(jax.random.PRNGKey(0)), jnp.ones(3), 1)


def case_ok_log_softmax_in_method_called_under_filter_jit():
    return _nll(ClassifierJnp(jax.random.PRNGKey(0)), jnp.ones(3), 1)


# framework shape (not a thread)
# A module runs lax.scan over its own step method; the step prints its carry.
class Rnn(eqx.Module):
    cell: eqx.nn.GRUCell

    def __init__(self, key):
        self.cell = eqx.nn.GRUCell(3, 4, key=key)

    def _step(self, h, x):
        h = self.cell(x, h)
        print("hidden", h)  # reported: JNP301
        return h, h

    def __call__(self, xs):
        _, hs = jax.lax.scan(lambda h, x: self._step(h, x), jnp.zeros(4), xs)
        return hs


class QuietRnn(eqx.Module):
    cell: eqx.nn.GRUCell

    def __init__(self, key):
        self.cell = eqx.nn.GRUCell(3, 4, key=key)

    def _step(self, h, x):
        h = self.cell(x, h)
        return h, h

    def __call__(self, xs):
        _, hs = jax.lax.scan(lambda h, x: self._step(h, x), jnp.zeros(4), xs)
        return hs


@eqx.filter_jit
def _run(model, xs):
    return model(xs)


def case_print_in_scanned_method():
    model = Rnn(jax.random.PRNGKey(0))
    return [_run(model, jnp.ones((5, 3))) for _ in range(2)]


def case_ok_no_print_in_scanned_method():
    model = QuietRnn(jax.random.PRNGKey(0))
    return [_run(model, jnp.ones((5, 3))) for _ in range(2)]


# framework shape (not a thread)
# The model is handed to a fitting helper; the helper reads every loss as a Python float.
def _fit(model, xs, ys, steps):
    optim = optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(0.1))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    step = _make_quiet_step(optim)
    losses = []
    for _ in range(steps):
        model, opt_state, loss = step(model, opt_state, xs, ys)
        losses.append(loss.item())  # reported: JNP102
    return model, losses


def _fit_on_device(model, xs, ys, steps):
    optim = optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(0.1))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    step = _make_quiet_step(optim)
    losses = []
    for _ in range(steps):
        model, opt_state, loss = step(model, opt_state, xs, ys)
        losses.append(loss)
    return model, jnp.stack(losses)


def case_item_every_step_in_fit_helper():
    return _fit(Mlp(jax.random.PRNGKey(0)), jnp.ones((4, 3)), jnp.zeros((4, 1)), 5)


def case_ok_losses_stacked_in_fit_helper():
    return _fit_on_device(Mlp(jax.random.PRNGKey(0)), jnp.ones((4, 3)), jnp.zeros((4, 1)), 5)


# framework shape (not a thread)
# eqx.filter_vmap of a bound method over a batch; the method branches on its input.
class Scaler(eqx.Module):
    scale: jax.Array

    def apply(self, x):
        if x.sum() < 0:  # reported: JNP202
            return -x * self.scale
        return x * self.scale


class ScalerWhere(eqx.Module):
    scale: jax.Array

    def apply(self, x):
        return jnp.where(x.sum() < 0, -x, x) * self.scale


def case_python_if_in_filter_vmapped_method():
    return eqx.filter_vmap(Scaler(jnp.asarray(2.0)).apply)(jnp.ones((3, 2)))


def case_ok_where_in_filter_vmapped_method():
    return eqx.filter_vmap(ScalerWhere(jnp.asarray(2.0)).apply)(jnp.ones((3, 2)))
