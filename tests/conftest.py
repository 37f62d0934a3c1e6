import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def lint_source():
    """Lint a source string through the linter (what flake8 calls); returns (line, code) pairs."""
    from flake8_jaxnp.linter import lint
    from flake8_jaxnp.options import DEFAULT

    def run(source, options=DEFAULT):
        return [(finding.line, finding.code) for finding in lint(ast.parse(source), source.splitlines(True), options)]

    return run


@pytest.fixture
def lint_body(lint_source):
    """Lint ``header + body``; (line counted from the body's first line, code) for ``codes``."""
    def run(header, body, *codes):
        offset = header.count("\n")
        return sorted((line - offset, code) for line, code in lint_source(header + body) if code in codes)

    return run
