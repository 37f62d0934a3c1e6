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


@lru_cache(maxsize=1)
def deprecated():
    """Removed or deprecated JAX names -> their replacement."""
    return data()["deprecated"]


@lru_cache(maxsize=1)
def jnp_inplace_functions():
    return frozenset(data()["jnp_inplace_functions"])


def jnp_rejected_arguments():
    """jax.numpy qualname -> {NumPy keyword: {"error", "none_ok"}} that JAX refuses."""
    return data()["jnp_rejected_arguments"]


def array_rejected_arguments():
    """jax.Array method name -> {NumPy keyword: {"error", "none_ok"}} that JAX refuses."""
    return data()["array_rejected_arguments"]


def framework_transforms():
    """Framework transform name -> its measured behaviour (``generate_frameworks``)."""
    return data().get("framework_transforms", {})
