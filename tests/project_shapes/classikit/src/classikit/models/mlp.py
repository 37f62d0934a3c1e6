"""A two-layer classifier in plain JAX; only training/ drives it, under jit."""
import jax
import jax.numpy as jnp
import numpy as np

from ..config import ModelConfig


def init(key, cfg: ModelConfig):
    k1, k2 = jax.random.split(key)
    w1 = jax.random.normal(k1, (cfg.features, cfg.hidden)) * 0.1
    w2 = jax.random.normal(k2, (cfg.hidden, cfg.classes)) * 0.1
    # project shape (not a thread): the dtype comes from the config dataclass, float64 in WideModelConfig
    b2 = jnp.zeros(cfg.classes, dtype=cfg.dtype)  # reported: JNP402
    return {"w1": w1, "b1": jnp.zeros(cfg.hidden), "w2": w2, "b2": b2}


def apply(params, x):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def dropout(key, x, rate=0.1):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def apply_checked(params, x):
    # project shape (not a thread): a NaN guard written for eager use, reached from a step the factory jits
    if jnp.isnan(x).any():  # reported: JNP202
        raise ValueError("NaN in the inputs")
    return apply(params, x)


def apply_checked_ok(params, x):
    return apply(params, jnp.nan_to_num(x))


def apply_numpy_act(params, x):
    # project shape (not a thread): a NumPy activation, run only under the factory's jit
    h = np.tanh(x @ params["w1"] + params["b1"])  # reported: JNP201
    return h @ params["w2"] + params["b2"]


def apply_debug(params, x):
    logits = apply(params, x)
    # project shape (not a thread): a debug print in a forward pass that evaluate.py jits
    print("logits", logits)  # reported: JNP301
    return logits


def apply_half(params, x):
    h = jnp.tanh(x.astype(jnp.bfloat16) @ params["w1"].astype(jnp.bfloat16))
    # project shape (not a thread): bfloat16 activations meet the float32 bias made by init()
    return h @ params["w2"].astype(jnp.bfloat16) + params["b2"]  # reported: JNP401


def apply_half_ok(params, x):
    h = jnp.tanh(x.astype(jnp.bfloat16) @ params["w1"].astype(jnp.bfloat16))
    return h @ params["w2"].astype(jnp.bfloat16) + params["b2"].astype(jnp.bfloat16)


def active_units(params, x):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    # project shape (not a thread): a boolean mask whose size depends on the data, under jit
    return h[h > 0].size  # reported: JNP203


def active_units_ok(params, x):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    return jnp.sum(h > 0)
