"""Thirteenth round, held out: jax.debug.print given an f-string inside a jitted training step, so
the message is formatted once, while tracing, and every step prints the tracer instead of the loss
(JNP301)."""
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


# https://github.com/jax-ml/jax/pull/11770
# The f-string is evaluated when the step is traced: every later call prints the same
# "Traced<...>" text (the PR makes the keyword form raise when its arguments go unused).
@jax.jit
def train_step(w, x, y):
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
    jax.debug.print(f"loss: {loss}")  # reported: JNP301
    return w - 0.1 * grad


def case_debug_print_of_an_f_string():
    w = jnp.zeros(3)
    x, y = jnp.ones((4, 3)), jnp.ones(4)
    for _ in range(3):
        w = train_step(w, x, y)
    return w


@jax.jit
def train_step_format(w, x, y):
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
    jax.debug.print("loss: {loss}", loss=loss)
    return w - 0.1 * grad


def case_ok_debug_print_with_a_format_field():
    w = jnp.zeros(3)
    x, y = jnp.ones((4, 3)), jnp.ones(4)
    for _ in range(3):
        w = train_step_format(w, x, y)
    return w
