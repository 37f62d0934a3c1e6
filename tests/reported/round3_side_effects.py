"""Third round, held out: Python side effects in traced code (JNP301, JNP303)."""
import jax
import jax.numpy as jnp
from jax import grad, jit, random, vmap


# https://github.com/jax-ml/jax/issues/1476
# Printing a sample inside a function that vmap vectorises shows a BatchTracer.
def diag_gaussian_sample(rng, mean, log_std):
    return mean + jnp.exp(log_std) * random.normal(rng, mean.shape)


def elbo(rng, mean, log_std):
    sample = diag_gaussian_sample(rng, mean, log_std)
    print(sample)  # reported: JNP301
    return jnp.sum(sample ** 2)


def case_print_inside_vmapped_elbo():
    rngs = random.split(random.PRNGKey(0), 4)
    return jnp.mean(vmap(elbo, in_axes=(0, None, None))(rngs, jnp.zeros(2), jnp.zeros(2)))


def elbo_debug_print(rng, mean, log_std):
    sample = diag_gaussian_sample(rng, mean, log_std)
    jax.debug.print("{}", sample)
    return jnp.sum(sample ** 2)


def case_ok_debug_print_inside_vmap():
    rngs = random.split(random.PRNGKey(0), 4)
    return jnp.mean(vmap(elbo_debug_print, in_axes=(0, None, None))(rngs, jnp.zeros(2), jnp.zeros(2)))


# https://github.com/jax-ml/jax/issues/4615
# Print-debugging a value in a function whose gradient is taken: it prints a JVP tracer.
def total_energy(x):
    ret = jnp.sum(jnp.cos(x))
    print("JUtotal: ", ret)  # reported: JNP301
    return ret


def case_print_inside_differentiated_function():
    return grad(total_energy)(jnp.arange(3.0))


def total_energy_debug(x):
    ret = jnp.sum(jnp.cos(x))
    jax.debug.print("JUtotal: {}", ret)
    return ret


def case_ok_debug_print_under_grad():
    return grad(total_energy_debug)(jnp.arange(3.0))


# https://github.com/jax-ml/jax/pull/5492
# A jitted function that stashes its argument in a list outside it.
lst = []


@jit
def f_stash(x):
    lst.append(x)  # reported: JNP303
    return x


def case_append_to_outer_list_under_jit():
    f_stash(3.0)
    return f_stash(4.0)


@jit
def f_return(x):
    return x, x


def case_ok_return_the_value():
    kept = []
    for value in (3.0, 4.0):
        out, seen = f_return(value)
        kept.append(seen)
    return kept
