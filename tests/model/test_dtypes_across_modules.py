"""The dtypes of what another module's function returns: its summary's ``dtypes`` (an array's,
a tuple's items', a dict's values', or the dtype its caller's argument names), read at the call,
so a promotion between them and this file's arrays is JNP401; unknown dtypes stay silent."""
import textwrap

import pytest

from flake8_jaxnp.model.project.summaries import summarise
from flake8_runs import flake8

DATA = """\
import jax
import jax.numpy as jnp
import numpy as np


def make_data(n):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype(np.float32)
    x[-1:] = 0.0
    return x, rng.integers(0, 2, size=n).astype(np.int32)


def cast(params, dtype):
    return {name: value.astype(dtype) for name, value in params.items()}


def zeros(n):
    return {"w": jnp.zeros((n, n), dtype=jnp.bfloat16), "b": jnp.zeros(n, dtype="bfloat16") * 2}


def maybe_half(x, half):
    if half:
        return x.astype(jnp.bfloat16)
    return x.astype(jnp.float32)


def rebound(params, dtype):
    dtype = jnp.float32
    return {name: value.astype(dtype) for name, value in params.items()}


def hidden(params, dtype):
    return {dtype: value.astype(dtype) for dtype, value in params.items()}


def halves(n):
    return jnp.zeros(n, dtype=jnp.int32) / 2, jnp.zeros(n, dtype=jnp.float16) / 2


def init(key, n):
    return {"w": jax.random.normal(key, (n, n)) * 0.1, "b": jnp.zeros(n)}


def counts(n):
    return jnp.zeros(n, jnp.int32), jax.random.normal(jax.random.key(0), (n,), "float16"), jnp.arange(n)
"""


@pytest.mark.parametrize("function, expected", [
    ("make_data", ["float32", "int32"]),
    ("cast", {"each": 1}),  # the dtype its second argument names
    ("zeros", {"each": "bfloat16"}),
    ("maybe_half", None),  # returns that disagree
    ("rebound", None),  # a parameter the def binds again
    ("hidden", None),  # a comprehension's name hides the parameter
    ("halves", [None, "float16"]),  # integers divided give floats
    ("init", {"each": "float64"}),  # the default float, as measured (JAX narrows it unless x64 is on)
    ("counts", ["int32", "float16", None]),  # a positional dtype; arange's follows its data
])
def test_summaries_keep_the_dtypes_of_returned_values(function, expected):
    facts = summarise(DATA.encode(), {})["functions"][function]
    assert facts.get("dtypes") == expected


RUN = """\
import jax
import jax.numpy as jnp

from pkg import data


def setup():
    x, y = jax.device_put(data.make_data(8))
    return {{"w1": jnp.ones((3, 4))}}, x, y


def case():
    params, x, _ = setup()
    half = data.cast(params, {dtype})
    return {expr}
"""


@pytest.mark.parametrize("dtype, expr, expected", [
    ("jnp.bfloat16", 'x @ half["w1"]', ["JNP401"]),
    ("jnp.bfloat16", 'x.astype(jnp.bfloat16) @ half["w1"]', []),
    ("jnp.float32", 'x @ half["w1"]', []),
    ("DTYPE", 'x @ half["w1"]', []),  # a dtype the file does not say: unknown
    ("jnp.bfloat16", 'x @ data.zeros(3)["w"]', ["JNP401"]),
    ("jnp.bfloat16", 'x @ data.maybe_half(x, True)', []),  # a flag the summary cannot decide
    ("jnp.bfloat16", 'x.astype(jnp.bfloat16) @ data.init(jax.random.key(0), 3)["w"]', ["JNP401"]),
    ("jnp.bfloat16", 'x @ data.init(jax.random.key(0), 3)["w"]', []),  # float32 on both sides
])
def test_a_promotion_with_another_modules_dtypes_is_reported(tmp_path, dtype, expr, expected):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "data.py").write_text(DATA)
    (package / "run.py").write_text(textwrap.dedent(RUN.format(dtype=dtype, expr=expr)))
    found = flake8(["--select", "JNP4", "--jaxnp-cache-dir", str(tmp_path / "cache"), "pkg/run.py"], tmp_path)
    assert [line.split()[1] for line in found] == expected


MODEL = """\
import jax
import jax.numpy as jnp


def init(key, n):
    return {"w": jax.random.normal(key, (n, n)) * 0.1, "b": jnp.zeros(n)}


def init_half(key, n):
    return {"w": jnp.zeros((n, n), jnp.bfloat16), "b": jnp.zeros(n, jnp.bfloat16)}


def init_both(key, n):
    return init(key, n), init_half(key, n)


def apply(params, n):
    h = jnp.ones(n, dtype=jnp.bfloat16)
    return h + params["b"]
"""


@pytest.mark.parametrize("calls, expected", [
    ("p = model.init(jax.random.key(0), 3)\n    return model.apply(p, 3)", ["JNP401"]),  # a name bound once
    ("return model.apply(model.init(jax.random.key(0), 3), 3)", ["JNP401"]),
    ("return model.apply(model.init_half(jax.random.key(0), 3), 3)", []),  # bfloat16 on both sides
    ("return model.apply(model.init(jax.random.key(0), 3), 3), model.apply(model.init_half(None, 3), 3)",
     []),  # callers that disagree
    ("p = model.init(jax.random.key(0), 3)\n    p = {}\n    return model.apply(p, 3)", []),  # bound twice
    ("p, q = model.init_both(jax.random.key(0), 3)\n    return model.apply(q, 3)", []),  # an item of a tuple
    ("return model.apply(model.init(jax.random.key(0), 3), 3), model.apply", []),  # referred to otherwise
])
def test_a_parameters_dtype_comes_from_its_callers_in_other_modules(tmp_path, calls, expected):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "model.py").write_text(MODEL)
    (package / "run.py").write_text(f"import jax\n\nfrom pkg import model\n\n\ndef case():\n    {calls}\n")
    found = flake8(["--select", "JNP4", "--jaxnp-cache-dir", str(tmp_path / "cache"), "pkg/model.py"], tmp_path)
    assert [line.split()[1] for line in found] == expected
