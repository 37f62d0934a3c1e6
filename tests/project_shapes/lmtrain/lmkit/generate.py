"""Sampling: a Sampler whose next-token step is jitted in __init__, a jitted sampling function,
greedy decoding, all over a fixed-size window of token ids."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


def prompt_window(prompt, seq_len):
    window = np.zeros(seq_len, dtype=np.int32)
    window[:len(prompt)] = prompt
    return jnp.asarray(window)


class Sampler:
    def __init__(self, model, seq_len, temperature=1.0, top_k=None):
        self.params, self.static = eqx.partition(model, eqx.is_inexact_array)
        self.seq_len = seq_len
        self.temperature = temperature
        self.top_k = top_k
        self._next = jax.jit(self._next_token)

    def _next_token(self, params, window, pos, key):
        logits = eqx.combine(params, self.static)(window)[pos]
        if self.top_k:
            kth = jax.lax.top_k(logits, self.top_k)[0][-1]
            logits = jnp.where(logits < kth, -jnp.inf, logits)
        return jax.random.categorical(key, logits / self.temperature)

    def generate(self, prompt, n_new, key):
        window, pos, out = prompt_window(prompt, self.seq_len), len(prompt) - 1, []
        for _ in range(min(n_new, self.seq_len - len(prompt))):
            key, sub = jax.random.split(key)
            token = self._next(self.params, window, pos, sub)
            window, pos = window.at[pos + 1].set(token), pos + 1
            out.append(token)
        return np.asarray(jnp.stack(out))


def make_sample_fn(static):
    @jax.jit
    def sample_token(params, window, pos, key, temperature):
        logits = eqx.combine(params, static)(window)[pos]
        # project shape (not a thread): greedy decoding chosen by comparing the traced temperature
        if temperature == 0.0:  # reported: JNP202
            return jnp.argmax(logits)
        return jax.random.categorical(key, logits / temperature)

    return sample_token


def make_sample_fn_ok(static):
    @jax.jit
    def sample_token(params, window, pos, key, temperature):
        logits = eqx.combine(params, static)(window)[pos]
        sampled = jax.random.categorical(key, logits / jnp.maximum(temperature, 1e-6))
        return jnp.where(temperature == 0.0, jnp.argmax(logits), sampled)

    return sample_token


def greedy(model, prompt, n_new, seq_len):
    window = prompt_window(prompt, seq_len)
    for i in range(len(prompt) - 1, min(len(prompt) - 1 + n_new, seq_len - 1)):
        next_token = jnp.argmax(model(window)[i])
        # project shape (not a thread): a NumPy-style write into the device window
        window[i + 1] = next_token  # reported: JNP501
    return window


def greedy_ok(model, prompt, n_new, seq_len):
    window = prompt_window(prompt, seq_len)
    for i in range(len(prompt) - 1, min(len(prompt) - 1 + n_new, seq_len - 1)):
        window = window.at[i + 1].set(jnp.argmax(model(window)[i]))
    return window
