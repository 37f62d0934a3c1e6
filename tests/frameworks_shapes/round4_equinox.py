"""Equinox and Optax code as users write it, held out (needs equinox and optax to run)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


# framework shape (not a thread)
# eqx.partition / eqx.combine around a plain jax.jit; the recombined module applies a softplus with NumPy.
class Pooled(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)

    def __call__(self, x):
        return np.log1p(np.exp(self.linear(x)))  # reported: JNP201


class PooledJnp(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)

    def __call__(self, x):
        return jnp.log1p(jnp.exp(self.linear(x)))


def case_numpy_in_module_recombined_under_jit():
    params, static = eqx.partition(Pooled(jax.random.PRNGKey(0)), eqx.is_array)

    @jax.jit
    def forward(params, x):
        return eqx.combine(params, static)(x)

    return forward(params, jnp.ones(3))


def case_ok_jnp_in_module_recombined_under_jit():
    params, static = eqx.partition(PooledJnp(jax.random.PRNGKey(0)), eqx.is_array)

    @jax.jit
    def forward(params, x):
        return eqx.combine(params, static)(x)

    return forward(params, jnp.ones(3))


# framework shape (not a thread)
# A custom layer inside eqx.nn.Sequential, applied under eqx.filter_jit; the layer prints its input.
class Trace(eqx.Module):
    def __call__(self, x, *, key=None):
        print("activation", x)  # reported: JNP301
        return x


class TraceQuiet(eqx.Module):
    def __call__(self, x, *, key=None):
        jax.debug.print("activation {}", x)
        return x


@eqx.filter_jit
def _apply(model, x):
    return model(x)


def case_print_in_layer_of_eqx_sequential():
    model = eqx.nn.Sequential([eqx.nn.Linear(3, 4, key=jax.random.PRNGKey(0)), Trace()])
    return [_apply(model, jnp.ones(3)) for _ in range(2)]


def case_ok_debug_print_in_layer_of_eqx_sequential():
    model = eqx.nn.Sequential([eqx.nn.Linear(3, 4, key=jax.random.PRNGKey(0)), TraceQuiet()])
    return [_apply(model, jnp.ones(3)) for _ in range(2)]


# framework shape (not a thread)
# An ensemble built with eqx.filter_vmap and applied with eqx.filter_vmap; a member keeps the positive units with argwhere.
class Member(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)

    def __call__(self, x):
        h = self.linear(x)
        return h[jnp.argwhere(h > 0)[:, 0]].sum()  # reported: JNP203


class MemberWhere(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)

    def __call__(self, x):
        h = self.linear(x)
        return jnp.where(h > 0, h, 0.0).sum()


@eqx.filter_vmap(in_axes=(eqx.if_array(0), None))
def _ensemble(model, x):
    return model(x)


def case_argwhere_in_filter_vmapped_ensemble():
    models = eqx.filter_vmap(Member)(jax.random.split(jax.random.PRNGKey(0), 4))
    return _ensemble(models, jnp.ones(3))


def case_ok_where_in_filter_vmapped_ensemble():
    models = eqx.filter_vmap(MemberWhere)(jax.random.split(jax.random.PRNGKey(0), 4))
    return _ensemble(models, jnp.ones(3))


# framework shape (not a thread)
# A learning rate decayed in the host loop is given to eqx.filter_jit as a Python float: one compile per value.
def _loss(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


@eqx.filter_jit
def _sgd_step(model, x, y, lr):
    grads = eqx.filter_grad(_loss)(model, x, y)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, model, grads)


def case_python_float_lr_decayed_in_loop():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    for epoch in range(5):
        lr = 0.1 * 0.5 ** epoch
        model = _sgd_step(model, jnp.ones((4, 3)), jnp.zeros((4, 1)), lr)  # reported: JNP602
    return model


def case_ok_array_lr_decayed_in_loop():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    for epoch in range(5):
        lr = jnp.asarray(0.1 * 0.5 ** epoch)
        model = _sgd_step(model, jnp.ones((4, 3)), jnp.zeros((4, 1)), lr)
    return model


# framework shape (not a thread)
# A hand-written Optax transformation clips the updates with NumPy; it runs inside an eqx.filter_jit step.
def _numpy_clip():
    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        return jax.tree_util.tree_map(lambda u: np.clip(u, -1.0, 1.0), updates), state  # reported: JNP201

    return optax.GradientTransformation(init_fn, update_fn)


def _jnp_clip():
    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        return jax.tree_util.tree_map(lambda u: jnp.clip(u, -1.0, 1.0), updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def _make_optax_step(optim):
    @eqx.filter_jit
    def step(model, opt_state, x, y):
        grads = eqx.filter_grad(_loss)(model, x, y)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        return eqx.apply_updates(model, updates), opt_state
    return step


def _run_optax(transform):
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    optim = optax.chain(transform, optax.sgd(0.1))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    return _make_optax_step(optim)(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_numpy_in_custom_optax_transformation():
    return _run_optax(_numpy_clip())


def case_ok_jnp_in_custom_optax_transformation():
    return _run_optax(_jnp_clip())


# framework shape (not a thread)
# The aux dict of eqx.filter_value_and_grad inside eqx.filter_jit; the accuracy is tested with a Python if.
class Logits(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)

    def __call__(self, x):
        return self.linear(x)


def _loss_with_metrics(model, x, y):
    logits = jax.vmap(model)(x)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
    return loss, {"accuracy": (logits.argmax(-1) == y).mean()}


@eqx.filter_jit
def _early_stop_step(model, x, y):
    (loss, metrics), grads = eqx.filter_value_and_grad(_loss_with_metrics, has_aux=True)(model, x, y)
    if metrics["accuracy"] > 0.99:  # reported: JNP202
        return model, loss
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, model, grads), loss


@eqx.filter_jit
def _masked_step(model, x, y):
    (loss, metrics), grads = eqx.filter_value_and_grad(_loss_with_metrics, has_aux=True)(model, x, y)
    scale = jnp.where(metrics["accuracy"] > 0.99, 0.0, 0.1)
    return jax.tree_util.tree_map(lambda p, g: p - scale * g, model, grads), loss


def case_python_if_on_aux_metric_in_filter_jit():
    return _early_stop_step(Logits(jax.random.PRNGKey(0)), jnp.ones((4, 3)), jnp.array([0, 1, 2, 3]))


def case_ok_where_on_aux_metric_in_filter_jit():
    return _masked_step(Logits(jax.random.PRNGKey(0)), jnp.ones((4, 3)), jnp.array([0, 1, 2, 3]))
