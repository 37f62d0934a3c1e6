"""Second round, held out: 64-bit requests without x64 (JNP402)."""
import jax.numpy as np
import numpy as onp
from jax import random


# https://github.com/jax-ml/jax/issues/470
# A float64 uniform draw: without jax_enable_x64 it comes back float32.
def case_uniform_float64_without_x64():
    x = random.uniform(random.PRNGKey(0), (1000,), dtype="float64")  # reported: JNP402
    return x.dtype


def case_ok_uniform_float32():
    x = random.uniform(random.PRNGKey(0), (1000,), dtype="float32")
    return x.dtype


# https://github.com/jax-ml/jax/issues/652
# A float64 matrix for an LU decomposition, silently float32.
def case_array_float64_without_x64():
    A = np.array([[0, 1, 1],  # reported: JNP402
                  [1, 0, 1],
                  [1, 1, 0]], dtype=np.float64)
    return A.dtype


def case_ok_array_float32():
    A = np.array([[0, 1, 1],
                  [1, 0, 1],
                  [1, 1, 0]], dtype=np.float32)
    return A.dtype


def case_ok_numpy_float64_stays_on_host():
    oA = onp.array([[0, 1, 1],
                    [1, 0, 1],
                    [1, 1, 0]], dtype=onp.float64)
    return oA.dtype
