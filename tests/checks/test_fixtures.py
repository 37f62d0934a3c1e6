"""Every fixture, linted through flake8 itself, draws exactly its ``# expect:`` marks."""
import ast
import subprocess
import sys
from collections import defaultdict

import pytest

from conftest import FIXTURES, ROOT
from expectations import expected_findings
from flake8_jaxnp import linter
from flake8_jaxnp.rules import RULES, SELECT_EVERY_RULE
from flake8_jaxnp.scaffold import STUB

# One file per rule, plus a small package whose modules see each other (fixtures/mypkg).
FIXTURE_FILES = sorted(FIXTURES.rglob("*.py"))


@pytest.fixture(scope="module")
def flake8_findings():
    """{fixture path: {(line, code)}} from one flake8 run over fixtures/ (every rule: the ones off by
    default are named)."""
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", SELECT_EVERY_RULE,
         "--format", "%(path)s\t%(row)d\t%(code)s", str(FIXTURES)],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert result.returncode in (0, 1), result.stderr
    found = defaultdict(set)
    for line in result.stdout.splitlines():
        path, row, code = line.split("\t")
        found[str((ROOT / path).resolve())].add((int(row), code))
    return found


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_findings_match_marks(fixture, flake8_findings):
    expected = expected_findings(fixture)
    actual = flake8_findings.get(str(fixture.resolve()), set())
    assert sorted(actual - expected) == [], "findings without an # expect: mark"
    assert sorted(expected - actual) == [], "# expect: marks without a finding"


@pytest.mark.parametrize("code", sorted(c for c in RULES if c != linter.INTERNAL_ERROR))
def test_every_rule_has_positive_and_negative_fixture(code):
    fixture = FIXTURES / f"{code.lower()}.py"
    assert fixture.exists(), f"{code} has no fixture file {fixture.name}"
    assert any(c == code for _, c in expected_findings(fixture)), f"{fixture.name} marks no {code}"
    functions = [n.name for n in ast.parse(fixture.read_text()).body if isinstance(n, ast.FunctionDef)]
    assert any(name.startswith("case_ok") for name in functions), f"{fixture.name} has no case_ok_* negative"
    assert any(name.startswith("case_") and not name.startswith("case_ok") for name in functions)


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=lambda p: p.name)
def test_fixture_cases_take_no_arguments(fixture):
    tree = ast.parse(fixture.read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("case_"):
            args = node.args
            assert not (args.args or args.posonlyargs or args.kwonlyargs or args.vararg or args.kwarg), node.name


def test_no_fixture_is_a_new_rule_stub():
    """new-rule writes a fixture whose cases say what to write; each must be written."""
    stubs = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}" for path in FIXTURE_FILES
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if STUB in line]
    assert not stubs, "write these fixture cases:\n" + "\n".join(stubs)
