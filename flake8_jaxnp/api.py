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
