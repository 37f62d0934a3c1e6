"""Candidate points: uniform draws in the box, draws around the incumbent, a local refinement."""
import jax
import jax.numpy as jnp
import numpy as np


def uniform(key, n, lo, hi):
    """n points uniform in the box [lo, hi] (float32 arrays of shape (dim,))."""
    return lo + (hi - lo) * jax.random.uniform(key, (n, lo.shape[0]))


def uniform_half(key, n, lo, hi):
    """Half-precision draws, to score large candidate sets cheaply."""
    u = jax.random.uniform(key, (n, lo.shape[0]), dtype=jnp.float16)
    # project shape (not a thread): half-precision draws scaled by the float32 box
    return lo + (hi - lo) * u  # reported: JNP401


def uniform_half_ok(key, n, lo, hi):
    u = jax.random.uniform(key, (n, lo.shape[0]), dtype=jnp.float16)
    return (lo + (hi - lo) * u.astype(lo.dtype)).astype(jnp.float16)


def around(key, x, n, scale=0.05):
    """n points near x, clipped to the unit cube."""
    return jnp.clip(x + scale * jax.random.normal(key, (n, x.shape[-1])), 0.0, 1.0)


def refine(score_fn, x, n_steps=4, scale=0.02):
    """Random local search from x; score_fn maps (n, dim) -> (n,)."""
    best, best_score = x, score_fn(x[None])[0]
    for _ in range(n_steps):
        # project shape (not a thread): host noise drawn while the refinement is traced, the same on every call
        prop = jnp.clip(best + scale * np.random.standard_normal(x.shape).astype(np.float32), 0.0, 1.0)  # reported: JNP305
        s = score_fn(prop[None])[0]
        best, best_score = jnp.where(s > best_score, prop, best), jnp.maximum(s, best_score)
    return best


def refine_ok(score_fn, x, key, n_steps=4, scale=0.02):
    best, best_score = x, score_fn(x[None])[0]
    for k in jax.random.split(key, n_steps):
        prop = jnp.clip(best + scale * jax.random.normal(k, x.shape), 0.0, 1.0)
        s = score_fn(prop[None])[0]
        best, best_score = jnp.where(s > best_score, prop, best), jnp.maximum(s, best_score)
    return best
