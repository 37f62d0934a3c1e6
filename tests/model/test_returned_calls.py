"""A def whose every return is a call of another def of its module returns what that def returns (the
summaries' ``returns``), along a chain of such defs; the summary of the def alone agrees with the module's."""
import pytest

from flake8_jaxnp.model.project.summaries import function_summary, summarise
from flake8_jaxnp.model.traced import transform_tables

MODULE = '''import jax.numpy as jnp
import numpy as np

from .elsewhere import imported


def device(x):
    return jnp.tanh(x)


def host(x):
    return np.tanh(x)


{body}
'''


@pytest.mark.parametrize("body, returns", [
    ("def f(x):\n    return device(x)", "jax"),
    ("def f(x):\n    y = device(x * 2)\n    print(y)\n    return y", "jax"),
    ("def f(x):\n    return host(x)", "numpy"),
    ("def f(x):\n    return g(x)\n\n\ndef g(x):\n    return device(x)", "jax"),  # (a chain, in any order)
    ("def f(x):\n    if x:\n        return device(x)\n    return host(x)", None),  # (returns that disagree)
    ("def f(x):\n    return g(x)\n\n\ndef g(x):\n    return f(x)", None),  # (a loop)
    ("def f(x):\n    return imported(x)", None),  # (another module's)
    ("def f(x):\n    y = device(x)\n    y = host(y)\n    return y", None),  # (a name bound twice)
    ("def f(fn, x):\n    return fn(x)", None),  # (a parameter)
    ("@jax.jit\ndef f(x):\n    return host(x)", None),  # (a decorator may return anything)
])
def test_a_returned_call_of_a_same_module_def_returns_what_it_returns(body, returns):
    transforms = transform_tables(())[0]
    source = MODULE.format(body=body).encode()
    assert summarise(source, transforms)["functions"]["f"]["returns"] == returns
    alone = function_summary(source, "f", transforms)
    assert alone is None or alone["functions"]["f"]["returns"] == returns  # (None: the whole module's)
    assert "returns_call" not in summarise(source, transforms)["functions"]["f"]
