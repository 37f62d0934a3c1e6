"""A two-tower retrieval model in Flax Linen, wrapped to the MatrixFactorization interface."""
import flax.linen as nn
import jax
import jax.numpy as jnp


class Tower(nn.Module):
    n: int
    dim: int
    hidden: tuple = (32,)

    @nn.compact
    def __call__(self, ids):
        x = nn.Embed(self.n, self.dim)(ids)
        for width in self.hidden:
            x = nn.relu(nn.Dense(width)(x))
        return nn.Dense(self.dim)(x)


class TwoTowerNet(nn.Module):
    n_users: int
    n_items: int
    dim: int
    hidden: tuple = (32,)
    debug: bool = False

    def setup(self):
        self.user_tower = Tower(self.n_users, self.dim, self.hidden)
        self.item_tower = Tower(self.n_items, self.dim, self.hidden)

    def __call__(self, users, items):
        u, v = self.user_tower(users), self.item_tower(items)
        if self.debug:
            # project shape (not a thread): the towers' norms printed from inside the traced apply
            print("user norm", jnp.linalg.norm(u), "item norm", jnp.linalg.norm(v))  # reported: JNP301
        return jnp.sum(u * v, axis=-1)

    def score_all(self, users):
        return self.user_tower(users) @ self.item_tower(jnp.arange(self.n_items)).T


class TwoTowerNetOk(TwoTowerNet):
    def __call__(self, users, items):
        u, v = self.user_tower(users), self.item_tower(items)
        if self.debug:
            jax.debug.print("user norm {} item norm {}", jnp.linalg.norm(u), jnp.linalg.norm(v))
        return jnp.sum(u * v, axis=-1)


class TwoTower:
    """init(key), score(params, users, items), score_all(params, users), as MatrixFactorization."""

    def __init__(self, cfg, debug=False, net_cls=TwoTowerNet):
        self.cfg = cfg
        self.net = net_cls(cfg.n_users, cfg.n_items, cfg.dim, cfg.hidden, debug)
        self.score_all = jax.jit(self._score_all)

    def init(self, key):
        ids = jnp.zeros((1,), jnp.int32)
        return self.net.init(key, ids, ids)

    def score(self, params, users, items):
        return self.net.apply(params, users, items)

    def _score_all(self, params, users):
        return self.net.apply(params, users, method=TwoTowerNet.score_all)
