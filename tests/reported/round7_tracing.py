"""Seventh round, held out: values Python needs concrete, SciPy on traced values and shapes that
depend on data (JNP201, JNP202, JNP203)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import scipy.integrate
import scipy.special


# https://github.com/DarshanDeshpande/jax-models/pull/3
# A ConvNeXt builds its stochastic-depth rates with jnp.linspace and turns each one into a Python
# float with .item(); under jax.jit the rates are traced and .item() cannot give a number.
def convnext_blocks(x, depths=(1, 2), drop_path_rate=0.1):
    dp_rates = [rate.item() for rate in jnp.linspace(0, drop_path_rate, sum(depths))]  # reported: JNP202
    for rate in dp_rates:
        x = x * (1.0 - rate) + jnp.tanh(x)
    return x


def case_drop_path_rates_item_under_jit():
    return jax.jit(convnext_blocks)(jnp.ones((2, 4)))


def convnext_blocks_host_rates(x, depths=(1, 2), drop_path_rate=0.1):
    dp_rates = [float(rate) for rate in np.linspace(0, drop_path_rate, sum(depths))]
    for rate in dp_rates:
        x = x * (1.0 - rate) + jnp.tanh(x)
    return x


def case_ok_drop_path_rates_from_numpy_under_jit():
    return jax.jit(convnext_blocks_host_rates)(jnp.ones((2, 4)))


# https://github.com/jax-ml/jax/issues/38603
# jnp.compress keeps the entries a mask selects; without size= its result has as many entries as
# the mask has True values, which jax.jit cannot know.
def positive_entries(x):
    return jnp.compress(x.ravel() > 0, x.ravel())  # reported: JNP203


def case_compress_without_size_under_jit():
    return jax.jit(positive_entries)(jnp.ones((4, 4), dtype=jnp.float32))


def positive_entries_sized(x):
    return jnp.compress(x.ravel() > 0, x.ravel(), size=x.size)


def case_ok_compress_with_size_under_jit():
    return jax.jit(positive_entries_sized)(jnp.ones((4, 4), dtype=jnp.float32))


# https://github.com/jax-ml/jax/issues/7958
# A batched model needs the hypergeometric function and calls scipy.special.hyp2f1 on the values
# jax.vmap maps over.
def hyp_weight(z):
    return scipy.special.hyp2f1(0.5, 1.0, 1.5, z)  # reported: JNP201


def case_scipy_hyp2f1_under_vmap():
    return jax.vmap(hyp_weight)(jnp.linspace(0.0, 0.5, 4))


def case_ok_scipy_hyp2f1_on_host_values():
    return [hyp_weight(z) for z in np.linspace(0.0, 0.5, 4)]


# https://github.com/jax-ml/jax/issues/9014
# An improper integral whose bounds and integrand hold the parameters is computed with
# scipy.integrate.quad, and its gradient is asked of jax.grad.
def improper_integral(c1, c2):
    val, err = scipy.integrate.quad(lambda x: c1 / (1.0 + x ** 2), a=c2, b=np.inf)  # reported: JNP201
    return val


def case_scipy_quad_under_grad():
    return jax.grad(improper_integral)(-1.0, 0.0)


def case_ok_scipy_quad_on_python_floats():
    return improper_integral(-1.0, 0.0)


# https://github.com/data-apis/array-api/pull/999
# A HITS power iteration written against the array API stops when a helper says the hub scores
# converged; jitting it makes the helper's comparison a traced boolean that `if` cannot test.
def is_converged(xprev, x, n, tol):
    err = jnp.sum(jnp.abs(x - xprev))
    return err < jnp.asarray(n * tol)


def hits(a, max_iter=20, tol=1.0e-8):
    n = a.shape[0]
    h = jnp.full(n, 1.0 / n)
    for _ in range(max_iter):
        hprev = h
        h = a @ (hprev @ a)
        h = h / jnp.max(h)
        if is_converged(hprev, h, n, tol):  # reported: JNP202
            break
    return h


def case_convergence_test_under_jit():
    return jax.jit(hits)(jnp.ones((3, 3)) + jnp.eye(3))


def hits_fixed_iterations(a, max_iter=20):
    n = a.shape[0]
    h = jnp.full(n, 1.0 / n)
    for _ in range(max_iter):
        h = a @ (h @ a)
        h = h / jnp.max(h)
    return h


def case_ok_fixed_iterations_under_jit():
    return jax.jit(hits_fixed_iterations)(jnp.ones((3, 3)) + jnp.eye(3))


# https://github.com/scipy/scipy/issues/22781
# An "until it says it is finished" loop clears one flag per pass while any flag is set; under
# jax.jit `while arr.any()` asks Python for the truth of a traced array.
@jax.jit
def clear_flags():
    arr = jnp.ones([2], dtype=jnp.bool_)
    i = 0
    while arr.any():  # reported: JNP202
        arr = arr.at[i].set(False)
        i += 1
    return arr


def case_while_any_under_jit():
    return clear_flags()


@jax.jit
def clear_flags_where():
    arr = jnp.ones([2], dtype=jnp.bool_)
    return jnp.where(arr, False, True)


def case_ok_flags_cleared_with_where():
    return clear_flags_where()


@partial(jax.jit, static_argnums=1)
def clear_first_flags(arr, count):
    for i in range(count):
        arr = arr.at[i].set(False)
    return arr


def case_ok_static_count_loop_under_jit():
    return clear_first_flags(jnp.ones([2], dtype=jnp.bool_), 2)
