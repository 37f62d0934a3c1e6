"""Runtime-confirmation inputs: one finding a case confirms, one that no case reaches."""
import jax
import jax.numpy as jnp


@jax.jit
def relu(x):
    if x > 0:  # JNP202, confirmed by case_relu
        return x
    return 0.0 * x


@jax.jit
def never_called(x):
    return float(x)  # JNP202, but no case calls this function


def case_relu():
    relu(1.0)


def case_ok_branch_free():
    jax.jit(lambda x: jnp.where(x > 0, x, 0.0))(1.0)
