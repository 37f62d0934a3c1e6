"""What reusing a PRNG key does on the installed JAX, for JNP601's messages and JNP606's default.

    python tests/benchmarks/key_streams.py [SAMPLES] [KEYS]

(i) the same key given to the same sampler twice; (ii) a draw from a key against draws from
the subkeys split() makes of it, and against draws from unrelated keys (the noise floor);
(iii) split(key, n) against split(key, m); (iv) one key given to two different samplers; (v) the
shape of equinox's frozen_layer.py dataloader: permutation(key, 10,000 indices), then (key,) =
split(key, 1) for the next epoch (permutation splits its key inside, so the epochs share a round).
"""
import sys

import jax
import numpy as np
from jax import random


def correlation(a, b):
    return float(np.corrcoef(np.asarray(a).ravel(), np.asarray(b).ravel())[0, 1])


def main(samples=200_000, keys=20):
    """Print each measurement; every reuse below is on purpose."""
    print(f"jax {jax.__version__}, {jax.config.jax_default_prng_impl}, "
          f"threefry_partitionable={jax.config.jax_threefry_partitionable}, {samples} samples, {keys} keys")
    key = random.key(0)
    first = random.normal(key, (samples,))
    again = random.normal(key, (samples,))  # noqa: JNP601
    longer = random.normal(key, (samples + 1,))  # noqa: JNP601
    print("(i) normal(key) twice identical:", bool((first == again).all()),
          "| normal(key, (n,)) == normal(key, (n + 1,))[:n]:", bool((first == longer[:samples]).all()))
    split_r, unrelated_r = [], []
    for seed in range(keys):
        key = random.key(seed)
        drawn = random.normal(key, (samples,))
        subkeys = random.split(key)  # noqa: JNP601
        split_r += [correlation(drawn, random.normal(sub, (samples,))) for sub in subkeys]
        unrelated_r.append(correlation(drawn, random.normal(random.key(seed + keys), (samples,))))
    bits = np.asarray(random.bits(key, (samples,)))  # noqa: JNP601
    words = np.asarray(random.key_data(random.split(key, samples)))  # noqa: JNP601
    print(f"(ii) draw vs draws from its split: mean |r| {np.mean(np.abs(split_r)):.5f}, max |r| "
          f"{np.max(np.abs(split_r)):.5f}; unrelated keys: mean |r| {np.mean(np.abs(unrelated_r)):.5f}, max |r| "
          f"{np.max(np.abs(unrelated_r)):.5f}; 1/sqrt(samples) {samples ** -0.5:.5f}; bits(key)[i] == XOR of "
          "split(key)[i]'s words:", bool((bits == words[:, 0] ^ words[:, 1]).all()))
    for n, m in ((2, 3), (5, 65), (64, 65)):
        short = np.asarray(random.key_data(random.split(key, n)))  # noqa: JNP601
        long = np.asarray(random.key_data(random.split(key, m)))  # noqa: JNP601
        print(f"(iii) split(key, {n}) == split(key, {m})[:{n}]:", bool((short == long[:n]).all()))
    normal = random.normal(key, (samples,))  # noqa: JNP601
    uniform = random.uniform(key, (samples,))  # noqa: JNP601
    mask = random.bernoulli(key, 0.3, (samples,))  # noqa: JNP601
    print(f"(iv) normal(key) vs uniform(key): r {correlation(normal, uniform):.4f}; "
          "bernoulli(key, 0.3) == (uniform(key) < 0.3):", bool((mask == (uniform < 0.3)).all()))
    epochs = []
    for seed in range(keys):
        key = random.key(seed)
        first = random.permutation(key, 10_000)
        (key,) = random.split(key, 1)  # noqa: JNP601
        epochs.append((first, random.permutation(key, 10_000)))
    epochs_r = [correlation(first, second) for first, second in epochs]
    fixed = [int((first == second).sum()) for first, second in epochs]
    print(f"(v) permutation, split(key, 1), permutation: mean |r| {np.mean(np.abs(epochs_r)):.4f}, max |r| "
          f"{np.max(np.abs(epochs_r)):.4f} (1/sqrt(10,000) 0.0100); positions kept: mean {np.mean(fixed):.2f} "
          "(1 for independent permutations)")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
