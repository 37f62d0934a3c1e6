"""An object carried through a loop body in a tuple: the body calls a method of the tuple's item, so the
method runs while the loop traces the body (its print runs once, not on every step)."""
import equinox as eqx
import jax
import jax.numpy as jnp


class Smoother(eqx.Module):
    rate: jax.Array

    def smooth(self, x):
        print("smoothing", x)  # expect: JNP301
        return x + self.rate * (x.mean() - x)

    def smooth_logged(self, x):
        jax.debug.print("smoothing {x}", x=x)
        return x + self.rate * (x.mean() - x)


def case_print_in_a_method_of_a_carried_object():
    smoother = Smoother(jnp.array(0.5))
    return jax.lax.fori_loop(0, 3, lambda i, carry: (carry[0], carry[0].smooth(carry[1])),
                             (smoother, jnp.arange(4.0)))


def case_ok_debug_print_in_a_method_of_a_carried_object():
    smoother = Smoother(jnp.array(0.5))
    return jax.lax.fori_loop(0, 3, lambda i, carry: (carry[0], carry[0].smooth_logged(carry[1])),
                             (smoother, jnp.arange(4.0)))
