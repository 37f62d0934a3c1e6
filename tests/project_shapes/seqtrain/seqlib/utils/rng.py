"""PRNG keys: a seed to a key, a stream of fresh subkeys, noise drawn from a key."""
import jax


def make_key(seed):
    return jax.random.PRNGKey(seed)


def noise_like(key, x, scale=0.1):
    return x + scale * jax.random.normal(key, x.shape)


class KeySeq:
    """Hands out a fresh subkey on every next()."""

    def __init__(self, seed):
        self.key = make_key(seed)

    def next(self):
        self.key, sub = jax.random.split(self.key)
        return sub
