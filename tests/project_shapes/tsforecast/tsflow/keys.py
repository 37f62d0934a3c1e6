"""A stream of PRNG keys, so that call sites need not thread a key through."""
import jax


class KeyStream:
    def __init__(self, seed=0):
        self.key = jax.random.key(seed)

    def __call__(self):
        # project shape (not a thread): the stream is advanced inside augment.jitter, which is
        # jitted: the split runs once, at trace time, and stores a tracer on the stream
        self.key, sub = jax.random.split(self.key)  # reported: JNP303
        return sub

    def take(self, count):
        return [self() for _ in range(count)]
