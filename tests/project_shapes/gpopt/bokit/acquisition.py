"""Acquisition functions looked up by name (scores to maximise, for minimisation), and constrained choice."""
import jax
import jax.numpy as jnp
from jax.scipy.stats import norm

N_SCORED = 0


def expected_improvement(mu, var, best, xi=0.01):
    # project shape (not a thread): NumPy's keyword for the lower bound, which jnp.clip no longer takes
    sigma = jnp.clip(jnp.sqrt(var), a_min=1e-9)  # reported: JNP503
    z = (best - mu - xi) / sigma
    return (best - mu - xi) * norm.cdf(z) + sigma * norm.pdf(z)


def expected_improvement_ok(mu, var, best, xi=0.01):
    sigma = jnp.clip(jnp.sqrt(var), min=1e-9)
    z = (best - mu - xi) / sigma
    return (best - mu - xi) * norm.cdf(z) + sigma * norm.pdf(z)


def lower_confidence_bound(mu, var, best, beta=2.0):
    return -(mu - beta * jnp.sqrt(var))


def counted_ei(mu, var, best):
    """EI that counts the candidates scored, for the run's statistics."""
    global N_SCORED
    # project shape (not a thread): a module counter bumped from inside the traced acquisition
    N_SCORED += mu.shape[0]  # reported: JNP302
    return expected_improvement_ok(mu, var, best)


def debug_ei(mu, var, best):
    ei = expected_improvement_ok(mu, var, best)
    # project shape (not a thread): the scores printed from inside the traced acquisition
    print("acquisition", ei.max(), ei.argmax())  # reported: JNP301
    return ei


def debug_ei_ok(mu, var, best):
    ei = expected_improvement_ok(mu, var, best)
    jax.debug.print("acquisition {m} at {i}", m=ei.max(), i=ei.argmax())
    return ei


ACQUISITIONS = {"ei": expected_improvement, "ei_ok": expected_improvement_ok, "lcb": lower_confidence_bound,
                "counted_ei": counted_ei, "debug_ei": debug_ei, "debug_ei_ok": debug_ei_ok}


def disk_constraint(x):
    """Feasible where <= 0: inside the disk of radius 0.4 around the centre."""
    return jnp.sum((x - 0.5) ** 2, axis=-1) - 0.16


def best_feasible(cands, scores, constraint=disk_constraint):
    feasible = constraint(cands) <= 0
    # project shape (not a thread): the feasible candidates selected by a boolean mask inside the jitted choice
    return cands[feasible][jnp.argmax(scores[feasible])]  # reported: JNP203


def best_feasible_ok(cands, scores, constraint=disk_constraint):
    scores = jnp.where(constraint(cands) <= 0, scores, -jnp.inf)
    return cands[jnp.argmax(scores)]
