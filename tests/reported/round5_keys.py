"""Fifth round, held out: a PRNG key consumed twice (JNP601)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/14597
# A Student's t sampler splits its key into one for the normal draw and one for the gamma draw,
# then draws both from the first.
def student_t(key, df, shape):
    key_n, key_g = jax.random.split(key)
    n = jax.random.normal(key_n, shape)
    g = jax.random.gamma(key_n, df / 2.0, shape)  # reported: JNP601
    return n * jnp.sqrt(df / 2.0 / g)


def case_student_t_reuses_the_normal_key():
    return student_t(jax.random.key(0), 3.0, (1000,))


def student_t_fixed(key, df, shape):
    key_n, key_g = jax.random.split(key)
    n = jax.random.normal(key_n, shape)
    g = jax.random.gamma(key_g, df / 2.0, shape)
    return n * jnp.sqrt(df / 2.0 / g)


def case_ok_student_t_uses_both_keys():
    return student_t_fixed(jax.random.key(0), 3.0, (1000,))


# https://github.com/jax-ml/jax/issues/16845
# A hierarchical sample draws the means and then the observations around them from the same key,
# so the variance of the sum comes out doubled instead of added.
def case_two_stage_sample_with_one_key():
    key = jax.random.PRNGKey(1337)
    s1 = jax.random.multivariate_normal(key, jnp.array([0.0]), jnp.eye(1), shape=(1000,))
    s2 = jax.random.multivariate_normal(key, s1, jnp.eye(1))  # reported: JNP601
    return jnp.var(s2)


def case_ok_two_stage_sample_with_split_keys():
    key = jax.random.PRNGKey(1337)
    key_mean, key_obs = jax.random.split(key)
    s1 = jax.random.multivariate_normal(key_mean, jnp.array([0.0]), jnp.eye(1), shape=(1000,))
    s2 = jax.random.multivariate_normal(key_obs, s1, jnp.eye(1))
    return jnp.var(s2)
