"""The set of pitfalls users reported (tests/reported/) keeps its format: every case cites the
thread it rebuilds, every mark names a rule (or none), and every file has a look-alike that is
fine. What the linter finds there is measured by tests/benchmarks/reported.py, not asserted."""
import re

import pytest

import reported_marks
from flake8_jaxnp.rules import RULES

FILES = reported_marks.case_files()
IDS = [str(path.relative_to(reported_marks.REPORTED)) for path in FILES]


def _thread_lines(path):
    return [number for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if reported_marks.THREAD.search(line)]


def test_the_set_holds_at_least_sixty_reported_pitfalls():
    codes = [code for path in FILES for _, code, _ in reported_marks.marks(path)]
    assert len(codes) >= 60, len(codes)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_every_mark_names_a_rule_or_none(path):
    for line, code, text in reported_marks.marks(path):
        assert code == reported_marks.NO_RULE or code in RULES, f"{path.name}:{line}: '# reported: {text}'"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_every_case_and_mark_has_a_thread_address_above_it(path):
    threads = _thread_lines(path)
    places = [(name, line) for name, line, _ in reported_marks.cases(path) if not name.startswith("case_ok")]
    places += [(f"# reported: {text}", line) for line, _, text in reported_marks.marks(path)]
    for what, line in places:
        assert any(thread < line for thread in threads), f"{path.name}:{line}: {what} cites no thread above it"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_every_file_with_cases_has_a_look_alike(path):
    names = [name for name, _, _ in reported_marks.cases(path)]
    if any(not name.startswith("case_ok") for name in names):
        assert any(name.startswith("case_ok") for name in names), f"{path.name} has no case_ok_* look-alike"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_cases_take_no_arguments_and_marks_are_not_expectations(path):
    import ast
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("case_"):
            args = node.args
            assert not (args.args or args.posonlyargs or args.kwonlyargs or args.vararg or args.kwarg), node.name
    assert not re.search(r"#\s*expect:", path.read_text(encoding="utf-8")), "use '# reported:', not '# expect:'"
