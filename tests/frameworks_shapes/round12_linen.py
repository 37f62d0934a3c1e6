"""Flax Linen code as users write it (training flags, apply methods, masked losses, shuffling, closures), held out (needs flax)."""
import jax
import jax.numpy as jnp
import numpy as np
from flax import linen as nn


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(8)(x)))


# framework shape (not a thread)
# After https://github.com/google/flax/issues/4085: the training flag reaches nn.Dropout's
# `deterministic` through a jitted loss that traces it, and `not training` needs its truth value.
class DropoutRegressor(nn.Module):
    @nn.compact
    def __call__(self, x, training):
        h = nn.relu(nn.Dense(8)(x))
        h = nn.Dropout(0.5, deterministic=not training)(h)  # reported: JNP202
        return nn.Dense(1)(h)


def _dropout_loss(params, x, y, training, key):
    pred = DropoutRegressor().apply({"params": params}, x, training, rngs={"dropout": key})
    return jnp.mean((pred - y) ** 2)


_traced_flag_loss = jax.jit(_dropout_loss)
_static_flag_loss = jax.jit(_dropout_loss, static_argnames="training")


def _dropout_params():
    return DropoutRegressor().init(jax.random.PRNGKey(0), jnp.ones((1, 3)), False)["params"]


def case_training_flag_traced_into_dropout():
    return _traced_flag_loss(_dropout_params(), jnp.ones((4, 3)), jnp.zeros((4, 1)), True, jax.random.PRNGKey(1))


def case_ok_training_flag_static_for_dropout():
    return _static_flag_loss(_dropout_params(), jnp.ones((4, 3)), jnp.zeros((4, 1)), training=True,
                             key=jax.random.PRNGKey(1))


# framework shape (not a thread)
# A single-head attention written from a NumPy reference computes its scores with np.einsum; the
# model is applied under jax.jit, where q and k are tracers.
class DotAttention(nn.Module):
    use_numpy: bool = True

    @nn.compact
    def __call__(self, x):
        q = nn.Dense(4)(x)
        k = nn.Dense(4)(x)
        if self.use_numpy:
            scores = np.einsum("qd,kd->qk", q, k)  # reported: JNP201
        else:
            scores = jnp.einsum("qd,kd->qk", q, k)
        return jax.nn.softmax(scores / 2.0) @ x


def _attend(use_numpy):
    model = DotAttention(use_numpy)
    x = jnp.arange(12.0).reshape(4, 3) / 12.0
    variables = model.init(jax.random.PRNGKey(0), x)
    return jax.jit(model.apply)(variables, x)


def case_numpy_einsum_scores_under_jitted_apply():
    return _attend(True)


def case_ok_jnp_einsum_scores_under_jitted_apply():
    return _attend(False)


# framework shape (not a thread)
# A masked-language-model loss keeps only the masked positions' losses with jnp.compress, whose
# length depends on the mask, inside the jitted step.
class TokenModel(nn.Module):
    @nn.compact
    def __call__(self, tokens):
        return nn.Dense(8)(nn.Embed(8, 4)(tokens))


def _masked_loss(params, tokens, mask, compress):
    logits = TokenModel().apply({"params": params}, tokens)
    nll = -jnp.take_along_axis(jax.nn.log_softmax(logits), tokens[:, None], axis=-1)[:, 0]
    if compress:
        return jnp.compress(mask, nll).mean()  # reported: JNP203
    return jnp.sum(jnp.where(mask, nll, 0.0)) / jnp.maximum(jnp.sum(mask), 1)


_masked_loss_jit = jax.jit(_masked_loss, static_argnames="compress")


def _masked(compress):
    tokens = jnp.arange(6) % 8
    params = TokenModel().init(jax.random.PRNGKey(0), tokens)["params"]
    mask = jnp.array([True, False, True, False, False, True])
    return _masked_loss_jit(params, tokens, mask, compress=compress)


def case_compress_masked_positions_under_jit():
    return _masked(True)


def case_ok_where_masked_positions_under_jit():
    return _masked(False)


# framework shape (not a thread)
# An evaluation loop collects the predicted classes of every batch as a Python list with
# .tolist(), which waits for the device on every batch.
class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(nn.relu(nn.Dense(8)(x)))


@jax.jit
def _predict_classes(variables, x):
    return Classifier().apply(variables, x).argmax(-1)


def _eval_batches():
    variables = Classifier().init(jax.random.PRNGKey(0), jnp.ones((1, 3)))
    return variables, [jnp.full((4, 3), float(i)) for i in range(5)]


def case_predictions_listed_every_batch():
    variables, batches = _eval_batches()
    predicted = []
    for batch in batches:
        predicted.extend(_predict_classes(variables, batch).tolist())  # reported: JNP101
    return predicted


def case_ok_predictions_listed_after_the_loop():
    variables, batches = _eval_batches()
    predicted = []
    for batch in batches:
        predicted.append(_predict_classes(variables, batch))
    return jnp.concatenate(predicted).tolist()


# framework shape (not a thread)
# An autoencoder's apply is jitted once with `method` static; the loop encodes every batch with
# a fresh lambda as the method, a new static value each time, so every batch compiles again.
class AutoEncoder(nn.Module):
    def setup(self):
        self.encoder = nn.Dense(2)
        self.decoder = nn.Dense(3)

    def __call__(self, x):
        return self.decoder(self.encoder(x))

    def encode(self, x):
        return self.encoder(x)


_autoencoder_apply = jax.jit(AutoEncoder().apply, static_argnames="method")


def _codes_setup():
    variables = AutoEncoder().init(jax.random.PRNGKey(0), jnp.ones((1, 3)))
    return variables, [jnp.full((4, 3), float(i)) for i in range(4)]


def case_fresh_lambda_method_every_batch():
    variables, batches = _codes_setup()
    codes = []
    for batch in batches:
        codes.append(_autoencoder_apply(variables, batch, method=lambda module, x: module.encode(x)))  # reported: JNP602
    return codes


def case_ok_unbound_method_every_batch():
    variables, batches = _codes_setup()
    codes = []
    for batch in batches:
        codes.append(_autoencoder_apply(variables, batch, method=AutoEncoder.encode))
    return codes


# framework shape (not a thread)
# Every epoch shuffles the training set with jax.random.permutation of the same key, so every
# epoch visits the batches in the same order.
@jax.jit
def _sgd_step(params, x, y):
    def loss_fn(params):
        return jnp.mean((Regressor().apply({"params": params}, x) - y) ** 2)
    grads = jax.grad(loss_fn)(params)
    return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)


def _shuffled_epochs(fold_epoch):
    xs, ys = jnp.arange(24.0).reshape(8, 3) / 24.0, jnp.zeros((8, 1))
    params = Regressor().init(jax.random.PRNGKey(0), xs[:1])["params"]
    key = jax.random.PRNGKey(1)
    orders = []
    for epoch in range(3):
        if fold_epoch:
            order = jax.random.permutation(jax.random.fold_in(key, epoch), 8)
        else:
            order = jax.random.permutation(key, 8)  # reported: JNP601
        for start in range(0, 8, 4):
            params = _sgd_step(params, xs[order[start:start + 4]], ys[order[start:start + 4]])
        orders.append(order)
    return bool(jnp.array_equal(orders[0], orders[1]))


def case_epochs_shuffled_with_the_same_key():
    return _shuffled_epochs(False)


def case_ok_epochs_shuffled_with_folded_keys():
    return _shuffled_epochs(True)


# framework shape (not a thread)
# A jitted predictor reads the module-level variables, which the training loop rebinds after
# each step: the predictor compiled them in as constants, so its predictions never change.
_regressor = Regressor()
VARIABLES = _regressor.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))


@jax.jit
def _predict_closed(x):
    return _regressor.apply(VARIABLES, x)  # reported: JNP304


@jax.jit
def _predict(variables, x):
    return _regressor.apply(variables, x)


def _train_global(steps):
    global VARIABLES
    for _ in range(steps):
        VARIABLES = {"params": _sgd_step(VARIABLES["params"], jnp.ones((4, 3)), jnp.ones((4, 1)))}


def case_jitted_predictor_closes_over_rebound_variables():
    first = _predict_closed(jnp.ones((1, 3)))
    _train_global(5)
    return bool(jnp.array_equal(first, _predict_closed(jnp.ones((1, 3)))))


def case_ok_jitted_predictor_takes_the_variables():
    first = _predict(VARIABLES, jnp.ones((1, 3)))
    _train_global(5)
    return bool(jnp.array_equal(first, _predict(VARIABLES, jnp.ones((1, 3)))))


# framework shape (not a thread)
# A layer asks for float64 parameters to be "more precise"; x64 is off, so the initialiser warns
# and the parameters are float32 anyway.
class PreciseHead(nn.Module):
    wide: bool = True

    @nn.compact
    def __call__(self, x):
        if self.wide:
            return nn.Dense(2, param_dtype=jnp.float64)(x)  # reported: JNP402
        return nn.Dense(2, param_dtype=jnp.float32)(x)


def case_float64_parameters_with_x64_off():
    return PreciseHead(True).init(jax.random.PRNGKey(0), jnp.ones((1, 3)))


def case_ok_float32_parameters():
    return PreciseHead(False).init(jax.random.PRNGKey(0), jnp.ones((1, 3)))

