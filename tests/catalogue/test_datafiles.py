"""The data files' parse is kept beside the bytecode and used only for the same text."""
import json
import os
import sys

import pytest

from flake8_jaxnp import datafiles


@pytest.fixture
def writes_bytecode(monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(sys, "pycache_prefix", None)


def counting(parse):
    calls = []

    def counted(text):
        calls.append(text)
        return parse(text)
    return counted, calls


def test_the_kept_parse_serves_the_same_text_and_a_change_is_parsed_again(tmp_path, writes_bytecode):
    data = tmp_path / "facts.json"
    data.write_text('{"a": [1, 2]}')
    parse, calls = counting(json.loads)
    assert datafiles.load(data, parse) == {"a": [1, 2]}
    assert datafiles.load(data, parse) == {"a": [1, 2]}
    assert len(calls) == 1 and list((tmp_path / "__pycache__").iterdir())
    data.write_text('{"a": [1, 3]}')  # the same size: the text itself is compared
    assert datafiles.load(data, parse) == {"a": [1, 3]}
    assert len(calls) == 2


def test_a_settled_kept_parse_is_served_by_the_files_times_without_reading_them(tmp_path, writes_bytecode,
                                                                               monkeypatch):
    data = tmp_path / "facts.json"
    data.write_text('{"a": [1, 2]}')
    os.utime(data, ns=(10**9, 10**9))  # older than the kept file: settled
    parse, calls = counting(json.loads)
    datafiles.load(data, parse)
    monkeypatch.setattr(datafiles, "_digest", lambda data: pytest.fail("a settled kept parse hashed a file"))
    assert datafiles.load(data, parse) == {"a": [1, 2]} and len(calls) == 1


def test_a_change_within_the_kept_files_tick_is_parsed_again(tmp_path, writes_bytecode):
    data = tmp_path / "facts.json"
    data.write_text('{"a": [1, 2]}')
    tick = 2**62  # (a time not older than the kept file's: its size and time cannot tell a change)
    os.utime(data, ns=(tick, tick))
    parse, calls = counting(json.loads)
    datafiles.load(data, parse)
    data.write_text('{"a": [1, 3]}')
    os.utime(data, ns=(tick, tick))
    assert datafiles.load(data, parse) == {"a": [1, 3]} and len(calls) == 2


def test_a_damaged_kept_parse_is_parsed_again(tmp_path, writes_bytecode):
    data = tmp_path / "facts.json"
    data.write_text('{"a": 1}')
    datafiles.load(data, json.loads)
    [kept] = (tmp_path / "__pycache__").iterdir()
    kept.write_bytes(b"\x00damaged")
    parse, calls = counting(json.loads)
    assert datafiles.load(data, parse) == {"a": 1} and len(calls) == 1


def test_nothing_is_kept_where_python_keeps_no_bytecode(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    data = tmp_path / "facts.json"
    data.write_text('{"a": 1}')
    assert datafiles.load(data, json.loads) == {"a": 1}
    assert not (tmp_path / "__pycache__").exists()


def test_an_unwritable_folder_only_means_parsing_again(tmp_path, writes_bytecode):
    data = tmp_path / "facts.json"
    data.write_text('{"a": 1}')
    (tmp_path / "__pycache__").write_text("a file where the folder would be")
    parse, calls = counting(json.loads)
    assert datafiles.load(data, parse) == {"a": 1}
    assert datafiles.load(data, parse) == {"a": 1} and len(calls) == 2


def test_the_kept_parse_reads_each_table_and_each_entry_of_a_large_one_as_parsed(tmp_path, writes_bytecode):
    names = {f"jax.name{index}": {"last": "0.4.1", "raises": index % 2 == 0} for index in range(1001)}
    data = tmp_path / "facts.json"
    data.write_text(json.dumps({"removed": names, "small": {"a": [1, 2]}, "list": ["x", "y"]}))
    parsed = datafiles.load(data, json.loads)
    kept = datafiles.load(data, json.loads)
    assert type(kept) is not dict and kept == parsed
    assert kept["removed"]["jax.name7"] == {"last": "0.4.1", "raises": False}
    assert "jax.name1000" in kept["removed"] and "jax.name1001" not in kept["removed"]
    assert sorted(kept["removed"]) == sorted(names) and kept["small"] == {"a": [1, 2]} and kept["list"] == ["x", "y"]
    assert kept.get("absent", {}) == {}
