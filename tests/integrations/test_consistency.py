"""The same file gets the same findings however flake8 is run.

Parallel (``-j 2``) and serial (``-j 1``) runs agree, and a file piped through
stdin (what editors do) gets exactly what it gets from disk.
"""
import pytest

from conftest import FIXTURES
from flake8_runs import serial_and_parallel, stdin_mismatches


@pytest.fixture(scope="module")
def fixture_runs():
    paths = sorted(FIXTURES.rglob("*.py"))  # the package fixtures/mypkg too
    return paths, *serial_and_parallel(FIXTURES, paths)


def test_parallel_and_serial_runs_agree_on_fixtures(fixture_runs):
    _, serial, parallel = fixture_runs
    assert serial, "the fixtures produce findings"
    assert parallel == serial


def test_stdin_and_file_agree_on_fixtures(fixture_runs):
    paths, serial, _ = fixture_runs
    assert stdin_mismatches(FIXTURES, paths, serial) == []
