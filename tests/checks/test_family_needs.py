"""Rule families that a module must need (``checks.NEEDS``): imported only for a module that
meets its family's need, with the findings of every check run."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

from flake8_jaxnp import linter
from flake8_jaxnp.checks import NEEDS
from flake8_jaxnp.options import Options

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures").rglob("*.py"))
NO_CACHE = Options(cache_dir="")


def _findings(path):
    text = path.read_text(encoding="utf-8")
    return linter.lint(ast.parse(text), text.splitlines(True), NO_CACHE, str(path))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: str(path.relative_to(ROOT)))
def test_needs_give_the_findings_of_every_check(path, monkeypatch):
    monkeypatch.delitem(vars(linter), "CHECKS", raising=False)  # (loaded by another test: every check)
    needed = _findings(path)
    monkeypatch.setitem(vars(linter), "CHECKS", linter._declared_checks())
    assert needed == _findings(path)


def _families_loaded(path):
    """The rule families a lint of ``path``, alone in a process, imports."""
    script = ("import ast, sys\n"
              "from flake8_jaxnp import linter\n"
              "from flake8_jaxnp.options import Options\n"
              f"text = open({str(path)!r}).read()\n"
              f"linter.lint(ast.parse(text), text.splitlines(True), Options(cache_dir=''), {str(path)!r})\n"
              "print(' '.join(m.rpartition('.')[2] for m in sys.modules if m.startswith('flake8_jaxnp.checks.')))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(done.stdout.split())


def test_a_module_that_needs_no_gated_family_loads_none(tmp_path):
    path = tmp_path / "plain.py"
    path.write_text("import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef step(x):\n    return jnp.sum(x)\n")
    loaded = _families_loaded(path)
    assert not loaded & set(NEEDS)
    assert "transfers" in loaded  # (a family with no need)


@pytest.mark.parametrize("family, fixture", [("gradients", "jnp604.py"), ("donation", "jnp605.py"),
                                             ("timing", "jnp603.py")])
def test_a_module_that_meets_a_need_loads_its_family(family, fixture):
    assert family in _families_loaded(ROOT / "fixtures" / fixture)
