"""Fourth round, held out: nan gradients from the branch a select discards (JNP604)."""
import jax
import jax.numpy as jnp
from jax import lax


# https://github.com/lenstronomy/JAXtronomy/issues/66
# A truncated-NFW helper picks arccosh or arccos by x < 1 with jnp.where; both branches run,
# and the one left out is nan at x, so the gradient is nan.
def nfw_f(x):
    return jnp.where(  # reported: JNP604
        x < 1,
        jnp.arccosh(1 / x) / jnp.sqrt(1 - x ** 2),
        jnp.arccos(1 / x) / jnp.sqrt(x ** 2 - 1),
    )


def case_nfw_branches_under_grad():
    return jax.grad(nfw_f)(2.0)


def nfw_f_guarded(x):
    inner = jnp.where(x < 1, x, 0.5)
    outer = jnp.where(x < 1, 2.0, x)
    return jnp.where(
        x < 1,
        jnp.arccosh(1 / inner) / jnp.sqrt(1 - inner ** 2),
        jnp.arccos(1 / outer) / jnp.sqrt(outer ** 2 - 1),
    )


def case_ok_nfw_branches_guarded():
    return jax.grad(nfw_f_guarded)(2.0)


# https://github.com/sail-sg/jax_xc/pull/28
# An exchange-correlation term masked with lax.select: the log of a zero density still has
# an infinite slope in the discarded branch.
def exchange_energy(rho):
    return lax.select(rho > 1e-10, rho * jnp.log(rho), 0.0 * rho)  # reported: JNP604


def case_lax_select_masking_log_of_zero():
    return jax.grad(exchange_energy)(0.0)


def exchange_energy_cond(rho):
    return lax.cond(rho > 1e-10, lambda r: r * jnp.log(r), lambda r: 0.0 * r, rho)


def case_ok_lax_cond_masking_log_of_zero():
    return jax.grad(exchange_energy_cond)(0.0)
