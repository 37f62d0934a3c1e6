"""Log densities looked up by name; the prior's scale is a module setting."""
import jax
import jax.numpy as jnp
import numpy as np

PRIOR_SCALE = 1.0


def set_prior_scale(scale):
    global PRIOR_SCALE
    PRIOR_SCALE = scale


def log_prior(theta):
    # project shape (not a thread): the prior's scale read from a module global that the tempering script rebinds
    return -0.5 * jnp.sum((theta / PRIOR_SCALE) ** 2)  # reported: JNP304


def log_prior_ok(theta, scale):
    return -0.5 * jnp.sum((theta / scale) ** 2)


def logistic_log_lik(theta, x, y):
    logits = x @ theta
    return jnp.sum(y * logits - jnp.logaddexp(0.0, logits))


def robust_log_lik(theta, x, y):
    """Labels flipped with probability 0.05, for noisy annotations."""
    logits = x @ theta
    p = jax.nn.sigmoid(logits)
    # project shape (not a thread): NumPy's log-sum-exp of two mixture terms on the traced likelihood
    return jnp.sum(np.logaddexp(np.log(0.95) + y * jnp.log(p), np.log(0.05) + (1 - y) * jnp.log(p)))  # reported: JNP201


def robust_log_lik_ok(theta, x, y):
    logits = x @ theta
    p = jax.nn.sigmoid(logits)
    return jnp.sum(jnp.logaddexp(np.log(0.95) + y * jnp.log(p), np.log(0.05) + (1 - y) * jnp.log(p)))


def log_scale_prior(tau):
    """A log-normal prior on a scale; no mass at or below zero."""
    # project shape (not a thread): the log of a negative scale on the branch where() drops, under jax.grad
    return jnp.where(tau > 0, -jnp.log(tau) - 0.5 * jnp.log(tau) ** 2, -jnp.inf)  # reported: JNP604


def log_scale_prior_ok(tau):
    safe = jnp.where(tau > 0, tau, 1.0)
    return jnp.where(tau > 0, -jnp.log(safe) - 0.5 * jnp.log(safe) ** 2, -jnp.inf)


def hierarchical_log_lik(theta, x, y, scale_prior=log_scale_prior):
    """The first coordinate scales the coefficients of the others."""
    tau, beta = theta[0], theta[1:]
    logits = x[:, 1:] @ (tau * beta)
    return scale_prior(tau) + jnp.sum(y * logits - jnp.logaddexp(0.0, logits))


LIKELIHOODS = {"logistic": logistic_log_lik, "robust": robust_log_lik, "robust_ok": robust_log_lik_ok,
               "hierarchical": hierarchical_log_lik,
               "hierarchical_ok": lambda theta, x, y: hierarchical_log_lik(theta, x, y, log_scale_prior_ok)}


def make_log_density(cfg, x, y):
    """The posterior's log density with the data bound in."""
    log_lik = LIKELIHOODS[cfg.name]

    def log_density(theta):
        return log_prior(theta) + log_lik(theta, x, y)

    return log_density


class Posterior:
    """A posterior over the data it was built with."""

    def __init__(self, cfg, x, y):
        self.log_lik, self.x, self.y = LIKELIHOODS[cfg.name], x, y

    # project shape (not a thread): a method of a plain class jitted with its self
    @jax.jit  # reported: JNP205
    def log_density(self, theta):
        return log_prior(theta) + self.log_lik(theta, self.x, self.y)


@jax.tree_util.register_pytree_node_class
class PosteriorOk:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def tree_flatten(self):
        return (self.x, self.y), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def log_density(self, theta):
        return log_prior(theta) + logistic_log_lik(theta, self.x, self.y)
