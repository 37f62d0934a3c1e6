"""Embedding tables: initialisation with a zero padding row, lookups, row normalisation, sparse updates."""
import jax
import jax.numpy as jnp


def init_table(key, n, dim, scale=0.1, padding=True):
    table = scale * jax.random.normal(key, (n, dim))
    return table.at[0].set(0.0) if padding else table


def lookup(table, ids):
    return jnp.take(table, ids, axis=0)


def lookup_checked(table, ids):
    """A lookup that fails on an out-of-range id, as NumPy indexing does."""
    # project shape (not a thread): NumPy's mode="raise" asked of jnp.take
    return jnp.take(table, ids, axis=0, mode="raise")  # reported: JNP503


def lookup_checked_ok(table, ids):
    return jnp.take(table, ids, axis=0, mode="fill", fill_value=jnp.nan)


def normalize_rows(x):
    sq = jnp.sum(x * x, axis=-1, keepdims=True)
    # project shape (not a thread): the padding row is zero, and the division still runs there under grad
    return jnp.where(sq > 0, x / jnp.sqrt(sq), 0.0)  # reported: JNP604


def normalize_rows_ok(x):
    sq = jnp.sum(x * x, axis=-1, keepdims=True)
    safe = jnp.where(sq > 0, sq, 1.0)
    return jnp.where(sq > 0, x / jnp.sqrt(safe), 0.0)


def sparse_sgd(table, ids, grads, lr):
    """A row-wise SGD update of the rows a batch touched, as the NumPy prototype did it."""
    # project shape (not a thread): an in-place update of the rows of a JAX table
    table[ids] -= lr * grads  # reported: JNP501
    return table


def sparse_sgd_ok(table, ids, grads, lr):
    return table.at[ids].add(-lr * grads)


def quantized_scores(user_vecs, item_vecs):
    """Scores from tables stored compactly: users in bfloat16, items in float16."""
    u = user_vecs.astype(jnp.bfloat16)
    v = item_vecs.astype(jnp.float16)
    # project shape (not a thread): bfloat16 times float16, which JAX promotes to float32
    return u @ v.T  # reported: JNP401


def quantized_scores_ok(user_vecs, item_vecs):
    return user_vecs.astype(jnp.bfloat16) @ item_vecs.astype(jnp.bfloat16).T
