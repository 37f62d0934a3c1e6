"""Flax Linen code as users write it (layer stacks under nn.scan, class-balanced losses, module factories, shared init and dropout keys, printed epochs, flatten layers, host datasets, direction features), held out (needs flax and optax)."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state


def _data():
    return jnp.arange(32.0).reshape(8, 4) / 32.0, jnp.ones((8, 1))


def _train_state(model, x, tx):
    params = model.init(jax.random.PRNGKey(0), x)["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


# framework shape (not a thread)
# A deep tower repeats one block with nn.scan over the layer axis; the block's RMS norm was
# written from a NumPy reference with np.mean, and nn.scan traces the block.
class RMSBlock(nn.Module):
    numpy_norm: bool

    @nn.compact
    def __call__(self, h, _):
        if self.numpy_norm:
            scale = np.sqrt(np.mean(h ** 2, axis=-1, keepdims=True) + 1e-6)  # reported: JNP201
        else:
            scale = jnp.sqrt(jnp.mean(h ** 2, axis=-1, keepdims=True) + 1e-6) * np.sqrt(h.shape[-1] / 4)
        return nn.gelu(nn.Dense(h.shape[-1])(h / scale)), None


class ScannedTower(nn.Module):
    numpy_norm: bool
    depth: int = 3

    @nn.compact
    def __call__(self, x):
        tower = nn.scan(RMSBlock, variable_axes={"params": 0}, split_rngs={"params": True},
                        length=self.depth)
        h, _ = tower(self.numpy_norm)(x, None)
        return h


def _tower(numpy_norm):
    x, _ = _data()
    return ScannedTower(numpy_norm).init(jax.random.PRNGKey(0), x)


def case_numpy_mean_in_a_block_under_nn_scan():
    return _tower(True)


def case_ok_jnp_mean_in_a_block_under_nn_scan():
    return _tower(False)


# framework shape (not a thread)
# A class-balanced loss weights every class by its frequency in the batch, counted with
# jnp.unique inside the jitted TrainState step; the number of classes seen depends on the labels.
class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


def _balanced_step(state, x, labels, fixed_classes):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, x)
        losses = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
        if fixed_classes:
            counts = jnp.bincount(labels, length=3)
        else:
            _, counts = jnp.unique(labels, return_counts=True)  # reported: JNP203
        weights = 1.0 / counts[labels]
        return jnp.sum(weights * losses) / jnp.sum(weights)
    return state.apply_gradients(grads=jax.grad(loss_fn)(state.params))


def _balanced(fixed_classes):
    x, _ = _data()
    labels = jnp.array([0, 1, 2, 0, 1, 2, 0, 0])
    state = _train_state(Classifier(), x, optax.adam(1e-2))
    step = jax.jit(functools.partial(_balanced_step, fixed_classes=fixed_classes))
    return step(state, x, labels).step


def case_unique_counts_in_a_jitted_train_state_step():
    return _balanced(False)


def case_ok_bincount_with_length_in_a_jitted_train_state_step():
    return _balanced(True)


# framework shape (not a thread)
# A factory builds a noisy layer class whose key field is annotated with jax.random.KeyArray,
# the type older tutorials used; JAX removed it, so the class statement fails.
def make_noisy_layer(old_annotation):
    if old_annotation:
        class NoisyLayer(nn.Module):
            noise_key: jax.random.KeyArray  # reported: JNP504

            @nn.compact
            def __call__(self, x):
                return nn.Dense(2)(x + 0.01 * jax.random.normal(self.noise_key, x.shape))
    else:
        class NoisyLayer(nn.Module):
            noise_key: jax.Array

            @nn.compact
            def __call__(self, x):
                return nn.Dense(2)(x + 0.01 * jax.random.normal(self.noise_key, x.shape))
    return NoisyLayer


def _noisy(old_annotation):
    x, _ = _data()
    layer = make_noisy_layer(old_annotation)(jax.random.PRNGKey(1))
    return layer.init(jax.random.PRNGKey(0), x)


def case_key_array_annotation_in_a_module_factory():
    return _noisy(True)


def case_ok_jax_array_annotation_in_a_module_factory():
    return _noisy(False)


# framework shape (not a thread)
# A regularised Module is initialised with a key and then run in training mode with the same key
# as its dropout stream, so the dropout mask is drawn from the bits that made the parameters.
class DropoutHead(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        h = nn.Dropout(0.5, deterministic=not train)(nn.Dense(8)(x))
        return nn.Dense(1)(h)


def case_one_key_for_init_and_dropout():
    x, _ = _data()
    key = jax.random.PRNGKey(0)
    model = DropoutHead()
    variables = model.init(key, x, train=False)
    return model.apply(variables, x, train=True, rngs={"dropout": key})  # reported: JNP601


def case_ok_split_keys_for_init_and_dropout():
    x, _ = _data()
    init_key, dropout_key = jax.random.split(jax.random.PRNGKey(0))
    model = DropoutHead()
    variables = model.init(init_key, x, train=False)
    return model.apply(variables, x, train=True, rngs={"dropout": dropout_key})


# framework shape (not a thread)
# The training loop with an optax chain (clipping, then Adam) reports every epoch's loss with an
# f-string print; formatting the device scalar waits for the step each epoch.
@jax.jit
def _mse_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def _chain_state():
    x, _ = _data()
    return _train_state(Classifier(), x, optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-2)))


def case_printed_loss_every_epoch():
    state, (x, y) = _chain_state(), _data()
    for epoch in range(3):
        state, loss = _mse_step(state, x, jnp.broadcast_to(y, (8, 3)))
        print(f"epoch {epoch}: loss {loss:.4f}")  # reported: JNP103
    return state


def case_ok_losses_printed_after_the_loop():
    state, (x, y) = _chain_state(), _data()
    losses = []
    for _ in range(3):
        state, loss = _mse_step(state, x, jnp.broadcast_to(y, (8, 3)))
        losses.append(loss)
    print("losses:", jnp.stack(losses))
    return state


# framework shape (not a thread)
# A Flatten layer written from NumPy code passes newshape= to jnp.reshape; JAX's reshape takes
# the shape as `shape`, so the keyword is refused.
class FlattenHead(nn.Module):
    numpy_keyword: bool

    @nn.compact
    def __call__(self, x):
        if self.numpy_keyword:
            x = jnp.reshape(x, newshape=(x.shape[0], -1))  # reported: JNP503
        else:
            x = x.reshape((x.shape[0], -1))
        return nn.Dense(1)(x)


def _flatten(numpy_keyword):
    images = jnp.ones((2, 4, 4))
    return FlattenHead(numpy_keyword).init(jax.random.PRNGKey(0), images)


def case_reshape_with_numpy_newshape_keyword():
    return _flatten(True)


def case_ok_method_reshape():
    return _flatten(False)


# framework shape (not a thread)
# A synthetic regression set is drawn with NumPy's default float64 and handed straight to the
# jitted TrainState step, which narrows it to float32 on every call.
def _host_set(float32):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 4))
    if float32:
        x = x.astype(np.float32)
    return x, np.ones((8, 3), dtype=np.float32)


def case_float64_host_set_fed_to_the_jitted_step():
    state = _chain_state()
    x, y = _host_set(False)
    state, loss = _mse_step(state, x, y)  # reported: JNP403
    return loss


def case_ok_float32_host_set_fed_to_the_jitted_step():
    state = _chain_state()
    x, y = _host_set(True)
    state, loss = _mse_step(state, x, y)
    return loss


# framework shape (not a thread)
# A point-cloud layer feeds unit direction vectors to its Dense layer and is explained with a
# saliency map (the gradient with respect to its input); the rows are divided by their length where
# it is positive, but the division still runs at the origin, so its gradient is nan.
class DirectionFeatures(nn.Module):
    guard_input: bool

    @nn.compact
    def __call__(self, points):
        squared = jnp.sum(points ** 2, axis=-1, keepdims=True)
        if self.guard_input:
            safe = jnp.where(squared > 0, squared, 1.0)
            directions = jnp.where(squared > 0, points / jnp.sqrt(safe), 0.0)
        else:
            directions = jnp.where(squared > 0, points / jnp.sqrt(squared), 0.0)  # reported: JNP604
        return nn.Dense(1)(directions)


def _direction_grads(guard_input):
    points = jnp.array([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0]])
    model = DirectionFeatures(guard_input)
    variables = model.init(jax.random.PRNGKey(0), points)
    return jax.grad(lambda p: jnp.sum(model.apply(variables, p)))(points)


def case_division_by_a_zero_norm_under_grad():
    return bool(jnp.isnan(_direction_grads(False)).any())


def case_ok_guarded_norm_under_grad():
    return bool(jnp.isnan(_direction_grads(True)).any())
