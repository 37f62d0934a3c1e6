"""Fifteenth round, held out: an adaptive Metropolis-within-Gibbs step that branches on the traced
acceptance rate, a Kalman prediction that raises its transition matrix to a traced power, a masked
mean that compresses a traced array to the kept values, a lookup into a NumPy table with traced
indices, and an evaluation step that takes the model object as a jitted argument (JNP202, JNP203,
JNP201, JNP205)."""
import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/mlysy/pfjax/issues/3
# mwg_adapt widens or narrows each random-walk scale with a Python if on the acceptance rate; the
# sampler adapts inside jit, where the rate is traced, so the if raises TracerBoolConversionError
# (the issue replaced it with the sign of the difference).
def mwg_adapt(rw_sd, accept_rate, n_iter, targ_acc=0.44):
    delta = jnp.minimum(0.01, (n_iter + 1.0) ** -0.5)
    if accept_rate < targ_acc:  # reported: JNP202
        return jnp.exp(jnp.log(rw_sd) - delta)
    return jnp.exp(jnp.log(rw_sd) + delta)


@jax.jit
def adapt_scale(rw_sd, n_accepted, n_iter):
    return mwg_adapt(rw_sd, n_accepted / (n_iter + 1.0), n_iter)


def case_random_walk_scale_branches_on_traced_rate():
    return adapt_scale(jnp.asarray(0.5), jnp.asarray(3.0), jnp.asarray(9.0))


def mwg_adapt_sign(rw_sd, accept_rate, n_iter, targ_acc=0.44):
    delta = jnp.minimum(0.01, (n_iter + 1.0) ** -0.5)
    return jnp.exp(jnp.log(rw_sd) + delta * jnp.sign(accept_rate - targ_acc))


@jax.jit
def adapt_scale_sign(rw_sd, n_accepted, n_iter):
    return mwg_adapt_sign(rw_sd, n_accepted / (n_iter + 1.0), n_iter)


def case_ok_random_walk_scale_moves_by_the_sign():
    return adapt_scale_sign(jnp.asarray(0.5), jnp.asarray(3.0), jnp.asarray(9.0))


# https://github.com/jax-ml/jax/issues/4723
# The covariance is propagated n steps ahead with matrix_power(F, n); jitting the function makes n a
# tracer, and matrix_power needs a concrete integer exponent, so the call fails with a TypeError.
def propagate_covariance(transition, covariance, n_steps):
    transition_n = jnp.linalg.matrix_power(transition, n_steps)  # reported: JNP202
    return transition_n @ covariance @ transition_n.T


def case_matrix_power_of_a_traced_exponent():
    propagate = jax.jit(propagate_covariance)
    return propagate(jnp.eye(2) * 0.9, jnp.eye(2), 2)


def case_ok_matrix_power_of_a_static_exponent():
    propagate = jax.jit(propagate_covariance, static_argnums=2)
    return propagate(jnp.eye(2) * 0.9, jnp.eye(2), 2)


# https://github.com/jax-ml/jax/pull/38612
# jnp.compress without size keeps only the selected elements, so its length depends on the data;
# under jit it cannot be traced (the PR made the error name the size argument).
@jax.jit
def mean_of_positive(x):
    kept = jnp.compress(x > 0, x)  # reported: JNP203
    return kept.mean()


def case_compress_to_a_data_dependent_length():
    return mean_of_positive(jnp.array([-1.0, 2.0, 3.0, -4.0]))


@jax.jit
def mean_of_positive_masked(x):
    positive = x > 0
    return jnp.sum(jnp.where(positive, x, 0.0)) / jnp.sum(positive)


def case_ok_masked_mean_of_positive():
    return mean_of_positive_masked(jnp.array([-1.0, 2.0, 3.0, -4.0]))


# https://github.com/jax-ml/jax/issues/3133
# Indexing a NumPy array with a traced index asks NumPy to convert the tracer, which fails under jit
# (the same lookup into a jnp array works); the user found the error hard to trace to the indexing.
CODEBOOK = np.linspace(0.0, 1.0, 12).reshape(4, 3)


@jax.jit
def decode(codes):
    return CODEBOOK[codes, :].sum(axis=-1)  # reported: JNP201


def case_numpy_table_indexed_with_traced_codes():
    return decode(jnp.array([1, 2]))


DEVICE_CODEBOOK = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)


@jax.jit
def decode_on_device(codes):
    return DEVICE_CODEBOOK[codes, :].sum(axis=-1)


def case_ok_jax_table_indexed_with_traced_codes():
    return decode_on_device(jnp.array([1, 2]))


# https://github.com/google/flax/issues/853
# The tutorial jits an evaluation step that takes the model object as its first argument; the model
# is not a pytree of arrays, so every call raises "not a valid JAX type" (the fix is to close over
# the model or mark it static).
class LinearModel:
    def __init__(self, features):
        self.features = features

    def apply(self, params, x):
        return x @ params["w"] + params["b"]


def eval_step(model, params, batch):
    logits = model.apply(params, batch["x"])
    return jnp.mean((logits - batch["y"]) ** 2)


def case_model_object_passed_to_a_jitted_step():
    model = LinearModel(2)
    params = {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}
    batch = {"x": jnp.ones((4, 3)), "y": jnp.zeros((4, 2))}
    return jax.jit(eval_step)(model, params, batch)  # reported: JNP205


def case_ok_model_object_marked_static():
    model = LinearModel(2)
    params = {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}
    batch = {"x": jnp.ones((4, 3)), "y": jnp.zeros((4, 2))}
    return jax.jit(eval_step, static_argnums=0)(model, params, batch)
