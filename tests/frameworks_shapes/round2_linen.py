"""Flax Linen and Optax code as users write it, held out (needs flax and optax to run)."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


# framework shape (not a thread)
# nn.scan over a recurrent cell whose __call__ prints the carry it computes.
class PrintingCell(nn.Module):
    @nn.compact
    def __call__(self, carry, x):
        h = jnp.tanh(nn.Dense(4)(x) + carry)
        print("carry", h)  # reported: JNP301
        return h, h


class QuietCell(nn.Module):
    @nn.compact
    def __call__(self, carry, x):
        h = jnp.tanh(nn.Dense(4)(x) + carry)
        jax.debug.print("carry {}", h)
        return h, h


class Unrolled(nn.Module):
    cell: type = PrintingCell

    @nn.compact
    def __call__(self, xs):
        scan = nn.scan(self.cell, variable_broadcast="params", split_rngs={"params": False})
        return scan()(jnp.zeros(4), xs)[1]


def case_print_in_scanned_cell():
    model = Unrolled(PrintingCell)
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((5, 3)))
    return jax.jit(model.apply)(variables, jnp.ones((5, 3)))


def case_ok_debug_print_in_scanned_cell():
    model = Unrolled(QuietCell)
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((5, 3)))
    return jax.jit(model.apply)(variables, jnp.ones((5, 3)))


# framework shape (not a thread)
# nn.remat around a block that normalises by a Python float of its activations.
class NormedBlock(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(8)(x)
        return h / float(h.std() + 1e-6)  # reported: JNP202


class NormedBlockJnp(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(8)(x)
        return h / (h.std() + 1e-6)


class Deep(nn.Module):
    block: type = NormedBlock

    @nn.compact
    def __call__(self, x):
        for _ in range(2):
            x = nn.remat(self.block)()(x)
        return x


def case_float_in_rematted_block():
    model = Deep(NormedBlock)
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 8)))
    return model.apply(variables, jnp.ones((2, 8)))


def case_ok_array_in_rematted_block():
    model = Deep(NormedBlockJnp)
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 8)))
    return model.apply(variables, jnp.ones((2, 8)))


# framework shape (not a thread)
# nn.vmap of a head over ensemble members; the head branches on its activations in Python.
class GatedHead(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(2)(x)
        if h.sum() > 0:  # reported: JNP202
            h = nn.relu(h)
        return h


class GatedHeadWhere(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(2)(x)
        return jnp.where(h.sum() > 0, nn.relu(h), h)


class Ensemble(nn.Module):
    head: type = GatedHead

    @nn.compact
    def __call__(self, x):
        heads = nn.vmap(self.head, variable_axes={"params": 0}, split_rngs={"params": True},
                        in_axes=None, out_axes=0, axis_size=3)
        return heads()(x)


def case_python_if_in_vmapped_head():
    model = Ensemble(GatedHead)
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((4, 3)))
    return model.apply(variables, jnp.ones((4, 3)))


def case_ok_where_in_vmapped_head():
    model = Ensemble(GatedHeadWhere)
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((4, 3)))
    return model.apply(variables, jnp.ones((4, 3)))


# framework shape (not a thread)
# TrainState.apply_fn in a jitted step; the confidence is computed with NumPy on the logits.
class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(nn.relu(nn.Dense(16)(x)))


def _make_state(tx):
    model = Classifier()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


@jax.jit
def _train_step(state, x, y):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), logits
    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    confidence = np.exp(logits).max(-1).mean()  # reported: JNP201
    return state.apply_gradients(grads=grads), loss, confidence


@jax.jit
def _train_step_jnp(state, x, y):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), logits
    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    confidence = jnp.exp(logits).max(-1).mean()
    return state.apply_gradients(grads=grads), loss, confidence


def case_numpy_confidence_in_train_state_step():
    state = _make_state(optax.sgd(0.1))
    return _train_step(state, jnp.ones((8, 4)), jnp.zeros(8, dtype=jnp.int32))


def case_ok_jnp_confidence_in_train_state_step():
    state = _make_state(optax.sgd(0.1))
    return _train_step_jnp(state, jnp.ones((8, 4)), jnp.zeros(8, dtype=jnp.int32))


# framework shape (not a thread)
# setup() builds the layers; a helper method __call__ uses keeps the positive entries by a mask.
class Pooled(nn.Module):
    def setup(self):
        self.proj = nn.Dense(4)

    def _positive_mean(self, h):
        return h[h > 0].mean()  # reported: JNP203

    def __call__(self, x):
        return self._positive_mean(self.proj(x))


class PooledWhere(nn.Module):
    def setup(self):
        self.proj = nn.Dense(4)

    def _positive_mean(self, h):
        return jnp.sum(jnp.where(h > 0, h, 0.0)) / jnp.maximum(jnp.sum(h > 0).astype(h.dtype), 1.0)

    def __call__(self, x):
        return self._positive_mean(self.proj(x))


def case_boolean_mask_in_setup_module_helper():
    model = Pooled()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return jax.jit(model.apply)(variables, jnp.ones((2, 3)))


def case_ok_where_in_setup_module_helper():
    model = PooledWhere()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return jax.jit(model.apply)(variables, jnp.ones((2, 3)))


# framework shape (not a thread)
# A second @nn.compact method applied with method= inside a jitted function; int() of an argmax.
class Tagger(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(5)(x)

    @nn.compact
    def best_tag(self, x):
        scores = nn.Dense(5)(x)
        return int(scores.argmax())  # reported: JNP202


class TaggerArray(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(5)(x)

    @nn.compact
    def best_tag(self, x):
        scores = nn.Dense(5)(x)
        return scores.argmax()


def case_int_in_compact_method_applied_with_method():
    model = Tagger()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones(3), method=Tagger.best_tag)
    return jax.jit(lambda v, x: model.apply(v, x, method=Tagger.best_tag))(variables, jnp.ones(3))


def case_ok_argmax_in_compact_method_applied_with_method():
    model = TaggerArray()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones(3), method=TaggerArray.best_tag)
    return jax.jit(lambda v, x: model.apply(v, x, method=TaggerArray.best_tag))(variables, jnp.ones(3))


# framework shape (not a thread)
# jax.jit(model.apply) given the train flag positionally: jit traces the bool, `if train:` fails.
class Noisy(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        h = nn.Dense(4)(x)
        if train:  # reported: JNP202
            h = h * 0.5
        return h


def case_train_flag_traced_by_jitted_apply():
    model = Noisy()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)), False)
    apply = jax.jit(model.apply)
    return apply(variables, jnp.ones((2, 3)), True)


def case_ok_train_flag_static_in_jitted_apply():
    model = Noisy()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)), False)
    apply = jax.jit(model.apply, static_argnames="train")
    return apply(variables, jnp.ones((2, 3)), train=True)
