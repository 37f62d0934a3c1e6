"""Attack: pitfalls in a module with no case of its own, reached from cross_train.py."""
import jax
import jax.numpy as jnp


@jax.jit
def update(w, x):
    print("tracing update", x)  # JNP301, confirmed by cross_train.py's case
    return w - 0.1 * x


def report(steps):
    total = jnp.zeros(())
    for step in range(steps):
        total = total + step
        print(f"{total}")  # JNP103, confirmed by cross_train.py's case


def make():
    return jnp.ones(3)
