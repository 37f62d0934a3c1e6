"""The framework-shaped pitfalls (tests/frameworks_shapes/: framework code as users write it, not
from public threads) keep the reported set's format: every case and mark says it is a framework
shape, every mark names a rule, every file has a look-alike. What the linter finds there is
measured by ``tests/benchmarks/reported.py --root tests/frameworks_shapes``, not asserted."""
import ast
from pathlib import Path

import pytest

import reported_marks
from flake8_jaxnp.rules import RULES

ROOT = Path(__file__).resolve().parents[1] / "frameworks_shapes"
FILES = reported_marks.case_files(ROOT)
SHAPE = "# framework shape (not a thread)"


def test_the_set_holds_at_least_twenty_pitfalls():
    assert sum(len(reported_marks.marks(path)) for path in FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_every_case_says_it_is_a_framework_shape_and_every_mark_names_a_rule(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    shapes = [number for number, line in enumerate(lines, 1) if line.strip() == SHAPE]
    for line, code, text in reported_marks.marks(path):
        assert code in RULES, f"{path.name}:{line}: '# reported: {text}'"
        assert any(shape < line for shape in shapes), f"{path.name}:{line}: no '{SHAPE}' above it"
    names = [name for name, _, _ in reported_marks.cases(path)]
    assert any(name.startswith("case_ok") for name in names), f"{path.name} has no case_ok_* look-alike"
    for node in ast.parse("\n".join(lines)).body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("case_"):
            assert not (node.args.args or node.args.kwonlyargs or node.args.vararg or node.args.kwarg), node.name
