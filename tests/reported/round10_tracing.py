"""Tenth round, held out: values a transformation traces reaching NumPy, Python loops and shapes
through a vectorising helper, an Euler integrator, an emulator's parameter dictionary and a
likelihood that closes over its data (JNP201, JNP202, JNP203)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/issues/7542
# NumPy's apply_along_axis with np.where finds the indices of the ones in every row; the same call
# with jnp.apply_along_axis and jnp.where fails, because jnp.apply_along_axis vmaps the function,
# so the one-argument where sees a batched row and cannot know how many indices it returns.
def case_where_applied_along_rows():
    x = np.array([[0, 0, 1, 1], [1, 1, 0, 0], [0, 1, 1, 0]])
    return jnp.apply_along_axis(jnp.where, 1, x).squeeze()  # reported: JNP203


def case_ok_where_with_a_static_size_along_rows():
    x = np.array([[0, 0, 1, 1], [1, 1, 0, 0], [0, 1, 1, 0]])
    return jnp.apply_along_axis(lambda row: jnp.where(row, size=2)[0], 1, x)


# https://github.com/jax-ml/jax/issues/25186
# A forward-Euler integrator takes the first and last step indices with the state and is jitted as
# a whole; the number of steps is their difference, a traced integer, and Python's range() asks for
# its value.
def uxCosFun(z, dx, h):
    return dx * 0.5 * (1.0 - jnp.cos(z * np.pi / h))


@jax.jit
def forwardEuler(z0, dx, h, iStart, iEnd, dt):
    nSteps = iEnd - iStart
    z = z0
    for _ in range(nSteps):  # reported: JNP202
        z = z + dt * uxCosFun(z, dx, h)
    return z


def case_euler_steps_counted_from_traced_indices():
    return forwardEuler(jnp.ones(3), 0.1, 2.0, 0, 5, 0.01)


@partial(jax.jit, static_argnums=(3, 4))
def forwardEulerStatic(z0, dx, h, iStart, iEnd, dt):
    z = z0
    for _ in range(iEnd - iStart):
        z = z + dt * uxCosFun(z, dx, h)
    return z


def case_ok_euler_step_indices_static():
    return forwardEulerStatic(jnp.ones(3), 0.1, 2.0, 0, 5, 0.01)


# https://github.com/dpiras/cosmopower-jax/pull/16
# An emulator orders its input dictionary into one array with np.stack before its network runs; a
# wrapper computing a power spectrum from it is differentiated with jax.jacfwd over the
# cosmological parameters, so the dictionary holds tracers when np.stack reads it.
class PowerEmulator:
    parameters = ("omega_b", "omega_cdm", "h")

    def __init__(self):
        self.weights = jnp.linspace(0.5, 1.5, 3 * 4).reshape(3, 4)

    def _dict_to_ordered_arr_np(self, input_dict):
        return np.stack([input_dict[k] for k in self.parameters], axis=1)  # reported: JNP201

    def predict(self, input_dict):
        params = self._dict_to_ordered_arr_np(input_dict)
        return jnp.exp(params @ self.weights)[0]


def get_pgg(cosmo_dict, bias_dict, pshot, pklin_emulator=PowerEmulator()):
    pklin = pklin_emulator.predict(cosmo_dict)
    return (bias_dict["b1"] ** 2) * pklin + pshot


def case_parameter_dictionary_stacked_with_numpy_under_jacfwd():
    cosmo_dict = {"omega_b": np.array([0.02242]), "omega_cdm": np.array([0.11933]), "h": np.array([0.6766])}
    bias_dict = {"b1": np.array([1.2])}
    return jax.jacfwd(get_pgg, argnums=[0, 1])(cosmo_dict, bias_dict, 0.0)


class PowerEmulatorJnp(PowerEmulator):
    def _dict_to_ordered_arr_np(self, input_dict):
        return jnp.stack([input_dict[k] for k in self.parameters], axis=1)


def case_ok_parameter_dictionary_stacked_with_jnp():
    cosmo_dict = {"omega_b": np.array([0.02242]), "omega_cdm": np.array([0.11933]), "h": np.array([0.6766])}
    bias_dict = {"b1": np.array([1.2])}
    return jax.jacfwd(get_pgg, argnums=[0, 1])(cosmo_dict, bias_dict, 0.0, PowerEmulatorJnp())


# https://github.com/wesselb/stheno/issues/21
# A Gaussian process's log-density looks for missing inputs by converting ~isnan(x) to NumPy; the
# inputs are a module-level array, not an argument, yet under jax.jit(jax.grad(loss)) the isnan is
# staged into the trace like every other operation, and the conversion gets a tracer.
x_train = jnp.arange(10.0)[:, None]
y_train = jnp.arange(10.0)


def logpdf(lengthscale, x, y):
    if x.ndim == 2 and x.shape[1] == 1:
        available = np.asarray(~jnp.isnan(x[:, 0]))  # reported: JNP201
        if not available.all():
            x, y = x[available], y[available]
    k = jnp.exp(-((x - x.T) ** 2) / lengthscale**2) + 1e-3 * jnp.eye(x.shape[0])
    return -0.5 * y @ jnp.linalg.solve(k, y)


def case_missing_data_mask_converted_under_jit_of_grad():
    loss_fn = lambda lengthscale: logpdf(lengthscale, x_train, y_train)  # noqa: E731
    grad_fn = jax.jit(jax.grad(loss_fn))
    return grad_fn(jnp.array(1.0))


def logpdf_jnp_mask(lengthscale, x, y):
    available = ~jnp.isnan(x[:, 0])
    y = jnp.where(available, y, 0.0)
    k = jnp.exp(-((x - x.T) ** 2) / lengthscale**2) + 1e-3 * jnp.eye(x.shape[0])
    return -0.5 * y @ jnp.linalg.solve(k, y)


def case_ok_missing_data_masked_in_jnp():
    loss_fn = lambda lengthscale: logpdf_jnp_mask(lengthscale, x_train, y_train)  # noqa: E731
    return jax.jit(jax.grad(loss_fn))(jnp.array(1.0))


# https://github.com/jax-ml/jax/issues/24740
# A Mandelbrot iteration returns the step at which |z| passes 2; it works on one point, but vmapped
# over a row of points the comparison is a batched tracer and the if needs its truth value.
def mandle_brot(c, max_iter):
    z = jnp.array([0.0 + 0.0j])
    for i in range(max_iter):
        z = z * z + c
        if jnp.abs(z) > 2.0:  # reported: JNP202
            return jnp.array([i])
    return jnp.array([max_iter])


def case_escape_test_branches_under_vmap():
    z = jnp.complex64(-0.75 + 0.1j)
    Z = jnp.array([z, z, z, z])
    mandle_brot_vmap = jax.vmap(mandle_brot, in_axes=(0, None))
    return mandle_brot_vmap(Z, 10)


def mandle_brot_counted(c, max_iter):
    z = jnp.array([0.0 + 0.0j])
    steps = jnp.array([max_iter])
    for i in range(max_iter):
        z = z * z + c
        steps = jnp.where((jnp.abs(z) > 2.0) & (steps == max_iter), i, steps)
    return steps


def case_ok_escape_step_counted_with_where_under_vmap():
    z = jnp.complex64(-0.75 + 0.1j)
    Z = jnp.array([z, z, z, z])
    return jax.vmap(mandle_brot_counted, in_axes=(0, None))(Z, 10)
