"""Full-catalogue evaluation: an Evaluator of named metrics, recommenders, an item-matrix cache."""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from .embeddings import normalize_rows_ok
from .metrics import METRICS

ITEM_CACHE = {}


@functools.partial(jax.jit, static_argnames="normalize")
def item_matrix(params, normalize=False):
    """The item table, normalised for cosine retrieval, kept for the serving index."""
    items = normalize_rows_ok(params["item"]) if normalize else params["item"]
    # project shape (not a thread): the jitted function fills a module cache, which keeps a tracer
    ITEM_CACHE["items"] = items  # reported: JNP303
    return items


@functools.partial(jax.jit, static_argnames="normalize")
def item_matrix_ok(params, normalize=False):
    return normalize_rows_ok(params["item"]) if normalize else params["item"]


def retrieve(users_vecs, k):
    """The top k items of each user from the cached item matrix."""
    return jax.lax.top_k(users_vecs @ ITEM_CACHE["items"].T, k)[1]


class Evaluator:
    """Scores the whole catalogue, hides each user's training items, and computes named metrics."""

    def __init__(self, model, seen, k=10, metrics=("recall", "ndcg")):
        self.model, self.k = model, k
        self.seen = jnp.asarray(seen)
        self.metric_fns = {name: METRICS[name] for name in metrics}

    @functools.partial(jax.jit, static_argnums=0)
    def evaluate_batch(self, params, users, targets):
        scores = jnp.where(self.seen[users], -jnp.inf, self.model.score_all(params, users))
        return {name: fn(scores, targets, self.k) for name, fn in self.metric_fns.items()}

    def evaluate(self, params, users, targets, batch_size=16):
        parts = [self.evaluate_batch(params, users[i:i + batch_size], targets[i:i + batch_size])
                 for i in range(0, len(users) - batch_size + 1, batch_size)]
        return {name: jnp.mean(jnp.stack([p[name] for p in parts])) for name in self.metric_fns}


class EvaluatorOk(Evaluator):
    @functools.partial(jax.jit, static_argnums=(0, 4))
    def evaluate_batch_at(self, params, users, targets, k):
        scores = jnp.where(self.seen[users], -jnp.inf, self.model.score_all(params, users))
        return {name: fn(scores, targets, k) for name, fn in self.metric_fns.items()}

    def evaluate(self, params, users, targets, batch_size=16):
        parts = [self.evaluate_batch_at(params, users[i:i + batch_size], targets[i:i + batch_size], self.k)
                 for i in range(0, len(users) - batch_size + 1, batch_size)]
        return {name: jnp.mean(jnp.stack([p[name] for p in parts])) for name in self.metric_fns}


def recommend(model, params, users, seen, k):
    """The top k unseen items of each user."""
    scores = model.score_all(params, users)
    # project shape (not a thread): the seen items masked by assignment into the JAX scores
    scores[seen[users]] = -jnp.inf  # reported: JNP501
    return jax.lax.top_k(scores, k)[1]


def recommend_ok(model, params, users, seen, k):
    scores = jnp.where(jnp.asarray(seen[users]), -jnp.inf, model.score_all(params, users))
    return jax.lax.top_k(scores, k)[1]


@functools.partial(jax.jit, static_argnames="k")
def top_items(scores, k):
    """The k best items of each row, in no particular order."""
    # project shape (not a thread): NumPy's argpartition on the traced scores
    return np.argpartition(-scores, k, axis=1)[:, :k]  # reported: JNP201


@functools.partial(jax.jit, static_argnames="k")
def top_items_ok(scores, k):
    return jax.lax.top_k(scores, k)[1]


class Recommender:
    """Serves the top k items of a batch of users from a model and the training interactions."""

    def __init__(self, model, seen, k=10):
        self.model, self.seen, self.k = model, jnp.asarray(seen), k

    # project shape (not a thread): a method jitted with self, a plain object, as its first argument
    @jax.jit  # reported: JNP205
    def recommend(self, params, users):
        scores = jnp.where(self.seen[users], -jnp.inf, self.model.score_all(params, users))
        return jax.lax.top_k(scores, self.k)[1]


class RecommenderOk(Recommender):
    @functools.partial(jax.jit, static_argnums=0)
    def recommend(self, params, users):
        scores = jnp.where(self.seen[users], -jnp.inf, self.model.score_all(params, users))
        return jax.lax.top_k(scores, self.k)[1]
