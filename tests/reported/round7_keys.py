"""Seventh round, held out: one key drawn from for two variables, a key made again on every step,
and a key drawn from and then split (JNP601, JNP606)."""
import jax
import jax.numpy as jnp
import jax.random as jrandom


# https://github.com/jax-ml/jax/issues/18950
# Sampling two independent categorical variables, the user draws both from one key in a list
# comprehension (and a stacked draw from the same key again), then splits the key for the next round.
def case_two_categoricals_from_one_key():
    joint_logits = jnp.array([jnp.linspace(0.0, 1.0, 5), jnp.linspace(1.0, 0.0, 5)])
    key = jrandom.PRNGKey(0)
    e1s = []
    for _ in range(5):
        e1 = [jrandom.categorical(key, logits) for logits in joint_logits]  # reported: JNP601
        e1s.append(e1)
        key, subkey = jrandom.split(key)
    return e1s


def case_ok_two_categoricals_from_split_keys():
    joint_logits = jnp.array([jnp.linspace(0.0, 1.0, 5), jnp.linspace(1.0, 0.0, 5)])
    key = jrandom.PRNGKey(0)
    e1s = []
    for _ in range(5):
        key, key_x, key_y = jrandom.split(key, 3)
        e1 = [jrandom.categorical(k, logits) for k, logits in zip((key_x, key_y), joint_logits)]
        e1s.append(e1)
    return e1s


# https://github.com/p-doom/jasmine/pull/239
# The tokenizer masks random patches of each training batch, but makes its masking key from seed 0
# inside the method, so every step masks the same patches.
class Tokenizer:
    def __init__(self, mask_prob=0.5):
        self.mask_prob = mask_prob

    def mask_and_encode(self, patches):
        _rng_prob, _rng_mask = jax.random.split(jax.random.key(0), 2)  # reported: JNP601
        mask = jax.random.bernoulli(_rng_mask, self.mask_prob, patches.shape[:1])
        return jnp.where(mask[:, None], 0.0, patches)


def case_masking_key_made_from_seed_each_step():
    tokenizer = Tokenizer()
    params = jnp.ones((4, 3))
    dataloader = (jnp.ones((4, 3)) * step for step in range(8))
    for batch in dataloader:
        encoded = tokenizer.mask_and_encode(batch)
        params = params - 0.1 * encoded
    return params


class TokenizerKeyed:
    def __init__(self, mask_prob=0.5):
        self.mask_prob = mask_prob

    def mask_and_encode(self, patches, rng):
        mask = jax.random.bernoulli(rng, self.mask_prob, patches.shape[:1])
        return jnp.where(mask[:, None], 0.0, patches)


def case_ok_masking_key_passed_per_step():
    tokenizer = TokenizerKeyed()
    params = jnp.ones((4, 3))
    rng = jax.random.key(0)
    dataloader = (jnp.ones((4, 3)) * step for step in range(8))
    for batch in dataloader:
        rng, mask_rng = jax.random.split(rng)
        encoded = tokenizer.mask_and_encode(batch, mask_rng)
        params = params - 0.1 * encoded
    return params


# https://github.com/QuantEcon/lecture-python-programming/issues/529
# The autodiff lecture draws the regressors from a key and then splits the same key for the noise.
def case_draw_then_split_same_key():
    n = 100
    key = jax.random.PRNGKey(1)
    x = jax.random.uniform(key, (n,))
    alpha, beta, sigma = 0.5, 1.0, 0.1
    key, subkey = jax.random.split(key)  # reported: JNP606
    eps = jax.random.normal(subkey, (n,))
    return alpha * x + beta + sigma * eps


def case_ok_split_before_drawing():
    n = 100
    key = jax.random.PRNGKey(1)
    key, x_key, eps_key = jax.random.split(key, 3)
    x = jax.random.uniform(x_key, (n,))
    alpha, beta, sigma = 0.5, 1.0, 0.1
    eps = jax.random.normal(eps_key, (n,))
    return alpha * x + beta + sigma * eps
