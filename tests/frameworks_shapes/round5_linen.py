"""Flax Linen, train_state and Optax code as users write it, held out (needs flax and optax to run)."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


# framework shape (not a thread)
# A stack of identical layers lifted with nn.scan over the depth (variable_axes params); the
# scanned layer squashes its carry with NumPy.
class DepthLayer(nn.Module):
    @nn.compact
    def __call__(self, h, _):
        return np.tanh(nn.Dense(4)(h)), None  # reported: JNP201


class DepthLayerJnp(nn.Module):
    @nn.compact
    def __call__(self, h, _):
        return jnp.tanh(nn.Dense(4)(h)), None


class Deep(nn.Module):
    layer: type = DepthLayer

    @nn.compact
    def __call__(self, x):
        stack = nn.scan(self.layer, variable_axes={"params": 0}, split_rngs={"params": True}, length=3)
        h, _ = stack()(x, None)
        return h


def case_numpy_in_layer_scanned_over_depth():
    model = Deep()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 4)))
    return model.apply(variables, jnp.ones((2, 4)))


def case_ok_jnp_in_layer_scanned_over_depth():
    model = Deep(layer=DepthLayerJnp)
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 4)))
    return model.apply(variables, jnp.ones((2, 4)))


# framework shape (not a thread)
# module.bind(variables) gives an interactive module; a jitted function closes over it and calls a
# method that counts the distinct predicted classes with jnp.unique.
class Tagger(nn.Module):
    def setup(self):
        self.head = nn.Dense(3)

    def __call__(self, x):
        return self.head(x)

    def distinct_tags(self, x):
        return jnp.unique(self.head(x).argmax(-1)).shape[0]  # reported: JNP203

    def tag_histogram(self, x):
        return jnp.bincount(self.head(x).argmax(-1), length=3)


def case_unique_in_method_of_bound_module_under_jit():
    model = Tagger()
    bound = model.bind(model.init(jax.random.PRNGKey(0), jnp.ones((5, 4))))
    count = jax.jit(lambda x: bound.distinct_tags(x))
    return count(jnp.ones((5, 4)))


def case_ok_bincount_in_method_of_bound_module_under_jit():
    model = Tagger()
    bound = model.bind(model.init(jax.random.PRNGKey(0), jnp.ones((5, 4))))
    histogram = jax.jit(lambda x: bound.tag_histogram(x))
    return histogram(jnp.ones((5, 4)))


# framework shape (not a thread)
# A BatchNorm model applied with mutable=["batch_stats"] in a jitted step; __call__ skips the
# normalisation with a Python if on the batch spread (is_mutable_collection is the static test).
class SpreadGuard(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
        h = nn.Dense(4)(x)
        if h.std() > 1.0:  # reported: JNP202
            h = nn.BatchNorm(use_running_average=not train)(h)
        return h


class StatsGuard(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
        h = nn.Dense(4)(x)
        if self.is_mutable_collection("batch_stats"):
            h = nn.BatchNorm(use_running_average=not train)(h)
        return h


def _batch_stats_loop(model):
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((8, 3)))

    @jax.jit
    def step(variables, x):
        out, updates = model.apply(variables, x, mutable=["batch_stats"])
        return {**variables, **updates}, out.mean()

    for _ in range(3):
        variables, _ = step(variables, jnp.arange(24.0).reshape(8, 3))
    return variables


def case_python_if_on_spread_with_mutable_batch_stats():
    return _batch_stats_loop(SpreadGuard())


def case_ok_static_mutable_test_with_mutable_batch_stats():
    return _batch_stats_loop(StatsGuard())


# framework shape (not a thread)
# apply(..., method=lambda module, x: ...) inside a jitted function; the method it reaches reads a
# Python float of the encoding.
class Codec(nn.Module):
    def setup(self):
        self.enc = nn.Dense(2)
        self.dec = nn.Dense(4)

    def __call__(self, x):
        return self.dec(self.enc(x))

    def code_norm(self, x):
        return float(jnp.linalg.norm(self.enc(x)))  # reported: JNP202

    def code_norm_array(self, x):
        return jnp.linalg.norm(self.enc(x))


@jax.jit
def _norm_of_codes(variables, x):
    return Codec().apply(variables, x, method=lambda module, x: module.code_norm(x))


@jax.jit
def _norm_of_codes_array(variables, x):
    return Codec().apply(variables, x, method=lambda module, x: module.code_norm_array(x))


def case_float_in_method_reached_through_lambda():
    variables = Codec().init(jax.random.PRNGKey(0), jnp.ones((2, 4)))
    return _norm_of_codes(variables, jnp.ones((2, 4)))


def case_ok_array_in_method_reached_through_lambda():
    variables = Codec().init(jax.random.PRNGKey(0), jnp.ones((2, 4)))
    return _norm_of_codes_array(variables, jnp.ones((2, 4)))


# framework shape (not a thread)
# Eager inference over batches: every batch's logits from model.apply copied to NumPy in the loop.
class Scorer(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)


def case_numpy_copy_of_eager_logits_every_batch():
    model = Scorer()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((4, 3)))
    outputs = []
    for batch in jnp.ones((6, 4, 3)):
        outputs.append(np.asarray(model.apply(variables, batch)))  # reported: JNP101
    return outputs


def case_ok_logits_kept_on_device():
    model = Scorer()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((4, 3)))
    outputs = []
    for batch in jnp.ones((6, 4, 3)):
        outputs.append(model.apply(variables, batch))
    return np.asarray(jnp.stack(outputs))


# framework shape (not a thread)
# A TrainState over optax.inject_hyperparams(optax.adam); the jitted step decays the learning rate
# with a Python if on state.step, which is an array inside jit.
class Line(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


def _injected_state():
    model = Line()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((4, 3)))["params"]
    tx = optax.inject_hyperparams(optax.adam)(learning_rate=1e-2)
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


def _grads(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)
    return jax.grad(loss_fn)(state.params)


@jax.jit
def _decaying_step(state, x, y):
    if state.step > 100:  # reported: JNP202
        state.opt_state.hyperparams["learning_rate"] = 1e-3
    return state.apply_gradients(grads=_grads(state, x, y))


@jax.jit
def _decaying_step_where(state, x, y):
    state.opt_state.hyperparams["learning_rate"] = jnp.where(state.step > 100, 1e-3, 1e-2)
    return state.apply_gradients(grads=_grads(state, x, y))


def case_python_if_on_step_with_injected_hyperparams():
    return _decaying_step(_injected_state(), jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_ok_where_on_step_with_injected_hyperparams():
    return _decaying_step_where(_injected_state(), jnp.ones((4, 3)), jnp.zeros((4, 1)))
