"""Flax Linen, train_state and Optax code as users write it, held out (needs flax and optax to run)."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


# framework shape (not a thread)
# Per-example prediction with jax.vmap(model.apply, in_axes=(None, 0)); __call__ reads the class
# of the one example with int() of an argmax.
class Classify(nn.Module):
    @nn.compact
    def __call__(self, x):
        logits = nn.Dense(3)(x)
        return int(jnp.argmax(logits))  # reported: JNP202


class ClassifyArray(nn.Module):
    @nn.compact
    def __call__(self, x):
        logits = nn.Dense(3)(x)
        return jnp.argmax(logits)


def case_int_of_argmax_under_vmap_of_apply():
    model = Classify()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones(4))
    return jax.vmap(model.apply, in_axes=(None, 0))(variables, jnp.ones((5, 4)))


def case_ok_argmax_array_under_vmap_of_apply():
    model = ClassifyArray()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones(4))
    return jax.vmap(model.apply, in_axes=(None, 0))(variables, jnp.ones((5, 4)))


# framework shape (not a thread)
# A fixed-point refinement: lax.fori_loop inside a jitted function applies the model to its own
# output and clips it with NumPy in the loop body.
class Refine(nn.Module):
    @nn.compact
    def __call__(self, h):
        return nn.Dense(4)(h)


@jax.jit
def _refine_numpy(variables, h):
    def body(_, h):
        return np.clip(Refine().apply(variables, h), -1.0, 1.0)  # reported: JNP201
    return jax.lax.fori_loop(0, 3, body, h)


@jax.jit
def _refine_jnp(variables, h):
    def body(_, h):
        return jnp.clip(Refine().apply(variables, h), -1.0, 1.0)
    return jax.lax.fori_loop(0, 3, body, h)


def case_numpy_clip_in_fori_loop_over_apply():
    variables = Refine().init(jax.random.PRNGKey(0), jnp.ones((2, 4)))
    return _refine_numpy(variables, jnp.ones((2, 4)))


def case_ok_jnp_clip_in_fori_loop_over_apply():
    variables = Refine().init(jax.random.PRNGKey(0), jnp.ones((2, 4)))
    return _refine_jnp(variables, jnp.ones((2, 4)))


# framework shape (not a thread)
# Methods calling methods in a setup() model: __call__ -> encode -> pool; the pooling method takes
# the root-mean-square over the sequence with np.sqrt. The model is applied by a jax.jit of its apply.
class SetEncoder(nn.Module):
    pool_with_numpy: bool = True

    def setup(self):
        self.embed = nn.Dense(8)
        self.head = nn.Dense(2)

    def pool(self, h):
        if self.pool_with_numpy:
            return np.sqrt((h ** 2).mean(axis=1))  # reported: JNP201
        return jnp.sqrt((h ** 2).mean(axis=1))

    def encode(self, x):
        return self.pool(nn.relu(self.embed(x)))

    def __call__(self, x):
        return self.head(self.encode(x))


def _encode_jitted(model):
    x = jnp.ones((2, 5, 3))
    variables = model.init(jax.random.PRNGKey(0), x)
    return jax.jit(model.apply)(variables, x)


def case_numpy_sqrt_in_method_called_by_method():
    return _encode_jitted(SetEncoder())


def case_ok_jnp_sqrt_in_method_called_by_method():
    return _encode_jitted(SetEncoder(pool_with_numpy=False))


# framework shape (not a thread)
# Intermediates recorded with self.sow and returned by apply(..., mutable=["intermediates"]) in a
# jitted function; the sown activation's norm is read as a Python float there.
class Probe(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(4)(x)
        self.sow("intermediates", "hidden", h)
        return nn.Dense(1)(h)


@jax.jit
def _hidden_norm_float(variables, x):
    _, state = Probe().apply(variables, x, mutable=["intermediates"])
    return float(jnp.linalg.norm(state["intermediates"]["hidden"][0]))  # reported: JNP202


@jax.jit
def _hidden_norm_array(variables, x):
    _, state = Probe().apply(variables, x, mutable=["intermediates"])
    return jnp.linalg.norm(state["intermediates"]["hidden"][0])


def case_float_of_sown_intermediate_under_jit():
    variables = Probe().init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return _hidden_norm_float(variables, jnp.ones((2, 3)))


def case_ok_array_of_sown_intermediate_under_jit():
    variables = Probe().init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return _hidden_norm_array(variables, jnp.ones((2, 3)))


# framework shape (not a thread)
# A dropout model trained with a jitted TrainState step that takes the dropout key; the host loop
# passes the same key to every step, so every step drops the same units.
class DropHead(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
        return nn.Dense(1)(nn.Dropout(0.5, deterministic=not train)(nn.Dense(8)(x)))


def _drop_state():
    model = DropHead()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((4, 3)), train=False)["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))


@jax.jit
def _drop_step(state, x, y, dropout_key):
    def loss_fn(params):
        pred = state.apply_fn({"params": params}, x, rngs={"dropout": dropout_key})
        return jnp.mean((pred - y) ** 2)
    return state.apply_gradients(grads=jax.grad(loss_fn)(state.params))


def case_same_dropout_key_every_jitted_step():
    state = _drop_state()
    dropout_key = jax.random.PRNGKey(1)
    for _ in range(10):
        state = _drop_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)), dropout_key)  # reported: JNP601
    return state


def case_ok_folded_dropout_key_every_jitted_step():
    state = _drop_state()
    dropout_key = jax.random.PRNGKey(1)
    for step in range(10):
        state = _drop_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)), jax.random.fold_in(dropout_key, step))
    return state


# framework shape (not a thread)
# The TrainState is re-created every epoch around a fresh optax.chain (clip, then adamw at the
# epoch's rate); the chain is a static field of the state, so the jitted step compiles every epoch.
class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


@jax.jit
def _fit_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)
    return state.apply_gradients(grads=jax.grad(loss_fn)(state.params))


def _chain_state(params, learning_rate):
    tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(learning_rate))
    return train_state.TrainState.create(apply_fn=Regressor().apply, params=params, tx=tx)


def case_new_chain_in_train_state_every_epoch():
    params = Regressor().init(jax.random.PRNGKey(0), jnp.ones((4, 3)))["params"]
    for epoch in range(4):
        state = _chain_state(params, 1e-2 / (epoch + 1))
        state = _fit_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))  # reported: JNP602
        params = state.params
    return params


def case_ok_one_chain_with_schedule():
    params = Regressor().init(jax.random.PRNGKey(0), jnp.ones((4, 3)))["params"]
    state = train_state.TrainState.create(
        apply_fn=Regressor().apply, params=params,
        tx=optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(optax.linear_schedule(1e-2, 2.5e-3, 4))))
    for _ in range(4):
        state = _fit_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    return state.params
