"""The generated API data matches the installed JAX and says true things about it."""
import json
import subprocess
import sys
import warnings

import jax
import numpy as np

from conftest import ROOT
from flake8_jaxnp import api
from flake8_jaxnp.generate import _resolve


def test_api_data_is_current_for_installed_jax():
    result = subprocess.run([sys.executable, "-m", "flake8_jaxnp.generate", "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def test_api_data_records_installed_versions():
    data = json.loads(api.DATA_FILE.read_text(encoding="utf-8"))
    assert data["jax_version"] == jax.__version__
    assert data["numpy_version"] == np.__version__


def test_deprecated_names_are_gone_or_warn():
    for name in api.deprecated():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            found = _resolve(name)
        assert found is None or any(issubclass(w.category, DeprecationWarning) for w in caught), name


def test_missing_array_attributes_are_missing_on_jax_arrays():
    array = jax.numpy.zeros(3)
    for name in api.missing_array_attributes():
        assert hasattr(np.zeros(3), name), name
        assert not hasattr(array, name), name


def test_arguments_refused_even_as_none_really_are():
    """The linter flags these whatever the value, so JAX must refuse even None."""
    x = jax.numpy.arange(3.0)
    for qualname, params in api.data()["jnp_rejected_arguments"].items():
        func = _resolve(qualname)
        for param, rejection in params.items():
            if rejection["none_ok"]:
                continue
            errors = []
            for args in ((x,), (x, x)):
                try:
                    func(*args, **{param: None})
                except Exception as exc:  # noqa: BLE001 - only a TypeError about param counts
                    errors.append(str(exc) if isinstance(exc, TypeError) else "")
            assert any(param in error for error in errors), (qualname, param)


# ---- the semantic model's tables, learned by the generator -----------------------------------
def test_transforms_record_measured_behaviour():
    transforms = api.transforms()
    assert transforms["jax.jit"] == {"abstract": True, "cached": True, "arrays": True}
    assert transforms["jax.vmap"] == {"abstract": True, "cached": False, "arrays": True}
    assert transforms["jax.grad"] == {"abstract": False, "cached": False, "arrays": True}
    assert transforms["jax.make_jaxpr"]["arrays"] is False  # it gives a jaxpr
    assert "jax.experimental.pjit.pjit" in transforms  # deprecated, still served
    for not_a_transform in ("jax.custom_jvp", "jax.eval_shape", "jax.device_put", "jax.block_until_ready"):
        assert not_a_transform not in transforms


def test_lax_bodies_are_the_traced_function_arguments():
    bodies = api.lax_bodies()
    assert bodies["jax.lax.scan"] == [0]
    assert bodies["jax.lax.fori_loop"] == [2]
    assert bodies["jax.lax.while_loop"] == [0, 1]
    assert bodies["jax.lax.cond"] == [1, 2]
    assert bodies["jax.lax.switch"] == [1]
    for no_body in ("jax.lax.add", "jax.lax.sort", "jax.lax.select"):
        assert no_body not in bodies


def test_positional_options_follow_the_signatures():
    options = api.positional_options()
    assert options["jax.vmap"][:2] == ["in_axes", "out_axes"]
    assert options["jax.grad"][:2] == ["argnums", "has_aux"]
    assert "jax.jit" not in options  # everything after the function is keyword-only


def test_non_array_functions():
    names = api.non_array_functions()
    assert {"shape", "ndim", "result_type", "finfo", "iinfo", "promote_types", "broadcast_shapes"} <= names
    assert not {"sum", "zeros", "where", "split", "isnan"} & names


def test_tuple_result_functions():
    names = api.tuple_result_functions()
    assert {"split", "nonzero", "meshgrid", "svd", "eigh", "unique", "divmod", "atleast_1d"} <= names
    assert not {"sum", "concatenate", "shape", "isnan"} & names


def test_bool_result_functions():
    names = api.bool_result_functions()
    assert {"isnan", "isfinite", "logical_and", "equal", "less", "isclose", "signbit"} <= names
    assert not {"sum", "where", "abs", "shape"} & names


def test_constructor_defaults():
    defaults = api.constructor_defaults()
    assert defaults["zeros"] == defaults["ones"] == defaults["eye"] == "float64"
    for data_decides in ("arange", "array", "full", "asarray", "sqrt", "linspace"):
        assert data_decides not in defaults  # np.linspace(np.float32(0), 1) is float32


def test_python_result_methods():
    methods = api.python_result_methods()
    assert {"item", "tolist", "tobytes", "__len__", "devices"} <= methods
    assert not {"sum", "astype", "reshape", "copy", "block_until_ready"} & methods


def test_static_attributes():
    attributes = api.static_attributes()
    assert {"shape", "ndim", "size", "dtype", "itemsize", "nbytes", "sharding", "device", "aval"} <= attributes
    assert not {"T", "mT", "real", "imag", "flat", "sum"} & attributes


def test_shape_arguments():
    positions = api.shape_arguments()
    assert positions["jax.numpy.zeros"] == [0]
    assert positions["jax.numpy.arange"] == [0, 1, 2]
    assert positions["jax.numpy.linspace"] == [2]
    assert positions["jax.numpy.eye"] == [0, 1]
    for no_shape in ("jax.numpy.sum", "jax.numpy.unique", "jax.numpy.where", "jax.numpy.zeros_like"):
        assert no_shape not in positions
