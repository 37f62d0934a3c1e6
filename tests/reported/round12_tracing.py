"""Twelfth round, held out: a light-curve surface validated in its dataclass __post_init__ and a
rotation operator checked for orthogonality in __init__, both built inside jitted functions, a
radial polynomial whose derivative order is traced by jit(jacrev(...)), and a user projection that
hands the solver's traced hyperparameters to NumPy inside a while_loop (JNP202, JNP201)."""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/exoplanet-dev/jaxoplanet/issues/234
# The surface of a star checks its parameters when it is built; building it inside a jitted light
# curve makes the inclination a tracer, and the Python check fails with TracerBoolConversionError.
@dataclass
class Surface:
    inc: float = 0.5 * np.pi
    obl: float = 0.0
    u: tuple = (0.3, 0.2)

    def __post_init__(self):
        if self.inc < 0 or self.inc > np.pi:  # reported: JNP202
            raise ValueError("inclination must be in [0, pi]")


def limb_darkened_flux(surface, b):
    u1, u2 = surface.u
    mu = jnp.sqrt(jnp.clip(1.0 - b**2, 0.0, 1.0))
    return (1.0 - u1 * (1.0 - mu) - u2 * (1.0 - mu) ** 2) * jnp.sin(surface.inc)


@jax.jit
def light_curve(inc, b):
    return limb_darkened_flux(Surface(inc=inc), b)


def case_surface_validated_under_jit():
    return light_curve(1.2, jnp.linspace(0.0, 0.9, 5))


@dataclass
class CheckedSurface:
    inc: float = 0.5 * np.pi
    obl: float = 0.0
    u: tuple = (0.3, 0.2)

    def __post_init__(self):
        if isinstance(self.inc, float) and not 0 <= self.inc <= np.pi:
            raise ValueError("inclination must be in [0, pi]")


@jax.jit
def checked_light_curve(inc, b):
    return limb_darkened_flux(CheckedSurface(inc=inc), b)


def case_ok_surface_checked_only_for_python_floats():
    return checked_light_curve(1.2, jnp.linspace(0.0, 0.9, 5))


# https://github.com/GalacticDynamics/coordinax/pull/64
# The rotation operator verifies that its matrix is in SO(3) when it is constructed; operators
# built from a traced angle inside a jitted transform hit TracerBoolConversionError on that check.
class GalileanRotation:
    def __init__(self, rotation):
        self.rotation = rotation
        if not jnp.allclose(rotation @ rotation.T, jnp.eye(3), atol=1e-6):  # reported: JNP202
            raise ValueError("rotation matrix must be orthogonal")

    def __call__(self, q):
        return self.rotation @ q


def z_rotation(angle):
    c, s = jnp.cos(angle), jnp.sin(angle)
    return jnp.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@jax.jit
def rotate_about_z(angle, q):
    return GalileanRotation(z_rotation(angle))(q)


def case_rotation_checked_on_a_tracer():
    return rotate_about_z(0.3, jnp.array([1.0, 0.0, 0.0]))


class UncheckedRotation:
    def __init__(self, rotation):
        self.rotation = rotation

    def __call__(self, q):
        return self.rotation @ q


@jax.jit
def rotate_about_z_unchecked(angle, q):
    return UncheckedRotation(z_rotation(angle))(q)


def case_ok_rotation_built_without_a_check():
    return rotate_about_z_unchecked(0.3, jnp.array([1.0, 0.0, 0.0]))


# https://github.com/PlasmaControl/DESC/pull/998
# The radial Zernike polynomial takes the derivative order dr as an argument and branches on it;
# jit(jacrev(zernike_radial)) with dr passed positionally makes dr a tracer.
def zernike_radial(r, l, m, dr=0):
    base = r ** jnp.abs(m) * (1.0 - r**2) ** ((l - jnp.abs(m)) // 2)
    if dr == 0:  # reported: JNP202
        return jnp.sum(base)
    return jnp.sum(jnp.abs(m) * r ** (jnp.abs(m) - 1.0) * (1.0 - r**2) ** ((l - jnp.abs(m)) // 2))


def case_derivative_order_traced_by_jit():
    r = jnp.linspace(0.1, 0.9, 4)[:, None]
    return jax.jit(jax.jacrev(zernike_radial))(r, jnp.array([2, 4]), jnp.array([0, 2]), 0)


def case_ok_derivative_order_static():
    r = jnp.linspace(0.1, 0.9, 4)[:, None]
    grad_fn = jax.jit(jax.jacrev(zernike_radial), static_argnums=3)
    return grad_fn(r, jnp.array([2, 4]), jnp.array([0, 2]), 0)


# https://github.com/google/jaxopt/issues/70
# A projected-gradient solver runs its iterations in a while_loop; the user's projection onto a
# box converts the hyperparameters with NumPy (as a cvxpy call would), but the solver's run is
# jitted and they are tracers there: TracerArrayConversionError.
def projection_box(x, hyperparams):
    lower, upper = hyperparams
    lower = np.asarray(lower)  # reported: JNP201
    return jnp.clip(x, lower, upper)


class ProjectedGradient:
    def __init__(self, fun, projection, stepsize=0.1, maxiter=20):
        self.fun = fun
        self.projection = projection
        self.stepsize = stepsize
        self.maxiter = maxiter

    @partial(jax.jit, static_argnums=0)
    def run(self, init_params, hyperparams_proj):
        def cond_fun(state):
            return state[1] < self.maxiter

        def body_fun(state):
            params, it = state
            params = params - self.stepsize * jax.grad(self.fun)(params)
            return self.projection(params, hyperparams_proj), it + 1

        return jax.lax.while_loop(cond_fun, body_fun, (init_params, 0))[0]


def saddle(x):
    return x[0] ** 2 - x[1] ** 2


def case_projection_converts_traced_hyperparameters():
    pg = ProjectedGradient(fun=saddle, projection=projection_box)
    return pg.run(jnp.array([0.5, 0.5]), (jnp.zeros(2), jnp.ones(2)))


def projection_box_jnp(x, hyperparams):
    lower, upper = hyperparams
    return jnp.clip(x, jnp.asarray(lower), upper)


def case_ok_projection_with_jax_numpy():
    pg = ProjectedGradient(fun=saddle, projection=projection_box_jnp)
    return pg.run(jnp.array([0.5, 0.5]), (jnp.zeros(2), jnp.ones(2)))

