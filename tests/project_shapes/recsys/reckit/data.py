"""A synthetic implicit-feedback log in NumPy, a leave-last-out split and a batcher."""
import jax.numpy as jnp
import numpy as np


class InteractionLog:
    """Parallel NumPy arrays of (user, item, timestamp), one row per interaction."""

    def __init__(self, users, items, timestamps, n_users, n_items):
        self.users, self.items, self.timestamps = users, items, timestamps
        self.n_users, self.n_items = n_users, n_items

    def __len__(self):
        return len(self.users)

    @classmethod
    def synthetic(cls, n_users, n_items, per_user=10, seed=0):
        """Users pick items by a hidden low-rank affinity; item 0 is the padding item, never picked."""
        rng = np.random.default_rng(seed)
        U, V = rng.normal(size=(n_users, 4)), rng.normal(size=(n_items, 4))
        users, items, stamps = [], [], []
        for u in range(n_users):
            logits = V[1:] @ U[u]
            p = np.exp(logits - logits.max())
            chosen = 1 + rng.choice(n_items - 1, size=per_user, replace=False, p=p / p.sum())
            users += [u] * per_user
            items += chosen.tolist()
            stamps += sorted(rng.integers(0, 10_000, size=per_user).tolist())
        return cls(np.asarray(users, np.int32), np.asarray(items, np.int32), np.asarray(stamps, np.int64),
                   n_users, n_items)

    def popularity(self):
        return np.bincount(self.items, minlength=self.n_items).astype(np.float32)

    def split_last(self):
        """Leave-last-out: each user's latest interaction is held out."""
        order = np.lexsort((self.timestamps, self.users))
        users, items, stamps = self.users[order], self.items[order], self.timestamps[order]
        last = np.r_[users[1:] != users[:-1], True]
        train = InteractionLog(users[~last], items[~last], stamps[~last], self.n_users, self.n_items)
        return train, users[last], items[last]

    def seen(self):
        """A (n_users, n_items) boolean matrix of the items each user interacted with."""
        mask = np.zeros((self.n_users, self.n_items), bool)
        mask[self.users, self.items] = True
        mask[:, 0] = True
        return mask


def unseen_candidates(candidates, seen_items):
    """The candidates a user has not interacted with yet, as a mask."""
    # project shape (not a thread): NumPy's in1d, removed from jax.numpy
    return ~jnp.in1d(candidates, seen_items)  # reported: JNP504


def unseen_candidates_ok(candidates, seen_items):
    return ~jnp.isin(candidates, seen_items)


class Batcher:
    """Shuffled NumPy batches of (user, positive item); the last partial batch is dropped."""

    def __init__(self, log, batch_size, seed=0):
        self.log, self.batch_size = log, batch_size
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return len(self.log) // self.batch_size

    def __iter__(self):
        perm = self.rng.permutation(len(self.log))
        for start in range(0, len(self) * self.batch_size, self.batch_size):
            idx = perm[start:start + self.batch_size]
            yield {"user": self.log.users[idx], "pos": self.log.items[idx]}
