"""Flax NNX and Optax code as users write it, held out (needs flax and optax to run)."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 2, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


# framework shape (not a thread)
# Two models meant to differ (a student and a teacher) are built from nnx.Rngs over the same key,
# so they start with the same weights.
def case_same_key_in_two_rngs():
    key = jax.random.PRNGKey(0)
    student = Net(nnx.Rngs(key))
    teacher = Net(nnx.Rngs(key))  # reported: JNP601
    return student(jnp.ones((1, 3))) - teacher(jnp.ones((1, 3)))


def case_ok_split_key_in_two_rngs():
    student_key, teacher_key = jax.random.split(jax.random.PRNGKey(0))
    student = Net(nnx.Rngs(student_key))
    teacher = Net(nnx.Rngs(teacher_key))
    return student(jnp.ones((1, 3))) - teacher(jnp.ones((1, 3)))


# framework shape (not a thread)
# An ensemble created with nnx.vmap over split keys and applied with an @nnx.vmap forward over the
# members (the batch broadcast); the forward turns each member's prediction into a Python list.
@nnx.vmap(in_axes=0, out_axes=0)
def _make_ensemble(key):
    return Net(nnx.Rngs(key))


@nnx.vmap(in_axes=(0, None), out_axes=0)
def _member_lists(member, x):
    return jnp.asarray(member(x).argmax(axis=-1).tolist())  # reported: JNP202


@nnx.vmap(in_axes=(0, None), out_axes=0)
def _member_labels(member, x):
    return member(x).argmax(axis=-1)


def case_tolist_in_nnx_vmap_forward():
    ensemble = _make_ensemble(jax.random.split(jax.random.PRNGKey(0), 3))
    return _member_lists(ensemble, jnp.ones((4, 3)))


def case_ok_array_in_nnx_vmap_forward():
    ensemble = _make_ensemble(jax.random.split(jax.random.PRNGKey(0), 3))
    return _member_labels(ensemble, jnp.ones((4, 3)))


# framework shape (not a thread)
# The train step is wrapped with nnx.jit inside the loop, once per step: every wrapper is a new
# function, so every step traces and compiles again.
def _plain_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def case_nnx_jit_every_step():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    losses = []
    for _ in range(5):
        losses.append(nnx.jit(_plain_step)(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 2))))  # reported: JNP602
    return losses


def case_ok_nnx_jit_once():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    step = nnx.jit(_plain_step)
    losses = []
    for _ in range(5):
        losses.append(step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 2))))
    return losses


# framework shape (not a thread)
# After construction, the first input row of an nnx.Linear kernel is zeroed by item assignment
# into the Param's value.
def case_item_assignment_into_kernel_value():
    model = Net(nnx.Rngs(0))
    model.linear.kernel.value[0] = 0.0  # reported: JNP501
    return model


def case_ok_at_set_into_kernel_value():
    model = Net(nnx.Rngs(0))
    model.linear.kernel.value = model.linear.kernel.value.at[0].set(0.0)
    return model


# framework shape (not a thread)
# nnx.cond picks one of two methods of the model; both branches are traced, and the slow one
# ranks the scores with NumPy's sort.
class Ranker(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.score = nnx.Linear(3, 4, rngs=rngs)

    def fast(self, x):
        return self.score(x)

    def slow(self, x):
        return np.sort(self.score(x), axis=-1)  # reported: JNP201

    def slow_jnp(self, x):
        return jnp.sort(self.score(x), axis=-1)


def case_numpy_sort_in_method_chosen_by_nnx_cond():
    model = Ranker(nnx.Rngs(0))
    x = jnp.ones((2, 3))
    return nnx.cond(x.sum() > 100, lambda m, x: m.fast(x), lambda m, x: m.slow(x), model, x)


def case_ok_jnp_sort_in_method_chosen_by_nnx_cond():
    model = Ranker(nnx.Rngs(0))
    x = jnp.ones((2, 3))
    return nnx.cond(x.sum() > 100, lambda m, x: m.fast(x), lambda m, x: m.slow_jnp(x), model, x)


# framework shape (not a thread)
# The host loop of an nnx.jit step records the kernel's history for plotting: the kernel's value
# copied to NumPy after every step.
@nnx.jit
def _train_step(model, optimizer, x, y):
    return _plain_step(model, optimizer, x, y)


def case_numpy_copy_of_kernel_every_step():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    history = []
    for _ in range(5):
        _train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 2)))
        history.append(np.asarray(model.linear.kernel.value))  # reported: JNP101
    return history


def case_ok_device_copy_of_kernel_every_step():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    history = []
    for _ in range(5):
        _train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 2)))
        history.append(jnp.copy(model.linear.kernel.value))
    return np.asarray(jnp.stack(history))
