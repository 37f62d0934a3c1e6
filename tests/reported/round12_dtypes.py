"""Twelfth round, held out: a Gaussian-process dataset that casts its inputs to float64 in its
dataclass __post_init__, and a one-hot sampler that casts its draws to int64, both with x64 off
(JNP402)."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/thomaspinder/GPJax/issues/342
# The dataset is meant to hold float64 data, since float32 makes the Cholesky factorisations
# downstream unstable; without jax_enable_x64 the cast gives float32 and a warning.
@dataclass
class Dataset:
    X: np.ndarray
    y: np.ndarray

    def __post_init__(self):
        self.X = jnp.asarray(self.X, dtype=jnp.float64)  # reported: JNP402
        self.y = jnp.asarray(self.y)

    @property
    def n(self):
        return self.X.shape[0]


def case_dataset_cast_to_float64():
    data = Dataset(np.linspace(0.0, 1.0, 5)[:, None], np.sin(np.linspace(0.0, 1.0, 5)))
    return data.X.dtype


@dataclass
class DefaultDataset:
    X: np.ndarray
    y: np.ndarray

    def __post_init__(self):
        self.X = jnp.asarray(self.X)
        self.y = jnp.asarray(self.y)


def case_ok_dataset_in_the_default_float():
    data = DefaultDataset(np.linspace(0.0, 1.0, 5)[:, None], np.sin(np.linspace(0.0, 1.0, 5)))
    return data.X.dtype


# https://github.com/tensorflow/probability/issues/1841
# The one-hot categorical draws class indices and casts them to int64 before building the one-hot
# vectors; with x64 off the cast is truncated to int32 and warns on every sample, although the
# user asked for float32 output.
class OneHotCategorical:
    def __init__(self, logits, dtype=jnp.float32):
        self.logits = logits
        self.dtype = dtype

    def sample(self, seed):
        draws = jax.random.categorical(seed, self.logits)
        draws = draws.astype(jnp.int64)  # reported: JNP402
        return jax.nn.one_hot(draws, self.logits.shape[-1], dtype=self.dtype)


def case_class_indices_cast_to_int64():
    logits = jax.random.normal(jax.random.PRNGKey(0), (3, 4))
    return OneHotCategorical(logits).sample(jax.random.PRNGKey(1))


class OneHotCategoricalDefaultInt(OneHotCategorical):
    def sample(self, seed):
        draws = jax.random.categorical(seed, self.logits)
        return jax.nn.one_hot(draws, self.logits.shape[-1], dtype=self.dtype)


def case_ok_class_indices_kept_in_the_default_int():
    logits = jax.random.normal(jax.random.PRNGKey(0), (3, 4))
    return OneHotCategoricalDefaultInt(logits).sample(jax.random.PRNGKey(1))
