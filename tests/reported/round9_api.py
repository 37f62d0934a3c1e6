"""Ninth round, held out: names JAX removed (index_update, host_callback, experimental.optimizers),
and an augmented assignment that updates nothing (JNP504)."""
import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/issues/2287
# A pendulum is integrated in a Python loop and each step is stored with jax.ops.index_update,
# which was removed from JAX (and, when it existed, returned a new array the loop dropped).
def case_index_update_in_an_integration_loop():
    dt, n = 1e-3, 10
    tab_x = jnp.zeros(n)
    tab_v = jnp.zeros(n)
    c = 4 * np.pi ** 2
    x, v = 1.5, 0.0
    for i in range(n):
        x = x + v * dt
        v = v - c * np.sin(x) * dt
        jax.ops.index_update(tab_x, i, x)  # reported: JNP504
        jax.ops.index_update(tab_v, i, v)  # reported: JNP504
    return tab_x, tab_v


def case_ok_at_set_in_an_integration_loop():
    dt, n = 1e-3, 10
    tab_x = jnp.zeros(n)
    tab_v = jnp.zeros(n)
    c = 4 * np.pi ** 2
    x, v = 1.5, 0.0
    for i in range(n):
        x = x + v * dt
        v = v - c * np.sin(x) * dt
        tab_x = tab_x.at[i].set(x)
        tab_v = tab_v.at[i].set(v)
    return tab_x, tab_v


# https://github.com/jax-ml/jax/issues/4763
# An MCMC sampler prints its progress from a jitted loop through host_callback.id_tap; the module
# jax.experimental.host_callback was removed (jax.debug.callback replaces it).
def progress_bar(i, n_iter, print_rate):
    if i % print_rate == 0:
        print(f"Iteration {i}/{n_iter}")


def case_progress_printed_with_host_callback():
    from jax.experimental import host_callback  # reported: JNP504

    @jax.jit
    def my_python_loop(a):
        n_iter, print_rate = 20, 10
        for i in range(n_iter):
            host_callback.id_tap(lambda arg, transforms: progress_bar(arg, n_iter, print_rate), i)
            a += 1
        return a

    return my_python_loop(0)


def case_ok_progress_printed_with_debug_callback():
    @jax.jit
    def my_python_loop(a):
        n_iter, print_rate = 20, 10
        for i in range(n_iter):
            jax.debug.callback(progress_bar, i, n_iter, print_rate)
            a += 1
        return a

    return my_python_loop(0)


# https://github.com/jax-ml/jax/issues/4472
# A toy training loop takes SGD from jax.experimental.optimizers, which moved to
# jax.example_libraries.optimizers and was then removed from jax.experimental.
def case_sgd_from_experimental_optimizers():
    from jax.experimental.optimizers import sgd  # reported: JNP504

    opt = sgd(0.05)
    return opt.init_fn(jnp.ones(3))


def case_ok_sgd_from_example_libraries():
    from jax.example_libraries.optimizers import sgd

    opt = sgd(0.05)
    return opt.init_fn(jnp.ones(3))


# https://github.com/jax-ml/jax/issues/226
# Parameters kept in a list are updated with `param -= learning_rate * gradient` in a loop over
# zip(params, grads); on NumPy arrays that writes into the list's arrays, on JAX arrays it only
# rebinds the loop variable and the list keeps the old parameters.
def case_augmented_update_of_loop_variables():
    params = [jnp.ones(2), jnp.ones(3)]
    grads = [jnp.ones(2), jnp.ones(3)]
    learning_rate = 0.1
    for param, gradient in zip(params, grads):
        param -= learning_rate * gradient  # reported: none
    return params


def case_ok_parameters_rebuilt_from_the_updates():
    params = [jnp.ones(2), jnp.ones(3)]
    grads = [jnp.ones(2), jnp.ones(3)]
    learning_rate = 0.1
    params = [param - learning_rate * gradient for param, gradient in zip(params, grads)]
    return params
