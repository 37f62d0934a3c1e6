"""The framework-shaped fixture packages (fixtures/frameworks/: Linen, NNX and Equinox models in
modules of their own, trained from another module). Their marks are checked without the
frameworks by tests/checks/test_fixtures.py; here each package is confirmed at runtime where the
frameworks extra is installed."""
import ast
import importlib.util
import json
import subprocess
import sys

import pytest

from conftest import FIXTURES, ROOT
from expectations import expected_findings

PACKAGES = sorted(path for path in (FIXTURES / "frameworks").iterdir() if (path / "__init__.py").exists())


@pytest.mark.skipif(not all(importlib.util.find_spec(m) for m in ("equinox", "flax")),
                    reason="needs equinox and flax: pip install '.[frameworks]'")
@pytest.mark.parametrize("package", PACKAGES, ids=lambda path: path.name)
def test_framework_fixture_findings_are_confirmed_at_runtime(package):
    result = subprocess.run([sys.executable, "-m", "flake8_jaxnp.confirm", "--format", "json", "--cache-dir", "",
                             str(package)], capture_output=True, text=True, cwd=ROOT)
    report = json.loads(result.stdout)
    marked = {(str(path.resolve()), line, code) for path in package.rglob("*.py")
              for line, code in expected_findings(path)}
    found = {(str((ROOT / row["path"]).resolve()), row["line"], row["codes"][0]): row["verdict"]
             for row in report["results"]}
    assert set(found) == marked
    assert {key: verdict for key, verdict in found.items() if verdict != "confirmed"} == {}
    for path in package.rglob("*.py"):
        negatives = {node.name for node in ast.parse(path.read_text()).body
                     if isinstance(node, ast.FunctionDef) and node.name.startswith("case_ok")}
        noisy = [case["case"] for case in report["cases"]
                 if case["case"] in negatives and case["path"].endswith(path.name) and case["events"]]
        assert noisy == []
    assert result.returncode == 0, result.stderr


def test_every_framework_fixture_package_has_marks_and_cases():
    """A package here exists to show a framework shape: it has findings to confirm and cases to run them."""
    for package in PACKAGES:
        sources = [path.read_text() for path in package.rglob("*.py")]
        assert any("# expect: JNP" in source for source in sources), package.name
        assert any("\ndef case_" in source for source in sources), package.name
