"""The generated JAX API facts (``jax_api.json``), loaded once, without importing jax."""
import json
from functools import lru_cache
from pathlib import Path

DATA_FILE = Path(__file__).with_name("jax_api.json")


@lru_cache(maxsize=1)
def data():
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def jnp_names():
    return frozenset(data()["jnp_names"])


@lru_cache(maxsize=1)
def array_attributes():
    return frozenset(data()["array_attributes"])


@lru_cache(maxsize=1)
def jnp_modules():
    """jax.numpy and its submodules whose attribute names ``jnp_names`` lists."""
    return frozenset({"jax.numpy"} | {name.rsplit(".", 1)[0] for name in data()["jnp_names"]})


@lru_cache(maxsize=1)
def missing_array_attributes():
    """Public NumPy array attributes that jax.Array lacks."""
    return frozenset(name for name in set(data()["numpy_array_attributes"]) - array_attributes()
                     if not name.startswith("_"))


def removed_names():
    """JAX names of past releases that the installed JAX no longer has ("raises") or
    deprecates -> {"last": last release read that had it, "message": JAX's own
    deprecation text or "", "raises": bool}."""
    return data()["removed_names"]


def array_member_changes():
    """jax.Array members whose form changed -> {"was": "method"|"property", "last", "now":
    "method"|"property"|"raises", "message"}: ``x.device()`` of old code now raises."""
    return data()["array_member_changes"]


@lru_cache(maxsize=1)
def jnp_inplace_functions():
    return frozenset(data()["jnp_inplace_functions"])


def jnp_rejected_arguments():
    """jax.numpy qualname -> {NumPy keyword: {"error", "none_ok"}} that JAX refuses."""
    return data()["jnp_rejected_arguments"]


def array_rejected_arguments():
    """jax.Array method name -> {NumPy keyword: {"error", "none_ok"}} that JAX refuses."""
    return data()["array_rejected_arguments"]


# ---- the semantic model's tables (learned by running JAX and NumPy) --------------------------
@lru_cache(maxsize=1)
def transforms():
    """Callables that trace the function they wrap -> {"abstract": tracers without concrete
    values, "cached": the Python body runs only while tracing, "arrays": calling the
    transformed function gives JAX arrays}."""
    return data()["transforms"]


def lax_bodies():
    """jax.lax qualname -> positions of the arguments it calls with tracers."""
    return data()["lax_bodies"]


def positional_options():
    """Transform qualname -> the options it also takes by position, after the function."""
    return data()["transform_positional_options"]


@lru_cache(maxsize=1)
def non_array_functions():
    """Bare names of jax.numpy/NumPy/lax functions whose results are never arrays."""
    return frozenset(data()["non_array_functions"])


@lru_cache(maxsize=1)
def tuple_result_functions():
    """Bare names of functions that return a tuple or list of arrays (in some call)."""
    return frozenset(data()["tuple_result_functions"])


@lru_cache(maxsize=1)
def bool_result_functions():
    """Bare names of functions whose array results are always boolean."""
    return frozenset(data()["bool_result_functions"])


def scalar_results():
    """Bare NumPy function name -> {"int": dtype, "float": dtype} it builds from Python ints,
    or from Python scalars one of which is a float."""
    return data()["scalar_results"]


def constructor_defaults():
    """Bare NumPy function name -> the one dtype it builds when no dtype is given."""
    return data()["constructor_defaults"]


@lru_cache(maxsize=1)
def python_result_methods():
    """jax.Array methods whose result is a Python value, not an array."""
    return frozenset(data()["python_result_methods"])


@lru_cache(maxsize=1)
def static_attributes():
    """jax.Array attributes that hold metadata (shape, dtype, sharding), not array data."""
    return frozenset(data()["static_attributes"])


def shape_arguments():
    """jax.numpy qualname -> positions of arguments that set the result's shape (must be concrete)."""
    return data()["shape_arguments"]


def promoting_arguments():
    """jax.numpy qualname -> {"positions": argument indices, "sequences": indices of list
    arguments} whose dtypes promote together into the result (where, concatenate, dot)."""
    return data()["promoting_arguments"]


def numpy_random_dtypes():
    """{"legacy": {np.random function: dtype}, "generator": {np.random.Generator method:
    dtype}}: what they return when no dtype is given (float64 for normal, int64 for integers)."""
    return data()["numpy_random_dtypes"]


@lru_cache(maxsize=1)
def random_samplers():
    """jax.random functions that draw random values from a key (consuming it)."""
    return frozenset(data()["jax_random_samplers"])


def where_unsafe_functions():
    """jax.numpy function -> argument positions whose gradient is nan where jnp.where discards them."""
    return data()["jnp_where_unsafe"]


def sequence_refusals():
    """jax.numpy function -> positional parameters that refuse a Python list or tuple."""
    return data()["jnp_sequence_refusals"]


def framework_transforms():
    """Framework transform name -> its measured behaviour (``generate_frameworks``)."""
    return data().get("framework_transforms", {})
