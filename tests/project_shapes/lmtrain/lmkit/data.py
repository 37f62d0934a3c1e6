"""Token data: a flat uint16 token file read through np.memmap, random windows for training and
fixed, padded windows for evaluation."""
import os
import tempfile

import numpy as np

PAD_ID = 0


def write_corpus(n_tokens, vocab_size, seed=0, path=None):
    """A toy corpus of short arithmetic runs (a model can learn them), written as uint16."""
    rng = np.random.default_rng(seed)
    starts = rng.integers(1, vocab_size, size=n_tokens // 8 + 1)
    strides = rng.integers(1, 4, size=starts.shape)
    runs = (starts[:, None] + strides[:, None] * np.arange(8)) % (vocab_size - 1) + 1
    if path is None:
        fd, path = tempfile.mkstemp(suffix=".bin", prefix="lmkit-")
        os.close(fd)
    tokens = np.memmap(path, dtype=np.uint16, mode="w+", shape=(n_tokens,))
    tokens[:] = runs.reshape(-1)[:n_tokens]
    tokens.flush()
    return path


class TokenDataset:
    def __init__(self, path, seq_len):
        self.tokens = np.memmap(path, dtype=np.uint16, mode="r")
        self.seq_len = seq_len

    def __len__(self):
        return (len(self.tokens) - 1) // self.seq_len

    def window(self, start):
        chunk = np.asarray(self.tokens[start:start + self.seq_len + 1], dtype=np.int32)
        return chunk[:-1], chunk[1:]

    def get_batch(self, rng, batch_size):
        starts = rng.integers(0, len(self.tokens) - self.seq_len - 1, size=batch_size)
        xs, ys = zip(*(self.window(s) for s in starts))
        return np.stack(xs), np.stack(ys)

    def eval_batches(self, batch_size, n_batches):
        """Consecutive windows; the last batch is filled with padding rows to keep one shape."""
        n_windows = min(len(self), batch_size * n_batches) - batch_size // 2
        for first in range(0, n_windows, batch_size):
            rows = [self.window(s * self.seq_len) for s in range(first, min(first + batch_size, n_windows))]
            x = np.full((batch_size, self.seq_len), PAD_ID, dtype=np.int32)
            y = np.full((batch_size, self.seq_len), PAD_ID, dtype=np.int32)
            for i, (xi, yi) in enumerate(rows):
                x[i], y[i] = xi, yi
            yield x, y


def split_corpus(path, seq_len, valid_fraction=0.1):
    tokens = np.memmap(path, dtype=np.uint16, mode="r")
    cut = int(len(tokens) * (1 - valid_fraction))
    fd, valid_path = tempfile.mkstemp(suffix=".bin", prefix="lmkit-valid-")
    os.close(fd)
    valid = np.memmap(valid_path, dtype=np.uint16, mode="w+", shape=(len(tokens) - cut,))
    valid[:] = tokens[cut:]
    valid.flush()
    return TokenDataset(path, seq_len), TokenDataset(valid_path, seq_len)
