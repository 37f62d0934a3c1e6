"""Next-token objectives, looked up by name in LOSSES; the z-loss coefficient is set by a sweep."""
import jax
import jax.numpy as jnp

from .data import PAD_ID

Z_LOSS = 1e-4


def set_z_loss(coef):
    global Z_LOSS
    Z_LOSS = coef


def logits_of(model, x, key=None):
    if key is None:
        return jax.vmap(model)(x)
    return jax.vmap(model)(x, jax.random.split(key, x.shape[0]))


def token_nll(logits, y):
    logp = jax.nn.log_softmax(logits.astype(jnp.float32), axis=-1)
    return -jnp.take_along_axis(logp, y[..., None], axis=-1)[..., 0]


def token_mean(model, x, y, key=None):
    nll = token_nll(logits_of(model, x, key), y)
    weights = (y != PAD_ID).astype(nll.dtype)
    return jnp.sum(nll * weights) / jnp.maximum(jnp.sum(weights), 1.0)


def token_mean_indexed(model, x, y, key=None):
    nll = token_nll(logits_of(model, x, key), y)
    # project shape (not a thread): the tokens that are not padding picked by a boolean mask
    return nll[y != PAD_ID].mean()  # reported: JNP203


def sequence_mean(model, x, y, key=None):
    nll = token_nll(logits_of(model, x, key), y)
    lengths = jnp.sum(y != PAD_ID, axis=-1)
    # project shape (not a thread): each sequence's mean, where a padding row has length zero
    per_seq = jnp.where(lengths > 0, jnp.sum(nll * (y != PAD_ID), axis=-1) / lengths, 0.0)  # reported: JNP604
    return jnp.mean(per_seq)


def sequence_mean_safe(model, x, y, key=None):
    nll = token_nll(logits_of(model, x, key), y)
    lengths = jnp.sum(y != PAD_ID, axis=-1)
    safe = jnp.where(lengths > 0, lengths, 1)
    return jnp.mean(jnp.where(lengths > 0, jnp.sum(nll * (y != PAD_ID), axis=-1) / safe, 0.0))


def token_mean_z(model, x, y, key=None):
    logits = logits_of(model, x, key)
    nll = token_nll(logits, y)
    z = jax.nn.logsumexp(logits, axis=-1)
    weights = (y != PAD_ID).astype(nll.dtype)
    # project shape (not a thread): the swept z-loss coefficient, read when the step is traced
    return jnp.sum((nll + Z_LOSS * z ** 2) * weights) / jnp.maximum(jnp.sum(weights), 1.0)  # reported: JNP304


LOSSES = {"token_mean": token_mean, "token_mean_indexed": token_mean_indexed, "sequence_mean": sequence_mean,
          "sequence_mean_safe": sequence_mean_safe, "token_mean_z": token_mean_z}
