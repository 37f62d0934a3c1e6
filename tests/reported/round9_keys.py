"""Ninth round, held out: one subkey of a split handed to two priors (JNP601)."""
import jax
import jax.numpy as jnp


# https://github.com/blackjax-devs/blackjax/issues/400
# A matrix-factorisation model draws its initial values from priors with the subkeys of one
# split; the scale of the second factor is drawn with keys[6] again, the key of the first one,
# so the two scales come from the same bits.
def initial_position(rng_key):
    keys = jax.random.split(rng_key, 8)
    u = jax.random.normal(keys[0], (4, 2))
    v = jax.random.normal(keys[1], (3, 2))
    u_mean = jax.random.normal(keys[2], (2,))
    v_mean = jax.random.normal(keys[3], (2,))
    noise = jax.random.exponential(keys[4])
    rate = jax.random.exponential(keys[5])
    u_sigma = jax.random.gamma(keys[6], 2.0, (2,))
    v_sigma = jax.random.gamma(keys[6], 2.0, (2,))  # reported: JNP601
    return {"u": u, "v": v, "u_mean": u_mean, "v_mean": v_mean, "noise": noise, "rate": rate,
            "u_sigma": u_sigma, "v_sigma": v_sigma}


def case_one_subkey_for_two_priors():
    return initial_position(jax.random.PRNGKey(0))


def initial_position_distinct(rng_key):
    keys = jax.random.split(rng_key, 8)
    u_sigma = jax.random.gamma(keys[6], 2.0, (2,))
    v_sigma = jax.random.gamma(keys[7], 2.0, (2,))
    return jnp.stack([u_sigma, v_sigma])


def case_ok_one_subkey_per_prior():
    return initial_position_distinct(jax.random.PRNGKey(0))
