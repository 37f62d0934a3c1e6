"""Flax NNX code as users write it (nnx.Optimizer steps, step counters, gradient norms, padded labels, auxiliary losses, factories), held out (needs flax and optax)."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 3, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


class Count(nnx.Variable):
    pass


# framework shape (not a thread)
# A module counts its calls in an nnx.Variable and switches from warm-up to full scale with a
# Python `if` on the count; under nnx.jit the Variable holds a tracer.
class WarmupScaled(nnx.Module):
    def __init__(self, rngs, traced_switch):
        self.mlp = MLP(rngs)
        self.calls = Count(jnp.zeros((), jnp.int32))
        self.traced_switch = traced_switch

    def __call__(self, x):
        self.calls[...] += 1
        if self.traced_switch:
            return self.mlp(x) * jnp.where(self.calls[...] < 3, 0.1, 1.0)
        if self.calls[...] < 3:  # reported: JNP202
            return 0.1 * self.mlp(x)
        return self.mlp(x)


def _scaled_calls(traced_switch):
    model = WarmupScaled(nnx.Rngs(0), traced_switch)
    forward = nnx.jit(lambda model, x: model(x))
    return [forward(model, jnp.ones(3)) for _ in range(4)]


def case_python_if_on_a_counter_variable_under_nnx_jit():
    return _scaled_calls(False)


def case_ok_jnp_where_on_a_counter_variable_under_nnx_jit():
    return _scaled_calls(True)


# framework shape (not a thread)
# The train step is made by a factory that closes over the loss; the loop reads each step's loss
# with .item(), which waits for the device on every step.
def _make_train_step(loss_of):
    @nnx.jit
    def train_step(model, optimizer, x, y):
        loss, grads = nnx.value_and_grad(lambda model: loss_of(model(x), y))(model)
        optimizer.update(model, grads)
        return loss
    return train_step


def _squared_error(pred, y):
    return jnp.mean((pred - y) ** 2)


def _factory_training():
    model = MLP(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
    return model, optimizer, _make_train_step(_squared_error)


def case_loss_item_every_step():
    model, optimizer, train_step = _factory_training()
    losses = []
    for _ in range(5):
        loss = train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 3)))
        losses.append(loss.item())  # reported: JNP102
    return losses


def case_ok_loss_item_after_the_loop():
    model, optimizer, train_step = _factory_training()
    losses = []
    for _ in range(5):
        losses.append(train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 3))))
    return jnp.stack(losses).tolist()


# framework shape (not a thread)
# The step returns the global gradient norm for the dashboard, computed with np.linalg.norm over
# the gradient leaves; under nnx.jit the leaves are tracers.
def _norm_step(use_numpy):
    @nnx.jit
    def step(model, optimizer, x, y):
        loss, grads = nnx.value_and_grad(lambda model: _squared_error(model(x), y))(model)
        optimizer.update(model, grads)
        leaves = jax.tree.leaves(grads)
        if use_numpy:
            norm = np.linalg.norm([np.linalg.norm(leaf) for leaf in leaves])  # reported: JNP201
        else:
            norm = optax.tree.norm(grads)
        return loss, norm
    return step


def _norms(use_numpy):
    model = MLP(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    return _norm_step(use_numpy)(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 3)))


def case_numpy_gradient_norm_under_nnx_jit():
    return _norms(True)


def case_ok_optax_tree_norm_under_nnx_jit():
    return _norms(False)


# framework shape (not a thread)
# Padded positions carry the label -1; the loss drops them by boolean indexing inside the
# nnx.jit step, which gives the logits a shape that depends on the labels.
class Tagger(nnx.Module):
    def __init__(self, rngs, index_mask):
        self.embed = nnx.Embed(10, 4, rngs=rngs)
        self.head = nnx.Linear(4, 5, rngs=rngs)
        self.index_mask = index_mask

    def loss(self, tokens, labels):
        logits = self.head(self.embed(tokens))
        keep = labels >= 0
        if self.index_mask:
            return optax.softmax_cross_entropy_with_integer_labels(logits[keep], labels[keep]).mean()  # reported: JNP203
        nll = optax.softmax_cross_entropy_with_integer_labels(logits, jnp.where(keep, labels, 0))
        return jnp.sum(jnp.where(keep, nll, 0.0)) / jnp.maximum(keep.sum(), 1)


def _tagging(index_mask):
    model = Tagger(nnx.Rngs(0), index_mask)
    tokens, labels = jnp.array([1, 2, 3, 0, 0]), jnp.array([0, 4, 2, -1, -1])
    return nnx.jit(lambda model, tokens, labels: model.loss(tokens, labels))(model, tokens, labels)


def case_padded_labels_dropped_by_boolean_index_under_nnx_jit():
    return _tagging(True)


def case_ok_padded_labels_masked_with_where_under_nnx_jit():
    return _tagging(False)


# framework shape (not a thread)
# A softmax temperature is a module-level setting that the calibration loop lowers every round;
# the nnx.jit predictor read it while tracing and keeps the first value.
TEMPERATURE = 1.0


@nnx.jit
def _probabilities_closed(model, x):
    return jax.nn.softmax(model(x) / TEMPERATURE)  # reported: JNP304


@nnx.jit
def _probabilities(model, x, temperature):
    return jax.nn.softmax(model(x) / temperature)


def case_temperature_global_lowered_between_calls():
    global TEMPERATURE
    model = MLP(nnx.Rngs(0))
    probabilities_at = []
    for temperature in (1.0, 0.01):
        TEMPERATURE = temperature
        probabilities_at.append(_probabilities_closed(model, jnp.ones((4, 3))))
    TEMPERATURE = 1.0
    return bool(jnp.array_equal(*probabilities_at))


def case_ok_temperature_passed_every_call():
    model = MLP(nnx.Rngs(0))
    return bool(jnp.array_equal(_probabilities(model, jnp.ones((4, 3)), 1.0),
                                _probabilities(model, jnp.ones((4, 3)), 0.01)))


# framework shape (not a thread)
# A model with an auxiliary head adds the two losses with jnp.sum of a Python list, which JAX
# refuses (NumPy would accept it).
class TwoHeads(nnx.Module):
    def __init__(self, rngs, stacked):
        self.body = nnx.Linear(3, 8, rngs=rngs)
        self.main = nnx.Linear(8, 1, rngs=rngs)
        self.aux = nnx.Linear(8, 1, rngs=rngs)
        self.stacked = stacked

    def total_loss(self, x, y):
        h = nnx.relu(self.body(x))
        main_loss = jnp.mean((self.main(h) - y) ** 2)
        aux_loss = 0.1 * jnp.mean((self.aux(h) - y) ** 2)
        if self.stacked:
            return jnp.sum(jnp.stack([main_loss, aux_loss]))
        return jnp.sum([main_loss, aux_loss])  # reported: JNP505


def _two_head_grads(stacked):
    model = TwoHeads(nnx.Rngs(0), stacked)
    return nnx.grad(lambda model: model.total_loss(jnp.ones((4, 3)), jnp.zeros((4, 1))))(model)


def case_losses_summed_from_a_list():
    return _two_head_grads(False)


def case_ok_losses_summed_from_a_stack():
    return _two_head_grads(True)


# framework shape (not a thread)
# Input-noise augmentation draws its noise from one key before each nnx.Optimizer step; the key
# never changes, so every step adds the same noise.
def _augmented_training(fold_step):
    model, optimizer, train_step = _factory_training()
    x, y, key = jnp.ones((4, 3)), jnp.zeros((4, 3)), jax.random.key(1)
    noises = []
    for step in range(3):
        if fold_step:
            noise = 0.1 * jax.random.normal(jax.random.fold_in(key, step), x.shape)
        else:
            noise = 0.1 * jax.random.normal(key, x.shape)  # reported: JNP601
        train_step(model, optimizer, x + noise, y)
        noises.append(noise)
    return bool(jnp.array_equal(noises[0], noises[1]))


def case_one_noise_key_every_step():
    return _augmented_training(False)


def case_ok_noise_key_folded_with_the_step():
    return _augmented_training(True)
