"""Training and inference steps. Each factory closes over the model and the optimizer and returns
a jitted step."""
import equinox as eqx
import jax
import jax.numpy as jnp
import optax

from .data import CLASS_WEIGHTS, Batch
from .rng import next_key


def cross_entropy(logits, labels):
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels)


def _update(tx, loss_fn, params, opt_state, *data):
    loss, grads = jax.value_and_grad(loss_fn)(params, *data)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def create_train_step(model, tx):
    def loss_fn(params, x, y):
        return cross_entropy(model.apply(params, x), y).mean()

    @jax.jit
    def train_step(params, opt_state, x, y):
        return _update(tx, loss_fn, params, opt_state, x, y)

    return train_step


def create_weighted_step(model, tx, class_weights=None):
    def loss_fn(params, x, y):
        if class_weights is None:
            # project shape (not a thread): a host table of class weights indexed by traced labels
            weights = CLASS_WEIGHTS[y]  # reported: JNP201
        else:
            weights = class_weights[y]
        return (weights * cross_entropy(model.apply(params, x), y)).mean()

    @jax.jit
    def train_step(params, opt_state, x, y):
        return _update(tx, loss_fn, params, opt_state, x, y)

    return train_step


def create_batched_step(model, tx):
    def loss_fn(params, batch):
        return cross_entropy(model.apply(params, batch.x), batch.y).mean()

    @jax.jit
    def train_step(params, opt_state, x, y):
        return _update(tx, loss_fn, params, opt_state, Batch(x, y))

    return train_step


def create_augmented_step(model, tx, key=None):
    def loss_fn(params, x, y, noise_key):
        x = x + 0.01 * jax.random.normal(noise_key, x.shape)
        return cross_entropy(model.apply(params, x), y).mean()

    @jax.jit
    def train_step(params, opt_state, x, y, noise_key=None):
        if noise_key is None:
            noise_key = next_key()
        return _update(tx, loss_fn, params, opt_state, x, y, noise_key)

    return train_step


def make_predict(module):
    """Jitted inference for a Linen module: predict(params, x)."""
    return jax.jit(module.apply)


@eqx.filter_jit
def embed(model, x):
    return jax.vmap(model)(x)


def regression_loss(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def create_eqx_step(optim, clip_at=10.0):
    @eqx.filter_jit
    def step(model, opt_state, x, y):
        loss, grads = eqx.filter_value_and_grad(regression_loss)(model, x, y)
        # project shape (not a thread): a divergence guard on the traced loss
        if loss > clip_at:  # reported: JNP202
            grads = jax.tree.map(lambda g: g * 0.1, grads)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        return eqx.apply_updates(model, updates), opt_state, loss

    return step


def create_clipped_eqx_step(optim, clip_at=10.0):
    @eqx.filter_jit
    def step(model, opt_state, x, y):
        loss, grads = eqx.filter_value_and_grad(regression_loss)(model, x, y)
        scale = jnp.where(loss > clip_at, 0.1, 1.0)
        grads = jax.tree.map(lambda g: g * scale, grads)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        return eqx.apply_updates(model, updates), opt_state, loss

    return step
