"""A stream of PRNG keys for the training loop."""
import jax


class KeyStream:
    def __init__(self, seed):
        self.key = jax.random.key(seed)

    def next(self):
        self.key, sub = jax.random.split(self.key)
        return sub

    def fork(self, n):
        """n keys for the next n steps."""
        # project shape (not a thread): the stream's key split again on every call, never replaced
        return jax.random.split(self.key, n)  # reported: JNP601

    def fork_ok(self, n):
        self.key, *subs = jax.random.split(self.key, n + 1)
        return subs
