"""Third round, held out: timing without waiting, host copies in loops and donated buffers
(JNP101, JNP603, JNP605)."""
import time
import timeit
from functools import partial

import jax
import jax.numpy as jnp
import numpy as onp


# https://github.com/jax-ml/jax/issues/19327
# Comparing two jitted contractions with timeit.repeat: the lambdas return before the work ends.
def f1(w, a):
    return jnp.einsum("ij,jk->ik", w, a)


def case_timeit_repeat_without_waiting():
    w, a = jnp.ones((64, 64)), jnp.ones((64, 64))
    jf1 = jax.jit(f1)
    jf1(w, a).block_until_ready()
    return min(timeit.repeat(lambda: jf1(w, a), number=1, repeat=100))  # reported: JNP603


def case_ok_timeit_repeat_waiting():
    w, a = jnp.ones((64, 64)), jnp.ones((64, 64))
    jf1 = jax.jit(f1)
    jf1(w, a).block_until_ready()
    return min(timeit.repeat(lambda: jf1(w, a).block_until_ready(), number=1, repeat=100))


# https://github.com/jax-ml/jax/issues/4474
# Timing a large matrix product on CPU and GPU: the JAX figure is only the dispatch.
def cross(x):
    return jnp.dot(x, x.T)


def case_timeit_of_a_dispatch():
    arr = jnp.ones((256, 256))
    fun = jax.jit(cross)
    fun(arr)
    return timeit.timeit(lambda: fun(arr), number=10)  # reported: JNP603


def case_ok_timeit_of_the_computation():
    arr = jnp.ones((256, 256))
    fun = jax.jit(cross)
    fun(arr).block_until_ready()
    return timeit.timeit(lambda: fun(arr).block_until_ready(), number=10)


# https://github.com/jax-ml/jax/issues/28816
# A timing helper whose timed block builds a list of dispatched results and never waits.
class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.elapsed = time.perf_counter() - self.start


def mytime(callable, iterations=30):
    callable = jax.jit(callable)
    q = callable()
    print(q)
    with Timer() as t:  # reported: JNP603
        rs = [callable() for i in range(iterations)]
    return rs[-1], t.elapsed


def solve_unit():
    k = jnp.eye(32) * 2.0
    return jnp.linalg.solve(k, jnp.ones(32))


def case_timer_context_without_waiting():
    return mytime(solve_unit)


def mytime_waiting(callable, iterations=30):
    callable = jax.jit(callable)
    q = callable()
    print(q)
    with Timer() as t:
        rs = [callable() for i in range(iterations)]
        jax.block_until_ready(rs)
    return rs[-1], t.elapsed


def case_ok_timer_context_waiting():
    return mytime_waiting(solve_unit)


# https://github.com/jax-ml/jax/pull/389
# Collecting experience: each step's observation is copied back to NumPy inside the loop.
def collect_experience(steps, use_numpy):
    all_obs = []
    for i in range(steps):
        obs = jnp.asarray([1., 2, 3, 3]) * i
        if use_numpy:
            obs = onp.asarray(obs)  # reported: JNP101
        all_obs.append(obs)
    ret = onp.asarray(all_obs)
    return ret


def case_numpy_copy_per_step():
    return collect_experience(20, True)


def collect_experience_stacked(steps):
    all_obs = []
    for i in range(steps):
        obs = jnp.asarray([1., 2, 3, 3]) * i
        all_obs.append(obs)
    return onp.asarray(jnp.stack(all_obs))


def case_ok_one_copy_after_the_loop():
    return collect_experience_stacked(20)


# https://github.com/jax-ml/jax/issues/9635
# The same array passed twice to a function that donates its first argument.
def add(x, y):
    return x + y


def case_donated_argument_passed_twice():
    f = jax.jit(add, donate_argnums=(0,))
    x = jnp.zeros((10,), jnp.float32)
    f(x, x)  # reported: JNP605


def case_ok_copy_for_the_second_argument():
    f = jax.jit(add, donate_argnums=(0,))
    x = jnp.zeros((10,), jnp.float32)
    return f(x, jnp.copy(x))


# https://github.com/jax-ml/jax/issues/12627
# A training loop whose batch aliases the donated parameters.
@partial(jax.jit, donate_argnums=(0,))
def update(x, batch):
    return x + batch


def case_batch_aliases_donated_input():
    x = jnp.zeros((1024,), dtype=jnp.float32)
    for _ in range(10):
        batch = x
        x = update(x, batch)  # reported: JNP605
    return x


def case_ok_batch_separate_from_donated_input():
    x = jnp.zeros((1024,), dtype=jnp.float32)
    for _ in range(10):
        batch = jnp.ones_like(x)
        x = update(x, batch)
    return x
