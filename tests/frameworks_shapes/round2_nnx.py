"""Flax NNX and Optax code as users write it, held out (needs flax and optax to run)."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


# framework shape (not a thread)
# Stochastic depth: an nnx.Rngs stream drawn in __call__, the draw compared in a Python if.
class DropPath(nnx.Module):
    def __init__(self, rate: float, rngs: nnx.Rngs):
        self.rate = rate
        self.rngs = rngs
        self.linear = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, x):
        if jax.random.uniform(self.rngs.dropout()) < self.rate:  # reported: JNP202
            return x
        return x + self.linear(x)


class DropPathWhere(nnx.Module):
    def __init__(self, rate: float, rngs: nnx.Rngs):
        self.rate = rate
        self.rngs = rngs
        self.linear = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, x):
        keep = jax.random.uniform(self.rngs.dropout()) >= self.rate
        return x + jnp.where(keep, self.linear(x), 0.0)


@nnx.jit
def _forward(model, x):
    return model(x)


def case_rngs_draw_in_python_if():
    return _forward(DropPath(0.1, nnx.Rngs(params=0, dropout=1)), jnp.ones((2, 4)))


def case_ok_rngs_draw_in_where():
    return _forward(DropPathWhere(0.1, nnx.Rngs(params=0, dropout=1)), jnp.ones((2, 4)))


# framework shape (not a thread)
# Gradient clipping by hand in an nnx.jit step: a Python float of optax.global_norm.
class Tiny(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


@nnx.jit
def _clipped_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    scale = min(1.0, 1.0 / float(optax.global_norm(grads)))  # reported: JNP202
    optimizer.update(model, jax.tree.map(lambda g: g * scale, grads))
    return loss


@nnx.jit
def _clipped_step_jnp(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    scale = jnp.minimum(1.0, 1.0 / optax.global_norm(grads))
    optimizer.update(model, jax.tree.map(lambda g: g * scale, grads))
    return loss


def case_float_of_global_norm_in_nnx_step():
    model = Tiny(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    return _clipped_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_ok_jnp_global_norm_in_nnx_step():
    model = Tiny(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    return _clipped_step_jnp(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))


# framework shape (not a thread)
# An NNX module's __call__ averages the positive activations by a boolean mask.
class PositivePool(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        return h[h > 0].mean()  # reported: JNP203


class PositivePoolWhere(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        return jnp.sum(jnp.where(h > 0, h, 0.0)) / jnp.maximum(jnp.sum(h > 0).astype(h.dtype), 1.0)


@nnx.jit
def _pool(model, x):
    return model(x)


def case_boolean_mask_in_nnx_call():
    return _pool(PositivePool(nnx.Rngs(0)), jnp.ones((2, 3)))


def case_ok_where_in_nnx_call():
    return _pool(PositivePoolWhere(nnx.Rngs(0)), jnp.ones((2, 3)))


# framework shape (not a thread)
# nnx.value_and_grad with has_aux in an nnx.jit step; the auxiliary accuracy is pulled to Python there.
class Scorer(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 2, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


def _loss_and_accuracy(model, x, y):
    logits = model(x)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
    return loss, (logits.argmax(-1) == y).mean()


@nnx.jit
def _aux_step(model, optimizer, x, y):
    (loss, accuracy), grads = nnx.value_and_grad(_loss_and_accuracy, has_aux=True)(model, x, y)
    optimizer.update(model, grads)
    return loss, accuracy.item()  # reported: JNP202


@nnx.jit
def _aux_step_array(model, optimizer, x, y):
    (loss, accuracy), grads = nnx.value_and_grad(_loss_and_accuracy, has_aux=True)(model, x, y)
    optimizer.update(model, grads)
    return loss, accuracy


def case_item_of_aux_in_nnx_step():
    model = Scorer(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    return _aux_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros(4, dtype=jnp.int32))


def case_ok_aux_kept_as_array_in_nnx_step():
    model = Scorer(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    return _aux_step_array(model, optimizer, jnp.ones((4, 3)), jnp.zeros(4, dtype=jnp.int32))


# framework shape (not a thread)
# The loss of every nnx.jit step formatted into a log line inside the loop.
@nnx.jit
def _fit_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)
    return loss


def case_loss_formatted_every_step():
    model = Tiny(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    log = []
    for step in range(10):
        loss = _fit_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        log.append(f"step {step}: {loss:.4f}")  # reported: JNP103
    return log


def case_ok_losses_formatted_after_loop():
    model = Tiny(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    losses = []
    for _ in range(10):
        losses.append(_fit_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1))))
    return [f"step {step}: {loss:.4f}" for step, loss in enumerate(jax.device_get(losses))]
