"""Tenth round, held out: clocks read before the device finished, around a sum of factors a jitted
method stored and in a timing helper handed the function to time (JNP603)."""
import time

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/issues/802
# A method computes factors with a jitted inner function and keeps them on the object; timing
# foo.factors.sum() shows a few microseconds while the value takes much longer to appear, because
# the sum returns once it is queued behind the factorisation.
class Factorisation:
    def fit(self, data):
        @jax.jit
        def g(d):
            q = d
            for _ in range(20):
                q = jnp.tanh(q @ d)
            return q

        self.factors = g(data)


def case_sum_of_stored_factors_timed_without_blocking():
    foo = Factorisation()
    foo.fit(jnp.ones((200, 200)) / 200)
    start = time.time()
    total = foo.factors.sum()
    elapsed = time.time() - start  # reported: JNP603
    return total, elapsed


def case_ok_sum_of_stored_factors_timed_until_ready():
    foo = Factorisation()
    foo.fit(jnp.ones((200, 200)) / 200)
    start = time.time()
    total = foo.factors.sum().block_until_ready()
    elapsed = time.time() - start
    return total, elapsed


# https://github.com/jax-ml/jax/issues/14185
# JAX is compared with autograd on a scalar function by a helper that times a list of gradient
# evaluations; the clock stops as soon as the last one is queued.
def eval(df, method):
    start_time = time.time()
    [df(i) for i in np.arange(0, 1, 0.01)]
    return f"{method}: {(time.time() - start_time)} s"  # reported: JNP603


def f(x):
    return x**2 + x


def case_gradients_timed_in_a_helper_without_blocking():
    return eval(jax.jit(jax.grad(f)), "jax + jit")


def eval_ready(df, method):
    start_time = time.time()
    jax.block_until_ready([df(i) for i in np.arange(0, 1, 0.01)])
    return f"{method}: {(time.time() - start_time)} s"


def case_ok_gradients_timed_until_ready():
    return eval_ready(jax.jit(jax.grad(f)), "jax + jit")
