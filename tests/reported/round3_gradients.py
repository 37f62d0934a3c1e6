"""Third round, held out: nan gradients through jnp.where (JNP604), and one no rule covers."""
import jax
import jax.numpy as jnp
from jax import grad


# https://github.com/keras-team/keras/pull/20110
# divide_no_nan written as a where around the division: its gradient at a zero divisor is nan.
def divide_no_nan(x1, x2):
    return jnp.where(x2 == 0, 0, jnp.divide(x1, x2))  # reported: JNP604


def case_divide_no_nan_gradient():
    return jax.grad(divide_no_nan)(jnp.float32(1.0), jnp.float32(0.0))


def divide_no_nan_safe(x1, x2):
    safe_x2 = jnp.where(x2 == 0, 1, x2)
    return jnp.where(x2 == 0, 0, jnp.divide(x1, safe_x2))


def case_ok_divide_no_nan_double_where():
    return jax.grad(divide_no_nan_safe)(jnp.float32(1.0), jnp.float32(0.0))


# https://github.com/jax-ml/jax/pull/1722
# sinc defined with a where at zero: the dropped sin(x)/x still divides by zero.
def sinc(x):
    eq_zero = x == 0
    return jnp.where(eq_zero, 1.0, jnp.sin(jnp.pi * x) / (jnp.pi * x))  # reported: JNP604


def case_sinc_gradient_at_zero():
    return grad(sinc)(0.0)


def sinc_safe(x):
    eq_zero = x == 0
    safe_x = jnp.where(eq_zero, 1.0, x)
    return jnp.where(eq_zero, 1.0, jnp.sin(jnp.pi * safe_x) / (jnp.pi * safe_x))


def case_ok_sinc_double_where():
    return grad(sinc_safe)(0.0)


# https://github.com/jax-ml/jax/pull/1538
# elu as a where: expm1 of a large positive input overflows in the branch that is dropped.
def elu(x, alpha=1.0):
    return jnp.where(x > 0, x, alpha * jnp.expm1(x))  # reported: JNP604


def case_elu_gradient_for_large_input():
    return grad(elu)(100.0)


def elu_safe(x, alpha=1.0):
    safe_x = jnp.where(x > 0, 0.0, x)
    return jnp.where(x > 0, x, alpha * jnp.expm1(safe_x))


def case_ok_elu_double_where():
    return grad(elu_safe)(100.0)


# https://github.com/jax-ml/jax/issues/4177
# The squared 2-norm through jnp.linalg.norm: its gradient at the zero vector is nan.
def squared_2_norm(x):
    return jnp.linalg.norm(x) ** 2  # reported: none


def case_squared_norm_gradient_at_zero():
    return grad(squared_2_norm)(jnp.zeros(2))


def sum_of_squares(x):
    return jnp.sum(x ** 2)


def case_ok_sum_of_squares_gradient():
    return grad(sum_of_squares)(jnp.zeros(2))
