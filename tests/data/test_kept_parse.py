"""A kept parse gives back what parsing gives, and is parsed again when what it was made from changed."""
import importlib.util
import json
import sys

import pytest

from flake8_jaxnp import api, datafiles


@pytest.fixture
def kept_beside_bytecode(monkeypatch, tmp_path):
    """Kept parses written (under a folder of the test's own), whatever the shell says."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "pycache"))


def _parser(tmp_path, name, body):
    """A parse function defined in a module file of its own (what ``load`` checks)."""
    path = tmp_path / f"{name}.py"
    path.write_text(f"import json\n\n\ndef parse(text):\n    {body}\n")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.parse


def test_the_kept_api_data_reads_as_parsed(kept_beside_bytecode):
    parsed = api._parse(api.DATA_FILE.read_bytes())
    datafiles.load(api.DATA_FILE, api._parse)  # writes the kept parse
    kept = datafiles.load(api.DATA_FILE, api._parse)
    assert isinstance(kept, datafiles.Tables)
    assert set(kept) == set(parsed)
    for key, value in parsed.items():
        read = kept[key]
        assert (dict(read.items()) if isinstance(read, datafiles.Tables) else read) == value, key


def test_a_changed_parser_parses_again(kept_beside_bytecode, tmp_path, monkeypatch):
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"names": ["a", "b"]}))
    monkeypatch.delitem(sys.modules, "kept_parser", raising=False)
    first = _parser(tmp_path, "kept_parser", "return json.loads(text)")
    assert dict(datafiles.load(data, first)) == {"names": ["a", "b"]}
    assert isinstance(datafiles.load(data, first), datafiles.Tables)  # kept
    derived = _parser(tmp_path, "kept_parser", "return dict(json.loads(text), count=2)")
    assert dict(datafiles.load(data, derived)) == {"names": ["a", "b"], "count": 2}
    data.write_text(json.dumps({"names": ["c"]}))
    assert dict(datafiles.load(data, derived)) == {"names": ["c"], "count": 2}


def test_fails_on_tracer_reads_scipy_only_for_scipy_names():
    assert api.fails_on_tracer("numpy.asarray") == api.data()["numpy_fails_on_tracer"]["numpy.asarray"]
    assert api.fails_on_tracer("scipy.special.hyp2f1") == api.data()["scipy_fails_on_tracer"]["scipy.special.hyp2f1"]
    assert api.fails_on_tracer("jax.numpy.asarray") is None and api.fails_on_tracer("scipy.not_a_function") is None
