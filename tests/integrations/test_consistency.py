"""The same file gets the same findings however flake8 is run.

Parallel (``-j 2``) and serial (``-j 1``) runs agree, and a file piped through
stdin (what editors do) gets exactly what it gets from disk.
"""
import re

import pytest

from conftest import FIXTURES, ROOT
from flake8_jaxnp.rules import OFF_BY_DEFAULT
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


def test_the_lint_figure_in_the_docs_is_a_run_of_its_command(fixture_runs):
    """docs/figures.md's current lint figure is what `flake8 --select JNP,E9 fixtures/` prints now
    (every rule but those off by default: the fixtures all parse, so E9 adds nothing)."""
    _, serial, _ = fixture_runs
    text = (ROOT / "docs" / "figures.md").read_text(encoding="utf-8")
    [stated] = re.findall(r"\| lint the fixtures \| `flake8 --select JNP,E9 fixtures/` \| (\d+) lines \|", text)
    assert int(stated) == sum(line.split()[1] not in OFF_BY_DEFAULT for line in serial)
