"""Thirteenth round, held out: a transformer block that branches in Python on the layer index a
scan over the layers hands it, jnp.arange sized by a nested jitted helper whose argument is static
in both, a fori_loop body that calls bool() on its carry, a population mass model that casts its
hyperparameters with float() under a jitted likelihood, and a carbon box model that solves for its
steady state with scipy.optimize.minimize inside a jitted run (JNP202, JNP201)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import scipy.optimize


# https://github.com/marin-community/haliax/issues/57
# The user scans the stack of blocks over the layers and adds a perturbation in layer 4 only; the
# layer index scan hands the block is traced, so the Python if fails (ConcretizationTypeError).
class Block:
    def __init__(self, w):
        self.w = w

    def __call__(self, x, layer_idx):
        attn_output = jnp.tanh(x @ self.w)
        x = x + attn_output
        if jnp.equal(layer_idx, 4):  # reported: JNP202
            x = x + 0.01 * jnp.sin(x * 1e2)
        return x


def stacked_blocks(weights, x):
    def layer(x, inputs):
        w, layer_idx = inputs
        return Block(w)(x, layer_idx), None

    x, _ = jax.lax.scan(layer, x, (weights, jnp.arange(weights.shape[0])))
    return x


def case_block_branches_on_the_scanned_layer_index():
    weights = jnp.stack([jnp.eye(3) * 0.1 * i for i in range(6)])
    return stacked_blocks(weights, jnp.ones((2, 3)))


class SelectBlock(Block):
    def __call__(self, x, layer_idx):
        attn_output = jnp.tanh(x @ self.w)
        x = x + attn_output
        return jnp.where(layer_idx == 4, x + 0.01 * jnp.sin(x * 1e2), x)


def stacked_select_blocks(weights, x):
    def layer(x, inputs):
        w, layer_idx = inputs
        return SelectBlock(w)(x, layer_idx), None

    x, _ = jax.lax.scan(layer, x, (weights, jnp.arange(weights.shape[0])))
    return x


def case_ok_block_selects_with_where():
    weights = jnp.stack([jnp.eye(3) * 0.1 * i for i in range(6)])
    return stacked_select_blocks(weights, jnp.ones((2, 3)))


# https://github.com/jax-ml/jax/issues/35090
# k is static in both functions, yet the jitted add1 returns a traced array inside my_arange's
# trace, so jnp.arange gets a tracer for its size (ConcretizationTypeError).
@partial(jax.jit, static_argnums=(0,))
def add1(i):
    return i + 1


@partial(jax.jit, static_argnums=(0,))
def my_arange(k):
    return jnp.arange(add1(k))  # reported: JNP202


def case_arange_sized_by_a_nested_jitted_helper():
    return my_arange(5)


def add1_plain(i):
    return i + 1


@partial(jax.jit, static_argnums=(0,))
def my_arange_plain(k):
    return jnp.arange(add1_plain(k))


def case_ok_arange_sized_by_a_python_helper():
    return my_arange_plain(5)


# https://github.com/jax-ml/jax/issues/23637
# The fori_loop body converts its carry with bool(); the carry is traced while the body is
# traced, so it raises TracerBoolConversionError.
def body(_, c):
    return bool(c)  # reported: JNP202


def case_bool_of_the_fori_loop_carry():
    return jax.lax.fori_loop(0, 5, body, 3.0)


def body_array(_, c):
    return (c != 0).astype(c.dtype)


def case_ok_fori_loop_carry_compared_as_an_array():
    return jax.lax.fori_loop(0, 5, body_array, 3.0)


# https://github.com/ColmTalbot/gwpopulation/pull/83
# The smoothed mass model casts its hyperparameters with float() before building the grid it
# normalises on; under the jitted likelihood the hyperparameters are traced and float() raises.
class SmoothedMassDistribution:
    def __init__(self, mmax=100.0, n_grid=500):
        self.mmax = mmax
        self.n_grid = n_grid

    def smoothing(self, masses, mmin, delta_m):
        shifted = jnp.clip((masses - mmin) / delta_m, 1e-6, 1 - 1e-6)
        window = 1 / (jnp.exp(1 / shifted + 1 / (shifted - 1)) + 1)
        return jnp.where(masses < mmin, 0.0, jnp.where(masses > mmin + delta_m, 1.0, window))

    def p_m1(self, mass_1, alpha, mmin, delta_m):
        mmin, delta_m = float(mmin), float(delta_m)  # reported: JNP202
        grid = jnp.linspace(mmin, self.mmax, self.n_grid)
        shape = grid ** (-alpha) * self.smoothing(grid, mmin, delta_m)
        norm = jnp.trapezoid(shape, grid)
        return mass_1 ** (-alpha) * self.smoothing(mass_1, mmin, delta_m) / norm


@jax.jit
def log_likelihood(mass_1, alpha, mmin, delta_m):
    return jnp.sum(jnp.log(SmoothedMassDistribution().p_m1(mass_1, alpha, mmin, delta_m)))


def case_hyperparameters_cast_with_float_under_jit():
    return log_likelihood(jnp.array([10.0, 20.0, 35.0]), 2.3, 5.0, 3.0)


class ArraySmoothedMassDistribution(SmoothedMassDistribution):
    def p_m1(self, mass_1, alpha, mmin, delta_m):
        grid = jnp.linspace(mmin, self.mmax, self.n_grid)
        shape = grid ** (-alpha) * self.smoothing(grid, mmin, delta_m)
        norm = jnp.trapezoid(shape, grid)
        return mass_1 ** (-alpha) * self.smoothing(mass_1, mmin, delta_m) / norm


@jax.jit
def log_likelihood_arrays(mass_1, alpha, mmin, delta_m):
    model = ArraySmoothedMassDistribution()
    return jnp.sum(jnp.log(model.p_m1(mass_1, alpha, mmin, delta_m)))


def case_ok_hyperparameters_kept_as_arrays():
    return log_likelihood_arrays(jnp.array([10.0, 20.0, 35.0]), 2.3, 5.0, 3.0)


# https://github.com/SharmaLlama/ticktack/issues/19
# The jitted run first equilibrates the box model to the target concentration with
# scipy.optimize.minimize; the objective depends on the traced target, so SciPy converts a tracer
# to a NumPy array (TracerArrayConversionError).
class CarbonBoxModel:
    def __init__(self, fluxes, decay=1.0 / 8267.0):
        self.fluxes = jnp.asarray(fluxes)
        self.decay = decay

    def steady_state(self, production):
        return production / (self.decay + jnp.sum(self.fluxes))

    def equilibrate(self, target_c14):
        objective = lambda p: (self.steady_state(p[0]) - target_c14) ** 2
        return scipy.optimize.minimize(objective, x0=np.array([6.0]))  # reported: JNP201

    @partial(jax.jit, static_argnums=(0,))
    def run(self, time_values, target_c14):
        production = self.equilibrate(target_c14).x[0]
        return self.steady_state(production) * jnp.exp(-self.decay * time_values)


def case_steady_state_solved_by_scipy_inside_jit():
    model = CarbonBoxModel([0.1, 0.2])
    return model.run(jnp.linspace(0.0, 10.0, 5), 1.5)


class EquilibratedBoxModel(CarbonBoxModel):
    @partial(jax.jit, static_argnums=(0,))
    def run_from(self, time_values, production):
        return self.steady_state(production) * jnp.exp(-self.decay * time_values)


def case_ok_steady_state_solved_before_the_jitted_run():
    model = EquilibratedBoxModel([0.1, 0.2])
    production = model.equilibrate(1.5).x[0]
    return model.run_from(jnp.linspace(0.0, 10.0, 5), production)
