"""The project-shape set (tests/project_shapes/) keeps the reported set's format, with "project
shape (not a thread)" where the reported set cites a thread. What the linter finds there is
measured by tests/benchmarks/reported.py --root tests/project_shapes, not asserted."""
import pytest

import reported_marks
from flake8_jaxnp.rules import RULES

ROOT = reported_marks.REPORTED.parent / "project_shapes"
FILES = reported_marks.case_files(ROOT)
SHAPE = "project shape (not a thread)"


def test_the_set_holds_at_least_twenty_pitfalls():
    assert len([code for path in FILES for _, code, _ in reported_marks.marks(path)]) >= 20


@pytest.mark.parametrize("path", FILES, ids=[str(path.relative_to(ROOT)) for path in FILES])
def test_every_mark_names_a_rule_and_says_it_is_a_project_shape(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    names = [name for name, _, _ in reported_marks.cases(path)]
    for line, code, text in reported_marks.marks(path):
        assert code in RULES, f"{path.name}:{line}: '# reported: {text}'"
        assert any(SHAPE in above for above in lines[:line]), f"{path.name}:{line} says no '{SHAPE}' above it"
    if any(not name.startswith("case_ok") for name in names):
        assert any(name.startswith("case_ok") for name in names), f"{path.name} has no case_ok_* look-alike"
