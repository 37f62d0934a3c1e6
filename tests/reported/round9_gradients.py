"""Ninth round, held out: an entropy whose masked terms are dropped by a reduction's where=, and a
squared norm differentiated at zero (JNP604; one no rule covers)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/17070
# An attention entropy: a masked softmax, renormalised, then -sum(p * log2(p)) over the kept
# entries with jnp.sum(..., where=where). The masked entries are 0, so log2 is -inf there; the sum
# drops them, but grad still differentiates p * log2(p) at p = 0 and every gradient becomes nan.
def main_fn(logits, where, curse):
    attn = jax.nn.softmax(logits, axis=0, where=where)
    if curse:
        attn = attn * jnp.sum(attn) ** -1
    return jnp.sum(attn * -jnp.log2(attn), where=where, initial=1.0)  # reported: JNP604


def case_entropy_of_renormalised_masked_softmax():
    logits = jnp.array([1.0, 2.0, 3.0, 4.0])
    where = jnp.array([True, True, False, True])
    return jax.grad(main_fn)(logits, where, True)


def main_fn_guarded(logits, where, curse):
    attn = jax.nn.softmax(logits, axis=0, where=where)
    if curse:
        attn = attn * jnp.sum(attn) ** -1
    safe = jnp.where(where, attn, 1.0)
    return jnp.sum(safe * -jnp.log2(safe), where=where, initial=1.0)


def case_ok_entropy_of_guarded_probabilities():
    logits = jnp.array([1.0, 2.0, 3.0, 4.0])
    where = jnp.array([True, True, False, True])
    return jax.grad(main_fn_guarded)(logits, where, True)


# https://github.com/jax-ml/jax/issues/21723
# The squared norm is written as norm(x) ** 2; its gradient at 0 is 0, but jax.grad goes through
# the norm's square root, whose derivative at 0 is infinite, and returns nan.
def case_gradient_of_squared_norm_at_zero():
    f = lambda x: jnp.linalg.norm(x) ** 2  # reported: none
    return jax.grad(f)(0.)


def case_ok_gradient_of_sum_of_squares_at_zero():
    f = lambda x: jnp.sum(x ** 2)
    return jax.grad(f)(0.)
