"""Attack: a UTF-8 byte order mark, as Python accepts it."""
import jax


@jax.jit
def relu(x):
    if x > 0:  # JNP202, confirmed by case_relu
        return x
    return 0.0 * x


def case_relu():
    relu(1.0)
