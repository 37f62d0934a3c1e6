"""Twelfth round, held out: a port of torch's F.normalize that guards the division by the norm
with jnp.where, whose gradient is still nan at a zero row (JNP604)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/3058
# Porting F.normalize, the user keeps the rows whose norm is tiny unchanged with
# where(norm > eps, x / norm, x); x / norm is still differentiated at the zero row, and 0/0 in its
# gradient makes the loss's gradient nan.
def normalize(x, axis=-1, eps=1e-12):
    norm = jnp.linalg.norm(x, axis=axis, keepdims=True)
    return jnp.where(norm > eps, x / norm, x)  # reported: JNP604


def attention_loss(q, k):
    logits = jnp.einsum("qd,kd->qk", normalize(q), normalize(k))
    return jnp.mean(jax.nn.logsumexp(logits, axis=-1))


def case_normalize_guarded_by_where():
    q = jnp.array([[1.0, 2.0], [0.0, 0.0]])
    k = jnp.array([[0.5, 0.5], [1.0, -1.0]])
    return jax.grad(attention_loss)(q, k)


def normalize_safe(x, axis=-1, eps=1e-12):
    sq = jnp.sum(x * x, axis=axis, keepdims=True)
    sq = jnp.where(sq < eps, 1.0, sq)
    return x / jnp.sqrt(sq)


def attention_loss_safe(q, k):
    logits = jnp.einsum("qd,kd->qk", normalize_safe(q), normalize_safe(k))
    return jnp.mean(jax.nn.logsumexp(logits, axis=-1))


def case_ok_normalize_with_a_safe_denominator():
    q = jnp.array([[1.0, 2.0], [0.0, 0.0]])
    k = jnp.array([[0.5, 0.5], [1.0, -1.0]])
    return jax.grad(attention_loss_safe)(q, k)
