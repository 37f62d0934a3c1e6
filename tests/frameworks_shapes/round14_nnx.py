"""Flax NNX code as users write it (fixed-point refinements, weight-noise helpers, trainer classes with early stopping, masked logs, host datasets, printed losses, masked features), held out (needs flax and optax)."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs, din=3, dout=3):
        self.hidden = nnx.Linear(din, 8, rngs=rngs)
        self.out = nnx.Linear(8, dout, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


def _regression(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


# framework shape (not a thread)
# A deep-equilibrium style block refines its state until the update is small, with a Python
# while loop on the update's norm; under nnx.jit the norm is a tracer.
class FixedPoint(nnx.Module):
    def __init__(self, rngs, python_loop):
        self.cell = nnx.Linear(4, 4, rngs=rngs)
        self.python_loop = python_loop

    def __call__(self, x, tol=1e-3):
        z = jnp.zeros_like(x)
        if self.python_loop:
            delta = jnp.inf
            while jnp.linalg.norm(delta) > tol:  # reported: JNP202
                new_z = jnp.tanh(self.cell(z) + x)
                delta, z = new_z - z, new_z
            return z

        def not_converged(carry):
            return jnp.linalg.norm(carry[1]) > tol

        def refine(carry):
            z, _ = carry
            new_z = jnp.tanh(0.1 * self.cell(z) + x)
            return new_z, new_z - z
        return jax.lax.while_loop(not_converged, refine, (z, jnp.full_like(x, jnp.inf)))[0]


def _equilibrium(python_loop):
    model = FixedPoint(nnx.Rngs(0), python_loop)
    return nnx.jit(lambda model, x: model(x))(model, jnp.ones(4))


def case_python_while_on_a_norm_under_nnx_jit():
    return _equilibrium(True)


def case_ok_lax_while_loop_under_nnx_jit():
    return _equilibrium(False)


# framework shape (not a thread)
# A helper perturbs the weights of every layer of the model it is given for a robustness test,
# drawing the noise of each layer from the same key; equal shapes get equal noise.
class Square(nnx.Module):
    def __init__(self, rngs):
        self.first = nnx.Linear(4, 4, rngs=rngs)
        self.second = nnx.Linear(4, 4, rngs=rngs)


def _perturb(model, key, split):
    noises = []
    for layer in (model.first, model.second):
        if split:
            key, layer_key = jax.random.split(key)
            noise = 0.01 * jax.random.normal(layer_key, layer.kernel.shape)
        else:
            noise = 0.01 * jax.random.normal(key, layer.kernel.shape)  # reported: JNP601
        layer.kernel[...] = layer.kernel[...] + noise
        noises.append(noise)
    return bool(jnp.array_equal(*noises))


def case_one_key_for_every_layer_noise():
    return _perturb(Square(nnx.Rngs(0)), jax.random.key(7), False)


def case_ok_key_split_per_layer_noise():
    return _perturb(Square(nnx.Rngs(0)), jax.random.key(7), True)


# framework shape (not a thread)
# A trainer class with early stopping compares every step's loss with the best so far in the
# host loop, which waits for the device on each step.
@nnx.jit
def _train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(_regression)(model, x, y)
    optimizer.update(model, grads)
    return loss


class EarlyStopping:
    def __init__(self, patience):
        self.model = MLP(nnx.Rngs(0))
        self.optimizer = nnx.Optimizer(self.model, optax.adam(1e-2), wrt=nnx.Param)
        self.patience = patience

    def fit(self, num_steps, compare_on_device):
        x, y = jnp.ones((4, 3)), jnp.zeros((4, 3))
        best, waited = jnp.inf, 0
        if compare_on_device:
            losses = jnp.stack([_train_step(self.model, self.optimizer, x, y) for _ in range(num_steps)])
            return int(jnp.argmin(losses))
        for step in range(num_steps):
            loss = _train_step(self.model, self.optimizer, x, y)
            if loss < best:  # reported: JNP102
                best, waited = loss, 0
            else:
                waited += 1
            if waited > self.patience:
                return step
        return num_steps


def case_early_stopping_on_every_step_loss():
    return EarlyStopping(3).fit(20, False)


def case_ok_losses_compared_after_training():
    return EarlyStopping(3).fit(20, True)


# framework shape (not a thread)
# The loss function prints the loss for debugging; nnx.value_and_grad traces it under nnx.jit,
# so it prints a tracer once and nothing on later steps.
class Trainer:
    def __init__(self, debug_print):
        self.model = MLP(nnx.Rngs(0))
        self.optimizer = nnx.Optimizer(self.model, optax.sgd(0.1), wrt=nnx.Param)
        self.debug_print = debug_print

    def step(self, x, y):
        debug_print = self.debug_print

        @nnx.jit
        def train_step(model, optimizer):
            def loss_fn(model):
                loss = _regression(model, x, y)
                if debug_print:
                    jax.debug.print("loss {}", loss)
                else:
                    print(f"loss {loss}")  # reported: JNP301
                return loss
            loss, grads = nnx.value_and_grad(loss_fn)(model)
            optimizer.update(model, grads)
            return loss
        return train_step(self.model, self.optimizer)


def case_print_in_the_loss_of_an_nnx_step():
    return Trainer(False).step(jnp.ones((4, 3)), jnp.zeros((4, 3)))


def case_ok_debug_print_in_the_loss_of_an_nnx_step():
    return Trainer(True).step(jnp.ones((4, 3)), jnp.zeros((4, 3)))


# framework shape (not a thread)
# A log-magnitude feature guards its zeros with jnp.where, but the log of the zeros is still
# computed and its gradient is NaN, which the where multiplies by zero into NaN.
class LogFeatures(nnx.Module):
    def __init__(self, rngs, safe):
        self.head = nnx.Linear(3, 1, rngs=rngs)
        self.safe = safe

    def __call__(self, x):
        if self.safe:
            positive = x > 0
            feature = jnp.where(positive, jnp.log(jnp.where(positive, x, 1.0)), 0.0)
        else:
            feature = jnp.where(x > 0, jnp.log(x), 0.0)  # reported: JNP604
        return self.head(feature)


def _log_feature_grads(safe):
    model = LogFeatures(nnx.Rngs(0), safe)
    x = jnp.array([[0.0, 1.0, 2.0]])
    grads = nnx.grad(lambda x: model(x).sum())(x)
    return bool(jnp.isnan(grads).any())


def case_log_guarded_by_where_differentiated():
    return _log_feature_grads(False)


def case_ok_log_of_a_safe_input_differentiated():
    return _log_feature_grads(True)


# framework shape (not a thread)
# A Module zeroes its first hidden feature in place, as a NumPy model would; JAX arrays are
# immutable, so the item assignment raises.
class MaskedFirst(nnx.Module):
    def __init__(self, rngs, functional):
        self.linear = nnx.Linear(3, 4, rngs=rngs)
        self.functional = functional

    def __call__(self, x):
        h = self.linear(x)
        if self.functional:
            h = h.at[:, 0].set(0.0)
        else:
            h[:, 0] = 0.0  # reported: JNP501
        return h


def _masked(functional):
    model = MaskedFirst(nnx.Rngs(0), functional)
    return nnx.jit(lambda model, x: model(x))(model, jnp.ones((2, 3)))


def case_item_assignment_on_a_layer_output():
    return _masked(False)


def case_ok_at_set_on_a_layer_output():
    return _masked(True)


# framework shape (not a thread)
# The dataset is a NumPy array made once; the loop hands it to the nnx.jit step every epoch, so
# it is copied to the device every time.
def _host_dataset_training(upload_once, epochs):
    model = MLP(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x_host = np.random.default_rng(0).normal(size=(256, 3)).astype(np.float32)
    y_host = np.zeros((256, 3), np.float32)
    x_device, y_device = jnp.asarray(x_host), jnp.asarray(y_host)
    losses = []
    for _ in range(epochs):
        if upload_once:
            losses.append(_train_step(model, optimizer, x_device, y_device))
        else:
            losses.append(_train_step(model, optimizer, x_host, y_host))  # reported: JNP104
    return jnp.stack(losses)


def case_numpy_dataset_given_every_epoch():
    return _host_dataset_training(False, 10)


def case_ok_dataset_uploaded_once():
    return _host_dataset_training(True, 10)
