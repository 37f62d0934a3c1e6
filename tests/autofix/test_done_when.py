"""The issue's done-when: one file with the catalogue example of every fixable rule. With
--unsafe-fixes no finding of those rules is left, the file runs and gives what the rules'
``instead`` code gives, and a second run changes nothing; without it only the safe fixes
are applied."""
import ast

import pytest

from snippet_runs import run_snippets
from test_proofs import FIXABLE, NO_CACHE, fix_with_the_tool
from flake8_jaxnp.autofix import fix_safety
from flake8_jaxnp.linter import lint
from flake8_jaxnp.rules import RULES


def one_file(part):
    """The ``part`` ("example" or "instead") of every fixable rule, one after the other, imports first."""
    imports, bodies = set(), []
    for code in FIXABLE:
        lines = getattr(RULES[code], part).splitlines()
        imports |= {line for line in lines if line.startswith(("import ", "from "))}
        body = "\n".join(line for line in lines if not line.startswith(("import ", "from "))).strip()
        bodies.append(f"# {code}\n{body}\n")
    return "\n".join(sorted(imports)) + "\n\n\n" + "\n\n".join(bodies)


def codes(source):
    return {f.code for f in lint(ast.parse(source), source.splitlines(True), NO_CACHE)}


@pytest.fixture(scope="module")
def example():
    source = one_file("example")
    assert codes(source) == set(FIXABLE)  # every fixable rule fires in the one file
    return source


def test_unsafe_fixes_leave_no_finding_and_the_file_gives_the_reference_values(example, tmp_path):
    fixed, status = fix_with_the_tool(example, "--unsafe-fixes")
    assert (status, codes(fixed)) == (0, set())
    assert fix_with_the_tool(fixed, "--unsafe-fixes") == (fixed, 0)  # a second run changes nothing
    pytest.importorskip("jax")
    outcome = run_snippets({"example": example, "fixed": fixed, "instead": one_file("instead")}, tmp_path)
    assert outcome["example"]["raised"] != "" and outcome["fixed"]["raised"] == ""
    assert outcome["fixed"]["printed"] == outcome["instead"]["printed"]
    assert outcome["fixed"]["arrays"] == outcome["instead"]["arrays"]


def test_without_unsafe_fixes_only_the_safe_fixes_are_applied(example):
    fixed, status = fix_with_the_tool(example)
    unsafe = {code for code in FIXABLE if fix_safety(code) == "unsafe"}
    assert unsafe and unsafe != set(FIXABLE)
    assert (status, codes(fixed)) == (1, unsafe)
