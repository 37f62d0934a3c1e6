"""Log priors on the hyperparameters, looked up by name."""
import jax.numpy as jnp
import numpy as np

GAMMA_A, GAMMA_B = 2.0, 4.0


def no_prior(params):
    return 0.0


def gamma_lengthscale(params):
    """A Gamma(2, 4) prior on each lengthscale, up to a constant."""
    ls = jnp.exp(params["log_lengthscale"])
    # project shape (not a thread): NumPy's log of the traced lengthscales inside the differentiated loss
    return jnp.sum((GAMMA_A - 1.0) * np.log(ls) - GAMMA_B * ls)  # reported: JNP201


def gamma_lengthscale_ok(params):
    ls = jnp.exp(params["log_lengthscale"])
    return jnp.sum((GAMMA_A - 1.0) * params["log_lengthscale"] - GAMMA_B * ls)


PRIORS = {"none": no_prior, "gamma": gamma_lengthscale, "gamma_ok": gamma_lengthscale_ok}
