"""Rules that a module must need (the catalogue's ``needs``): a family is imported, and a check
run, only for a module that meets the need of one of their rules, with the findings of every check run."""
import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from flake8_jaxnp import checks, linter, rules
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
    path.write_text("import jax.numpy as jnp\n\n\ndef total(x):\n    return jnp.sum(x)\n")
    gated = {family for family, needs in rules.families().items() if all(needs.values())}
    loaded = _families_loaded(path)
    assert gated and not loaded & gated
    assert "donating_objects" not in loaded  # (it declares no rule: the donation family imports it)
    assert "transfers" in loaded  # (a family with no need)


def test_the_catalogue_names_each_check_module_with_the_rules_its_checks_emit():
    """What the linter reads without importing a family (``rules.families``) is what the family declares."""
    modules = sorted(path.stem for path in Path(checks.__file__).parent.glob("*.py") if path.stem != "__init__")
    declared = {}
    for module in modules:
        found = vars(importlib.import_module(f"flake8_jaxnp.checks.{module}")).values()
        codes = {code for value in found if callable(value) and hasattr(value, "codes")
                 and value.__module__.endswith(f".{module}") for code in value.codes}
        if codes:
            declared[module] = codes
    assert {family: set(needs) for family, needs in rules.families().items()} == declared


def test_every_need_is_a_function_of_the_checks():
    needs = {need for codes in rules.families().values() for need in codes.values() if need}
    assert needs and all(callable(getattr(checks, need, None)) for need in needs)


@pytest.mark.parametrize("family, fixture", [("gradients", "jnp604.py"), ("donation", "jnp605.py"),
                                             ("timing", "jnp603.py"), ("performance", "jnp602.py"),
                                             ("side_effects", "jnp301.py")])
def test_a_module_that_meets_a_need_loads_its_family(family, fixture):
    assert family in _families_loaded(ROOT / "fixtures" / fixture)
