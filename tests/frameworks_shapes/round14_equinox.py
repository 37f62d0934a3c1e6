"""Equinox code as users write it (plain evaluator classes, static configs, per-call losses, dropout keys, mixed-precision embeddings, activation hooks, tolerance loops), held out (needs equinox and optax)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


def _data():
    return jnp.arange(24.0).reshape(8, 3) / 24.0, jnp.ones((8, 1))


# framework shape (not a thread)
# An evaluator holds the trained Equinox model and jits its own __call__; the evaluator is a
# plain class, not a pytree, so jax.jit cannot take it as the first argument.
class PlainEvaluator:
    def __init__(self, model):
        self.model = model

    @jax.jit  # reported: JNP205
    def __call__(self, x):
        return jax.vmap(self.model)(x)


class ModuleEvaluator(eqx.Module):
    model: eqx.nn.Linear

    @jax.jit
    def __call__(self, x):
        return jax.vmap(self.model)(x)


def case_jitted_method_of_a_plain_evaluator():
    x, _ = _data()
    return PlainEvaluator(eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0)))(x)


def case_ok_jitted_method_of_an_equinox_evaluator():
    x, _ = _data()
    return ModuleEvaluator(eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0)))(x)


# framework shape (not a thread)
# A mutable config object is handed to the eqx.filter_jit step, which holds it as a static
# argument; the loop lowers its weight decay in place, and the compiled step keeps the old one.
class Config:
    def __init__(self, weight_decay):
        self.weight_decay = weight_decay


@eqx.filter_jit
def _penalised_loss(model, x, y, config):
    penalty = config.weight_decay * jnp.sum(model.weight ** 2)
    return jnp.mean((jax.vmap(model)(x) - y) ** 2) + penalty


@eqx.filter_jit
def _penalised_loss_traced(model, x, y, weight_decay):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2) + weight_decay * jnp.sum(model.weight ** 2)


def case_static_config_mutated_between_steps():
    model, (x, y) = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0)), _data()
    config = Config(1.0)
    losses = [_penalised_loss(model, x, y, config)]
    config.weight_decay = 0.0  # reported: JNP306
    losses.append(_penalised_loss(model, x, y, config))
    return bool(losses[0] == losses[1])


def case_ok_weight_decay_passed_as_an_array():
    model, (x, y) = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0)), _data()
    losses = [_penalised_loss_traced(model, x, y, jnp.asarray(wd)) for wd in (1.0, 0.0)]
    return bool(losses[0] == losses[1])


# framework shape (not a thread)
# A two-branch Module joins its branches with np.concatenate, as the NumPy prototype did; under
# eqx.filter_jit the branch outputs are tracers.
class TwoBranch(eqx.Module):
    left: eqx.nn.Linear
    right: eqx.nn.Linear
    use_numpy: bool = eqx.field(static=True)

    def __init__(self, key, use_numpy):
        left_key, right_key = jax.random.split(key)
        self.left = eqx.nn.Linear(3, 2, key=left_key)
        self.right = eqx.nn.Linear(3, 2, key=right_key)
        self.use_numpy = use_numpy

    def __call__(self, x):
        if self.use_numpy:
            return np.concatenate([self.left(x), self.right(x)])  # reported: JNP201
        return jnp.concatenate([self.left(x), self.right(x)])


def _branches(use_numpy):
    x, _ = _data()
    return eqx.filter_jit(lambda model, x: jax.vmap(model)(x))(TwoBranch(jax.random.PRNGKey(0), use_numpy), x)


def case_numpy_concatenate_under_filter_jit():
    return _branches(True)


def case_ok_jnp_concatenate_under_filter_jit():
    return _branches(False)


# framework shape (not a thread)
# The loss is chosen per step and handed to the eqx.filter_jit step as a lambda written in the
# loop; every lambda is a new static argument, so every step compiles again.
@eqx.filter_jit
def _step_with(model, x, y, loss_of):
    grads = eqx.filter_grad(lambda m: loss_of(jax.vmap(m)(x), y))(model)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)


def _l2(pred, y):
    return jnp.mean((pred - y) ** 2)


def _fit_with_losses(named, steps):
    model, (x, y) = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0)), _data()
    compiled_before = _step_with._cached._cache_size()
    for _ in range(steps):
        if named:
            model = _step_with(model, x, y, _l2)
        else:
            model = _step_with(model, x, y, lambda pred, y: jnp.mean((pred - y) ** 2))  # reported: JNP602
    return _step_with._cached._cache_size() - compiled_before


def case_new_lambda_loss_every_step():
    return _fit_with_losses(False, 10)


def case_ok_named_loss_every_step():
    return _fit_with_losses(True, 10)


# framework shape (not a thread)
# The training loop splits a dropout key from the root key every step but never advances the
# root, so every step draws the same dropout mask.
class DropoutNet(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 8, key=key)
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x, key):
        return self.dropout(self.linear(x), key=key)


@eqx.filter_jit
def _dropout_masks(model, x, key):
    return model(x, key) != 0


def _dropout_steps(advance, steps):
    model, (x, _) = DropoutNet(jax.random.PRNGKey(0)), _data()
    key = jax.random.PRNGKey(1)
    masks = []
    for _ in range(steps):
        if advance:
            key, dropout_key = jax.random.split(key)
        else:
            _, dropout_key = jax.random.split(key)  # reported: JNP601
        masks.append(_dropout_masks(model, x[0], dropout_key))
    return bool(jnp.array_equal(masks[0], masks[1]))


def case_root_key_never_advanced():
    return _dropout_steps(False, 3)


def case_ok_root_key_advanced_every_step():
    return _dropout_steps(True, 3)


# framework shape (not a thread)
# A mixed-precision token model adds a float16 positional table to a bfloat16 embedding; the
# two half-precision types have no common half type, so the sum is float32.
class TokenModel(eqx.Module):
    embedding: eqx.nn.Embedding
    positions: jax.Array

    def __init__(self, key, positions_dtype):
        self.embedding = eqx.nn.Embedding(10, 4, dtype=jnp.bfloat16, key=key)
        self.positions = jnp.zeros((5, 4), positions_dtype)

    def __call__(self, tokens):
        return jax.vmap(self.embedding)(tokens) + self.positions  # reported: JNP401


def _token_dtype(positions_dtype):
    return eqx.filter_jit(lambda m, t: m(t))(TokenModel(jax.random.PRNGKey(0), positions_dtype), jnp.arange(5)).dtype


def case_bfloat16_embedding_plus_float16_positions():
    return _token_dtype(jnp.float16)


def case_ok_bfloat16_embedding_plus_bfloat16_positions():
    return _token_dtype(jnp.bfloat16)


# framework shape (not a thread)
# A hook collects every hidden activation into a module-level list for plotting; under
# eqx.filter_jit the list receives tracers that outlive the trace.
ACTIVATIONS = []


class HookedMLP(eqx.Module):
    first: eqx.nn.Linear
    second: eqx.nn.Linear

    def __init__(self, key):
        first_key, second_key = jax.random.split(key)
        self.first = eqx.nn.Linear(3, 8, key=first_key)
        self.second = eqx.nn.Linear(8, 1, key=second_key)

    def __call__(self, x, record):
        h = jax.nn.relu(self.first(x))
        if record:
            ACTIVATIONS.append(h)  # reported: JNP303
        return self.second(h), h


def _hooked(record):
    ACTIVATIONS.clear()
    x, _ = _data()
    out, hidden = eqx.filter_jit(lambda m, x: m(x, record))(HookedMLP(jax.random.PRNGKey(0)), x[0])
    kept = list(ACTIVATIONS) if record else [hidden]
    ACTIVATIONS.clear()
    return type(kept[0]).__name__


def case_activation_appended_to_a_global_list():
    return _hooked(True)


def case_ok_activation_returned():
    return _hooked(False)


# framework shape (not a thread)
# Training runs until the loss falls under a tolerance, tested with float() on the loss the
# eqx.filter_jit step returns, which waits for the device every step.
@eqx.filter_jit
def _optax_step(model, opt_state, x, y, optimizer):
    loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = optimizer.update(grads, opt_state, model)
    return eqx.apply_updates(model, updates), opt_state, loss


def _fit_to_tolerance(check_every, tol=1e-3, max_steps=200):
    model, (x, y) = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0)), _data()
    optimizer = optax.adam(1e-1)
    opt_state = optimizer.init(eqx.filter(model, eqx.is_array))
    step, loss = 0, jnp.inf
    if check_every:
        while step < max_steps:
            for _ in range(check_every):
                model, opt_state, loss = _optax_step(model, opt_state, x, y, optimizer)
            step += check_every
            if loss.item() < tol:
                break
        return step
    while step < max_steps and float(loss) > tol:  # reported: JNP102
        model, opt_state, loss = _optax_step(model, opt_state, x, y, optimizer)
        step += 1
    return step


def case_loss_floated_in_the_while_test():
    return _fit_to_tolerance(0)


def case_ok_loss_checked_every_fifty_steps():
    return _fit_to_tolerance(50)
