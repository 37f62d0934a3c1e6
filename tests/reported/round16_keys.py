"""Sixteenth round, held out: a variational step that seeds the guide with a subkey split from the
model's seed and then seeds the model with that same seed, which the model splits again, so the
guide and the model's first site draw from one key (JNP601)."""
import jax
import jax.numpy as jnp
from jax import random


def model(rng, data):
    rng, z_key = random.split(rng)
    z = random.normal(z_key, (2,))
    return jnp.sum((data - z) ** 2)


def guide(rng, loc):
    eps = random.normal(rng, (2,))
    return loc + eps


# https://github.com/pyro-ppl/numpyro/pull/5
# The SVI step split the step's seed to get the guide's key and gave the unsplit seed to the model;
# the model splits its seed the same way, so its first sample uses the guide's key.
def svi_step(rng, loc, data):
    _, guide_rng = random.split(rng)
    z_guide = guide(guide_rng, loc)
    model_loss = model(rng, data)  # reported: JNP601
    return model_loss + jnp.sum(z_guide**2)


def case_model_seed_reused_after_guide_split():
    return svi_step(random.key(0), jnp.zeros(2), jnp.ones(2))


def svi_step_split(rng, loc, data):
    model_rng, guide_rng = random.split(rng)
    z_guide = guide(guide_rng, loc)
    model_loss = model(model_rng, data)
    return model_loss + jnp.sum(z_guide**2)


def case_ok_model_and_guide_seeds_split_apart():
    return svi_step_split(random.key(0), jnp.zeros(2), jnp.ones(2))
