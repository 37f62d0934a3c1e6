"""Third round, held out: traced values where Python, a shape or NumPy needs concrete data
(JNP202, JNP203, JNP205)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit, random
from jax.nn import one_hot


# https://github.com/jax-ml/jax/pull/689
# A random feature map whose sizes are jitted arguments: the shape of the draw is traced.
@jit
def feature_map(n, d, sigma=1.0, seed=123):
    key = random.PRNGKey(seed)
    W = random.normal(key, (d, n)) / sigma  # reported: JNP202
    return W


def case_traced_sizes_in_a_random_shape():
    return feature_map(5, 3)


@partial(jit, static_argnums=(0, 1))
def feature_map_static(n, d, sigma=1.0, seed=123):
    key = random.PRNGKey(seed)
    W = random.normal(key, (d, n)) / sigma
    return W


def case_ok_sizes_marked_static():
    return feature_map_static(5, 3)


# https://github.com/jax-ml/jax/issues/14279
# A jitted argument used as a dimension of a new array.
@jax.jit
def padded(x, n):
    return jnp.zeros((8, n)) + x  # reported: JNP202


def case_traced_dimension_of_zeros():
    return padded(1.0, 4)


@partial(jax.jit, static_argnames="n")
def padded_static(x, n):
    return jnp.zeros((8, n)) + x


def case_ok_dimension_static():
    return padded_static(1.0, n=4)


# https://github.com/jax-ml/jax/pull/2508
# The number of sections of jnp.split passed through jit.
def split(array, num_sections, axis):
    return jnp.split(array, num_sections, axis)  # reported: JNP202


def case_traced_number_of_sections():
    return jax.jit(split)(jnp.zeros(2), 2, 0)


def case_ok_number_of_sections_static():
    return jax.jit(split, static_argnums=(1, 2))(jnp.zeros(2), 2, 0)


# https://github.com/jax-ml/jax/pull/3656
# jax.nn.one_hot jitted whole: its number of classes becomes a tracer.
def case_jitted_one_hot_number_of_classes():
    return jit(one_hot)(3, 5)  # reported: JNP202


def case_ok_one_hot_number_of_classes_static():
    return jit(one_hot, static_argnums=1)(3, 5)


# https://github.com/jax-ml/jax/issues/648
# The number of samples of a jitted sampler, traced, used as the shape of randint.
@jit
def sample(key, N):
    return random.randint(key, (N,), 0, 10)  # reported: JNP202


def case_traced_number_of_samples():
    return sample(random.PRNGKey(0), 4)


@partial(jit, static_argnums=1)
def sample_static(key, N):
    return random.randint(key, (N,), 0, 10)


def case_ok_number_of_samples_static():
    return sample_static(random.PRNGKey(0), 4)


# https://github.com/aesara-devs/aesara/issues/43
# A reshape whose target size is computed from traced values.
@jax.jit
def incsubtensor(x, start):
    size = jnp.where(start < 0, 2, 4)
    return jnp.reshape(x[:4], (size,))  # reported: JNP202


def case_reshape_to_a_traced_size():
    return incsubtensor(jnp.arange(8.0), 1)


@jax.jit
def incsubtensor_fixed(x, start):
    return jnp.reshape(x[:4], (4,)) + start


def case_ok_reshape_to_a_static_size():
    return incsubtensor_fixed(jnp.arange(8.0), 1)


# https://github.com/f0uriest/interpax/issues/96
# An input check written with `not` and `if` in a function that users jit.
def prepare_input(x, y):
    if not jnp.all(jnp.isfinite(x)):  # reported: JNP202
        raise ValueError("x must contain only finite values")
    return x, y


def case_finiteness_check_under_jit():
    return jit(prepare_input)(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 4.0]))


def prepare_input_unchecked(x, y, check=True):
    if check and not jnp.all(jnp.isfinite(x)):
        raise ValueError("x must contain only finite values")
    return x, y


def case_ok_check_off_and_static():
    jitted = jax.jit(prepare_input_unchecked, static_argnames=["check"])
    return jitted(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 4.0]), check=False)


# https://github.com/jax-ml/jax/issues/5186
# A filled circle drawn by updating the pixels where a traced radius condition holds.
@jax.jit
def filled_circle(xarray, yarray, radius, fillvalue):
    array = jnp.zeros_like(xarray)
    r = jnp.sqrt(xarray ** 2 + yarray ** 2)
    return array.at[r < radius].set(fillvalue)  # reported: JNP203


def case_boolean_mask_update_under_jit():
    grid = jnp.linspace(-1.0, 1.0, 5)
    return filled_circle(grid, grid, 0.5, 1.0)


@jax.jit
def filled_circle_where(xarray, yarray, radius, fillvalue):
    array = jnp.zeros_like(xarray)
    r = jnp.sqrt(xarray ** 2 + yarray ** 2)
    return jnp.where(r < radius, fillvalue, array)


def case_ok_mask_with_where():
    grid = jnp.linspace(-1.0, 1.0, 5)
    return filled_circle_where(grid, grid, 0.5, 1.0)


# https://github.com/jax-ml/jax/issues/4418
# The one-argument where to find the empty positions of a jitted dataset.
@jax.jit
def zero_mask(dataset):
    ax1, ax2 = jnp.where(~dataset.any(axis=2))  # reported: JNP203
    mask = jnp.ones(dataset.shape[:2])
    return mask.at[ax1, ax2].set(0)


def case_one_argument_where_under_jit():
    return zero_mask(jnp.array([[[1, 2], [0, 0]], [[0, 0], [3, 4]]]))


@jax.jit
def zero_mask_three_arguments(dataset):
    return jnp.where(~dataset.any(axis=2), 0, 1)


def case_ok_three_argument_where():
    return zero_mask_three_arguments(jnp.array([[[1, 2], [0, 0]], [[0, 0], [3, 4]]]))


# https://github.com/secretflow/secretflow/issues/406
# k-means centroids as the mean of the points a traced label selects.
@jax.jit
def update_centroids(X, labels, centroids):
    for j in range(centroids.shape[0]):
        centroids = centroids.at[j].set(X[labels == j].mean(axis=0))  # reported: JNP203
    return centroids


def case_mask_selected_mean_under_jit():
    X = jnp.arange(12.0).reshape(6, 2)
    return update_centroids(X, jnp.array([0, 1, 0, 1, 0, 1]), jnp.zeros((2, 2)))


@jax.jit
def update_centroids_weighted(X, labels, centroids):
    for j in range(centroids.shape[0]):
        weights = (labels == j)[:, None]
        centroids = centroids.at[j].set(jnp.sum(X * weights, axis=0) / jnp.sum(weights))
    return centroids


def case_ok_mask_as_weights():
    X = jnp.arange(12.0).reshape(6, 2)
    return update_centroids_weighted(X, jnp.array([0, 1, 0, 1, 0, 1]), jnp.zeros((2, 2)))


# https://github.com/jax-ml/jax/issues/15727
# jit under classmethod: the class itself arrives as the first traced argument.
class A:
    @classmethod
    @jax.jit  # reported: JNP205
    def zeros(shape):
        return jnp.zeros(shape)


def case_jit_under_classmethod():
    return A.zeros((2, 3))


class B:
    @classmethod
    @partial(jax.jit, static_argnums=(0, 1))
    def zeros(cls, shape):
        return jnp.zeros(shape)


def case_ok_class_and_shape_static():
    return B.zeros((2, 3))
