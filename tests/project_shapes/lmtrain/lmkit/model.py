"""A small decoder-only transformer in Equinox: causal self-attention and MLP blocks, looked up by
architecture name in MODELS."""
import math

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


def sinusoid_table(seq_len, d_model):
    pos = np.arange(seq_len)[:, None]
    freq = np.exp(np.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    table = np.zeros((seq_len, d_model), dtype=np.float32)
    table[:, 0::2] = np.sin(pos * freq)
    table[:, 1::2] = np.cos(pos * freq)
    return table


def dropout(x, rate, key):
    if key is None or rate == 0.0:
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


class CausalSelfAttention(eqx.Module):
    qkv: eqx.nn.Linear
    proj: eqx.nn.Linear
    n_head: int = eqx.field(static=True)

    def __init__(self, cfg, key):
        k_qkv, k_proj = jax.random.split(key)
        self.qkv = eqx.nn.Linear(cfg.d_model, 3 * cfg.d_model, key=k_qkv)
        self.proj = eqx.nn.Linear(cfg.d_model, cfg.d_model, key=k_proj)
        self.n_head = cfg.n_head

    def heads(self, t):
        T, D = t.shape
        return t.reshape(T, self.n_head, D // self.n_head).transpose(1, 0, 2)

    def __call__(self, x):
        T, D = x.shape
        q, k, v = map(self.heads, jnp.split(jax.vmap(self.qkv)(x), 3, axis=-1))
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(D // self.n_head)
        causal = jnp.tril(jnp.ones((T, T), dtype=bool))
        weights = jax.nn.softmax(jnp.where(causal, scores, -1e9), axis=-1)
        return jax.vmap(self.proj)((weights @ v).transpose(1, 0, 2).reshape(T, D))


class Block(eqx.Module):
    ln1: eqx.nn.LayerNorm
    attn: CausalSelfAttention
    ln2: eqx.nn.LayerNorm
    fc: eqx.nn.Linear
    out: eqx.nn.Linear
    rate: float = eqx.field(static=True)

    def __init__(self, cfg, key):
        k_attn, k_fc, k_out = jax.random.split(key, 3)
        self.ln1 = eqx.nn.LayerNorm(cfg.d_model)
        self.attn = CausalSelfAttention(cfg, k_attn)
        self.ln2 = eqx.nn.LayerNorm(cfg.d_model)
        self.fc = eqx.nn.Linear(cfg.d_model, 4 * cfg.d_model, key=k_fc)
        self.out = eqx.nn.Linear(4 * cfg.d_model, cfg.d_model, key=k_out)
        self.rate = cfg.dropout

    def __call__(self, x, key=None):
        h = x + dropout(self.attn(jax.vmap(self.ln1)(x)), self.rate, key)
        m = jax.vmap(self.out)(jax.nn.gelu(jax.vmap(self.fc)(jax.vmap(self.ln2)(h))))
        # project shape (not a thread): the attention's dropout key used again for the MLP's mask
        return h + dropout(m, self.rate, key)  # reported: JNP601


class GPT(eqx.Module):
    wte: jax.Array
    pos: jax.Array
    blocks: list
    ln_f: eqx.nn.LayerNorm
    head: eqx.nn.Linear

    def __init__(self, cfg, key):
        k_wte, k_head, *k_blocks = jax.random.split(key, cfg.n_layer + 2)
        self.wte = 0.02 * jax.random.normal(k_wte, (cfg.vocab_size, cfg.d_model))
        self.pos = jnp.asarray(sinusoid_table(cfg.seq_len, cfg.d_model))
        self.blocks = [Block(cfg, k) for k in k_blocks]
        self.ln_f = eqx.nn.LayerNorm(cfg.d_model)
        self.head = eqx.nn.Linear(cfg.d_model, cfg.vocab_size, use_bias=False, key=k_head)

    def embed(self, ids):
        return self.wte[ids] + self.pos[:ids.shape[0]]

    def __call__(self, ids, key=None):
        x = self.embed(ids)
        keys = [None] * len(self.blocks) if key is None else jax.random.split(key, len(self.blocks))
        for block, block_key in zip(self.blocks, keys):
            x = block(x, block_key)
        return jax.vmap(self.head)(jax.vmap(self.ln_f)(x).astype(jnp.float32))


class CheckedGPT(GPT):
    """Refuses token ids outside the vocabulary instead of clamping them."""

    def embed(self, ids):
        # project shape (not a thread): NumPy's mode="raise" asked of jnp.take
        return jnp.take(self.wte, ids, axis=0, mode="raise") + self.pos[:ids.shape[0]]  # reported: JNP503


class HalfGPT(GPT):
    """Runs the blocks in bfloat16."""

    def embed(self, ids):
        # project shape (not a thread): bfloat16 embeddings added to the float32 position table
        return self.wte[ids].astype(jnp.bfloat16) + self.pos[:ids.shape[0]]  # reported: JNP401


class HalfGPTCast(GPT):
    def embed(self, ids):
        return (self.wte[ids] + self.pos[:ids.shape[0]]).astype(jnp.bfloat16)


class LearnedPosGPT(GPT):
    """Looks the positions up by index, the way a learned position table is read."""

    def embed(self, ids):
        # project shape (not a thread): 64-bit position ids asked of JAX without x64
        positions = jnp.arange(ids.shape[0], dtype=jnp.int64)  # reported: JNP402
        return self.wte[ids] + self.pos[positions]


MODELS = {"gpt": GPT, "checked": CheckedGPT, "bf16": HalfGPT, "bf16_cast": HalfGPTCast,
          "learned_pos": LearnedPosGPT}


def build_model(cfg, key):
    return MODELS[cfg.arch](cfg, key)


def count_params(model):
    return sum(leaf.size for leaf in jax.tree.leaves(eqx.filter(model, eqx.is_array)))
