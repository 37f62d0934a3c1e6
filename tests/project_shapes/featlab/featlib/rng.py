"""A module-level key stream, so that scripts need not thread keys by hand."""
import jax

_KEY = jax.random.key(0)


def reseed(seed):
    global _KEY
    _KEY = jax.random.key(seed)


def next_key():
    """A fresh subkey; the stream advances on every call."""
    global _KEY
    # project shape (not a thread): the stream advanced by a function that a jitted step calls
    _KEY, sub = jax.random.split(_KEY)  # reported: JNP302
    return sub
