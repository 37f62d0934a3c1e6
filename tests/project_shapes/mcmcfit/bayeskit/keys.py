"""A stream of PRNG keys, split off one at a time."""
import jax


class KeyStream:
    def __init__(self, seed):
        self.key = jax.random.key(seed)

    def next(self):
        self.key, sub = jax.random.split(self.key)
        return sub

    def take(self, n):
        self.key, *subs = jax.random.split(self.key, n + 1)
        return subs

    def jitter(self, shape, scale):
        """Initial positions scattered around zero, the stream moved on after the draw."""
        # project shape (not a thread): a draw from the stream's key, which is then split for the next keys
        noise = scale * jax.random.normal(self.key, shape)  # reported: JNP606
        self.key, _ = jax.random.split(self.key)
        return noise

    def jitter_ok(self, shape, scale):
        return scale * jax.random.normal(self.next(), shape)
