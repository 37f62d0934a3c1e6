"""``record.Record``: the plugin's records behave as the dataclasses they replaced."""
import pickle

import pytest

from flake8_jaxnp.findings import Finding
from flake8_jaxnp.model.kinds import JAX, Shaped, Value
from flake8_jaxnp.model.traced import Behaviour, TracedFunction, Transform
from flake8_jaxnp.options import DEFAULT, Options


def test_equal_and_hashed_by_class_and_fields():
    assert Value(JAX) == Value(JAX, None, False) and hash(Value(JAX)) == hash(Value(JAX))
    assert Value(JAX) != Shaped(JAX)  # a subclass with the same first fields is another value
    assert len({Transform("jax.jit", Behaviour.STAGING), Transform("jax.jit", Behaviour.STAGING, root=None)}) == 1


def test_findings_sort_by_position_then_code():
    found = [Finding(3, 0, "JNP101"), Finding(1, 4, "JNP202"), Finding(1, 4, "JNP201")]
    assert [(f.line, f.code) for f in sorted(found)] == [(1, "JNP201"), (1, "JNP202"), (3, "JNP101")]


def test_frozen_records_refuse_assignment():
    with pytest.raises(AttributeError):
        Value(JAX).dtype = "float32"
    with pytest.raises(AttributeError):
        del DEFAULT.x64


def test_fields_defaults_and_errors():
    assert Options.FIELDS == ("extra_transforms", "x64", "cache_dir", "silenced")
    assert Options(x64=True).replace(cache_dir="").values() == ((), True, "", frozenset())
    with pytest.raises(TypeError):
        Finding(1, 0)  # no code
    with pytest.raises(TypeError):
        Options(x32=True)
    with pytest.raises(TypeError):
        Finding(1, 0, "JNP101", line=2)


def test_a_mutable_record_is_equal_by_fields_and_unhashable():
    first, second = TracedFunction("f"), TracedFunction("f")
    first.traced_params.add("x")
    assert first != second
    second.traced_params |= {"x"}
    assert first == second
    with pytest.raises(TypeError):
        hash(first)


def test_records_survive_pickling():
    for record in (Shaped(JAX, members=(("attr", Value(JAX)),), container="object"), Options(x64=True),
                   Finding(2, 1, "JNP101", (("name", "x"),))):
        assert pickle.loads(pickle.dumps(record)) == record
