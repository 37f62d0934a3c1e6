"""Matrix factorisation in plain JAX: user and item tables, item biases, optional cosine scores."""
import jax
import jax.numpy as jnp

from ..embeddings import init_table, lookup, normalize_rows


def identity(x):
    return x


class MatrixFactorization:
    """Binds a ModelConfig; parameters are a dict of tables passed to every method."""

    def __init__(self, cfg, normalize=normalize_rows):
        self.cfg = cfg
        self.normalize = normalize if cfg.cosine else identity
        self.score_all = jax.jit(self._score_all)

    def init(self, key):
        k_user, k_item = jax.random.split(key)
        return {"user": init_table(k_user, self.cfg.n_users, self.cfg.dim, padding=False),
                "item": init_table(k_item, self.cfg.n_items, self.cfg.dim),
                "item_bias": jnp.zeros(self.cfg.n_items)}

    def score(self, params, users, items):
        u = self.normalize(lookup(params["user"], users))
        v = self.normalize(lookup(params["item"], items))
        return jnp.sum(u * v, axis=-1) + params["item_bias"][items]

    def _score_all(self, params, users):
        u = self.normalize(params["user"][users])
        return u @ self.normalize(params["item"]).T + params["item_bias"]
