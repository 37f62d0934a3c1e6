"""Random-key plumbing: seeds to keys, and a stream of fresh subkeys."""
import jax


def make_key(seed):
    return jax.random.PRNGKey(seed)


def split(key, n=2):
    return jax.random.split(key, n)


class KeyStream:
    """Hands out a fresh subkey on every call."""

    def __init__(self, seed):
        self._key = jax.random.PRNGKey(seed)

    def __call__(self):
        self._key, sub = jax.random.split(self._key)
        return sub
