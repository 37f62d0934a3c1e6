"""Twelfth round, held out: one key handed to a model's apply for both its 'params' and 'dropout'
streams, and a detector that keeps the key it was built with and draws its noise from it on
every call (JNP601)."""
import jax
import jax.numpy as jnp


def init_params(key, d_in, d_out):
    return {"w": jax.random.normal(key, (d_in, d_out)) * 0.1, "b": jnp.zeros(d_out)}


def model_apply(params, x, rngs, rate=0.5):
    """A dynamics model with a stochastic latent (from the 'params' stream) and dropout."""
    h = x @ params["w"] + params["b"]
    latent_noise = 0.01 * jax.random.normal(rngs["params"], h.shape)
    keep = jax.random.bernoulli(rngs["dropout"], 1.0 - rate, h.shape)
    return jnp.where(keep, (h + latent_noise) / (1.0 - rate), 0.0)


# https://github.com/p-doom/jasmine/pull/36
# The training step passed its one per-step key as both the 'params' and the 'dropout' stream of
# apply, so the latent noise and the dropout mask were drawn from the same bits.
@jax.jit
def train_step(params, batch, rng):
    def loss_fn(p):
        out = model_apply(p, batch["x"], rngs={"params": rng, "dropout": rng})  # reported: JNP601
        return jnp.mean((out - batch["y"]) ** 2)

    return jax.value_and_grad(loss_fn)(params)


def case_one_key_for_params_and_dropout():
    params = init_params(jax.random.PRNGKey(0), 3, 4)
    batch = {"x": jnp.ones((2, 3)), "y": jnp.zeros((2, 4))}
    return train_step(params, batch, jax.random.PRNGKey(1))


@jax.jit
def train_step_split(params, batch, rng):
    params_rng, dropout_rng = jax.random.split(rng)

    def loss_fn(p):
        out = model_apply(p, batch["x"], rngs={"params": params_rng, "dropout": dropout_rng})
        return jnp.mean((out - batch["y"]) ** 2)

    return jax.value_and_grad(loss_fn)(params)


def case_ok_one_key_per_stream():
    params = init_params(jax.random.PRNGKey(0), 3, 4)
    batch = {"x": jnp.ones((2, 3)), "y": jnp.zeros((2, 4))}
    return train_step_split(params, batch, jax.random.PRNGKey(1))


# https://github.com/michael-0brien/cryojax/issues/58
# The detector was given an RNG key when it was constructed and drew its shot noise from that key
# on every call: every simulated image of the pipeline gets the very same noise.
class GaussianDetector:
    def __init__(self, key, sigma=0.1):
        self.key = key
        self.sigma = sigma

    def __call__(self, image):
        return image + self.sigma * jax.random.normal(self.key, image.shape)  # reported: JNP601


def case_detector_noise_from_its_stored_key():
    detector = GaussianDetector(jax.random.PRNGKey(0))
    images = [detector(jnp.zeros((2, 2))) for _ in range(3)]
    return bool(jnp.all(images[0] == images[1]))


class KeyedGaussianDetector:
    def __init__(self, sigma=0.1):
        self.sigma = sigma

    def __call__(self, key, image):
        return image + self.sigma * jax.random.normal(key, image.shape)


def case_ok_detector_given_a_key_per_call():
    detector = KeyedGaussianDetector()
    keys = jax.random.split(jax.random.PRNGKey(0), 3)
    images = [detector(k, jnp.zeros((2, 2))) for k in keys]
    return bool(jnp.all(images[0] == images[1]))
