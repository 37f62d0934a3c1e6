"""Ninth round, held out: a list the traced function closes over, updated while it is traced
(JNP303)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/4663
# A jitted function keeps a running value in a one-element list and increments it from a
# rematerialised helper; the increment happens while remat traces the helper, so the second
# call does not see the first one's update (jit(f)() gives 1.0; without jit, 2.0).
def f():
    seq = [jnp.zeros([])]

    def g():
        seq[0] += 1  # reported: JNP303
        return seq[0]

    jax.remat(g)()
    return jax.remat(g)()


def case_closed_over_list_updated_under_remat():
    return jax.jit(f)()


def f_threaded():
    def g(value):
        return value + 1

    value = jax.remat(g)(jnp.zeros([]))
    return jax.remat(g)(value)


def case_ok_value_threaded_through_remat():
    return jax.jit(f_threaded)()
