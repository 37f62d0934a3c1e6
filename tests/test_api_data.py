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
