"""Fifth round, held out: NumPy on traced values, values Python needs concrete, shapes that depend
on data, and state mutated while tracing (JNP201, JNP202, JNP203, JNP303)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jaxleyverse/jaxley/pull/603
# A cell's distance computed with np.sqrt and np.sum of a parameter, inside a jitted function.
@jax.jit
def distance(param):
    return np.sqrt(np.sum(param * np.asarray([3.0, 4.0])))  # reported: JNP201


def case_numpy_distance_under_jit():
    return distance(jnp.ones((1,)))


@jax.jit
def distance_jnp(param):
    return jnp.sqrt(jnp.sum(param * np.asarray([3.0, 4.0])))


def case_ok_jnp_distance_under_jit():
    return distance_jnp(jnp.ones((1,)))


# https://github.com/infer-actively/pymdp/issues/324
# Decoding a flat action index into one action per factor goes through a helper that casts the
# index to a NumPy array, so the jitted decoder cannot trace it.
def index_to_combination(index, num_controls):
    index = np.array(index)  # reported: JNP201
    return np.unravel_index(index, num_controls)


@jax.jit
def decode_multi_actions(flat_actions):
    return jnp.stack(index_to_combination(flat_actions, (3, 4)), axis=-1)


def case_numpy_cast_in_decoder_helper():
    return decode_multi_actions(jnp.array([0, 5, 11]))


@jax.jit
def decode_multi_actions_jnp(flat_actions):
    return jnp.stack(jnp.unravel_index(flat_actions, (3, 4)), axis=-1)


def case_ok_jnp_unravel_index_in_decoder():
    return decode_multi_actions_jnp(jnp.array([0, 5, 11]))


# https://github.com/bsc-quantic/tn4ml/issues/4
# A log-ReLU norm regulariser written with np.log breaks the gradient of the loss; the quadratic
# regulariser written with jnp trains.
def reg_norm_logrelu(tensors):
    norm = jnp.sum(tensors ** 2)
    return np.log(jnp.maximum(norm, 1.0))  # reported: JNP201


def reg_norm_quad(tensors):
    return (jnp.sum(tensors ** 2) - 1.0) ** 2


def anomaly_loss(tensors, data, reg):
    return jnp.mean((data @ tensors) ** 2) + reg(tensors)


def case_log_relu_regulariser_under_grad():
    tensors, data = jnp.ones(4) * 0.3, jnp.ones((8, 4))
    return jax.grad(anomaly_loss)(tensors, data, reg_norm_logrelu)


def case_ok_quadratic_regulariser_under_grad():
    tensors, data = jnp.ones(4) * 0.3, jnp.ones((8, 4))
    return jax.grad(anomaly_loss)(tensors, data, reg_norm_quad)


# https://github.com/PlasmaControl/DESC/issues/1403
# A scalar objective for a trust-region optimizer reduces the residuals with np.linalg.norm
# inside the jitted compute function.
@jax.jit
def compute_scalar(x):
    residuals = jnp.tanh(x) - 0.5
    return np.linalg.norm(residuals) ** 2  # reported: JNP201


def case_numpy_norm_in_jitted_objective():
    return compute_scalar(jnp.linspace(0.0, 1.0, 5))


@jax.jit
def compute_scalar_jnp(x):
    residuals = jnp.tanh(x) - 0.5
    return jnp.linalg.norm(residuals) ** 2


def case_ok_jnp_norm_in_jitted_objective():
    return compute_scalar_jnp(jnp.linspace(0.0, 1.0, 5))


# https://github.com/google-deepmind/weathernext/issues/41
# Normalised inputs are wrapped back into labelled arrays through np.asarray inside the jitted
# apply function.
def wrap_as_labelled(values, dims):
    return {"dims": dims, "data": np.asarray(values)}  # reported: JNP201


def normalise(inputs, mean, std):
    return wrap_as_labelled((inputs - mean) / std, ("lat", "lon"))


@jax.jit
def apply_fn(inputs, mean, std):
    return normalise(inputs, mean, std)["data"].sum()


def case_numpy_wrap_in_jitted_apply():
    return apply_fn(jnp.ones((2, 3)), 0.5, 2.0)


def wrap_as_labelled_jnp(values, dims):
    return {"dims": dims, "data": jnp.asarray(values)}


@jax.jit
def apply_fn_jnp(inputs, mean, std):
    return wrap_as_labelled_jnp((inputs - mean) / std, ("lat", "lon"))["data"].sum()


def case_ok_jnp_wrap_in_jitted_apply():
    return apply_fn_jnp(jnp.ones((2, 3)), 0.5, 2.0)


# https://github.com/brentyi/egoallo/issues/17
# The number of optimisation steps travels in a params tuple that jit traces, and then sizes an
# array of per-step costs.
@jax.jit
def optimize_vmapped(guidance_params, pose):
    step_weight, num_steps = guidance_params
    costs = jnp.zeros((num_steps,))  # reported: JNP202
    return costs + step_weight * jnp.sum(pose)


def case_step_count_traced_as_shape():
    return optimize_vmapped((0.1, 4), jnp.ones(3))


@partial(jax.jit, static_argnames="num_steps")
def optimize_static(step_weight, pose, num_steps):
    costs = jnp.zeros((num_steps,))
    return costs + step_weight * jnp.sum(pose)


def case_ok_step_count_static():
    return optimize_static(0.1, jnp.ones(3), num_steps=4)


# https://github.com/EiffL/Quarks2CosmosDataChallenge/pull/6
# A decoder keeps its output grid as a jnp array and converts its entries with int() to reshape,
# which fails under jit; the fix keeps the grid as a NumPy array.
@jax.jit
def decode(latent):
    grid = jnp.array([4, 4])
    return latent.reshape(-1, int(grid[0]), int(grid[1]))  # reported: JNP202


def case_int_of_jnp_grid_in_jitted_decoder():
    return decode(jnp.ones(32))


@jax.jit
def decode_numpy_grid(latent):
    grid = np.array([4, 4])
    return latent.reshape(-1, int(grid[0]), int(grid[1]))


def case_ok_int_of_numpy_grid_in_jitted_decoder():
    return decode_numpy_grid(jnp.ones(32))


# https://github.com/pyro-ppl/numpyro/issues/853
# A multilevel model sizes one of its effects by the number of distinct values of a data column,
# with jnp.unique, inside the jitted log density.
@jax.jit
def log_density(params, tank, volume):
    n_volumes = jnp.unique(volume).size  # reported: JNP203
    effects = params[:n_volumes]
    return jnp.sum(effects[volume]) + jnp.sum(tank)


def case_unique_count_in_jitted_model():
    return log_density(jnp.ones(4), jnp.arange(6.0), jnp.array([0, 1, 1, 0, 1, 0]))


@partial(jax.jit, static_argnames="n_volumes")
def log_density_sized(params, tank, volume, n_volumes):
    effects = params[:n_volumes]
    return jnp.sum(effects[volume]) + jnp.sum(tank)


def case_ok_count_passed_static():
    volume = np.array([0, 1, 1, 0, 1, 0], dtype=np.int32)
    return log_density_sized(jnp.ones(4), jnp.arange(6.0), jnp.asarray(volume), n_volumes=len(np.unique(volume)))


# https://github.com/jax-ml/jax/issues/6350
# jax.ops.segment_sum without num_segments inside jit: the number of segments comes from the
# data.
@jax.jit
def pool_by_graph(node_features, graph_ids):
    return jax.ops.segment_sum(node_features, graph_ids)  # reported: JNP203


def case_segment_sum_without_count_under_jit():
    return pool_by_graph(jnp.ones((3, 4)), jnp.array([0, 0, 1]))


@partial(jax.jit, static_argnames="num_graphs")
def pool_by_graph_sized(node_features, graph_ids, num_graphs):
    return jax.ops.segment_sum(node_features, graph_ids, num_segments=num_graphs)


def case_ok_segment_sum_with_static_count():
    return pool_by_graph_sized(jnp.ones((3, 4)), jnp.array([0, 0, 1]), num_graphs=2)


# https://github.com/PlasmaControl/DESC/issues/625
# A Boozer-spectrum objective keeps the modes that break symmetry with a boolean mask computed
# from its traced input.
@jax.jit
def quasisymmetry_error(modes, amplitudes):
    breaking = modes % 2 == 1
    return jnp.sum(amplitudes[breaking] ** 2)  # reported: JNP203


def case_boolean_mask_in_jitted_objective():
    return quasisymmetry_error(jnp.arange(6), jnp.linspace(0.0, 1.0, 6))


@jax.jit
def quasisymmetry_error_where(modes, amplitudes):
    breaking = modes % 2 == 1
    return jnp.sum(jnp.where(breaking, amplitudes, 0.0) ** 2)


def case_ok_where_in_jitted_objective():
    return quasisymmetry_error_where(jnp.arange(6), jnp.linspace(0.0, 1.0, 6))


# https://github.com/jax-ml/jax/issues/15136
# A trainer jits its update method with self static and stores the new parameters on self
# inside it.
class Trainer:
    def __init__(self, param, data):
        self.param = param
        self.data = data

    def loss(self, param, data):
        return jnp.sum((data * param - 1.0) ** 2)

    @partial(jax.jit, static_argnums=(0,))
    def opt(self):
        grads = jax.grad(self.loss)(self.param, self.data)
        self.param = self.param - 0.1 * grads  # reported: JNP303

    @partial(jax.jit, static_argnums=(0,))
    def opt_pure(self, param):
        return param - 0.1 * jax.grad(self.loss)(param, self.data)


def case_jitted_method_stores_on_self():
    trainer = Trainer(jnp.ones(3), jnp.arange(3.0))
    trainer.opt()
    return trainer.param


def case_ok_jitted_method_returns_the_update():
    trainer = Trainer(jnp.ones(3), jnp.arange(3.0))
    trainer.param = trainer.opt_pure(trainer.param)
    return trainer.param
