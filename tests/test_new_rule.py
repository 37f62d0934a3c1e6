"""``python -m flake8_jaxnp new-rule``, run in a copy of the repository: the registry, catalogue
and fixture tests then fail only on the stubs it wrote, and pass once the stubs are filled."""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from conftest import ROOT
from flake8_jaxnp.scaffold import STUB

CODE, NAME, FAMILY = "JNP699", "toy-pitfall", "keys"
TESTS = ("conftest.py", "expectations.py", "test_catalogue.py", "test_fixtures.py")
FILLED = {  # the catalogue's stub fields, written
    "message": "{what} is a toy pitfall",
    "why": "A toy rule, to show what new-rule leaves to write.",
    "fix": "Call something else.",
    "unconfirmable": "a toy rule: nothing goes wrong at runtime",
}
CHECK = f'''def toy_pitfall(model):
    """{CODE}: a call of toy_pitfall()."""
    for call in model.nodes(ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id == "toy_pitfall":
            yield Finding.at(call, "{CODE}", {{"what": "toy_pitfall()"}})
'''
FIXTURE = f'''"""{CODE} ({NAME}): a call of toy_pitfall()."""
import jax.numpy as jnp


def toy_pitfall(x):
    return x


def toy_safe(x):
    return x


def case_toy_pitfall():
    return toy_pitfall(jnp.zeros(3))  # expect: {CODE}


def case_ok_toy_pitfall():
    return toy_safe(jnp.zeros(3))
'''


@pytest.fixture
def copy(tmp_path):
    """The package, the fixtures and the tests that hold a rule's touchpoints, in ``tmp_path``."""
    shutil.copytree(ROOT / "flake8_jaxnp", tmp_path / "flake8_jaxnp", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "fixtures", tmp_path / "fixtures", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "tests").mkdir()
    for name in TESTS:
        shutil.copy(ROOT / "tests" / name, tmp_path / "tests" / name)
    shutil.copy(ROOT / "setup.cfg", tmp_path / "setup.cfg")
    return tmp_path


def run(root, *args, cwd=None):
    """``python args`` with the copy's package first on the path."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd or root, env=env)


def failures(root):
    """{test id: failure text} of the copy's tests."""
    report = root / "report.xml"
    run(root, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
        *(f"tests/{name}" for name in TESTS if name.startswith("test_")))
    failed = {}
    for case in ElementTree.parse(report).iter("testcase"):
        for problem in [*case.iter("failure"), *case.iter("error")]:
            failed[f"{case.get('classname').split('.')[-1]}::{case.get('name')}"] = problem.get("message", "") + (problem.text or "")
    return failed


def fill_stubs(root):
    catalogue = root / "flake8_jaxnp" / "catalogue.toml"
    text = catalogue.read_text(encoding="utf-8")
    for field, value in FILLED.items():
        text = re.sub(rf'^{field} = "{re.escape(STUB)}.*"$', f'{field} = "{value}"', text, count=1, flags=re.MULTILINE)
    catalogue.write_text(text, encoding="utf-8")
    module = root / "flake8_jaxnp" / "checks" / f"{FAMILY}.py"
    text = module.read_text(encoding="utf-8")
    module.write_text(text[:text.index("def toy_pitfall(model):")] + CHECK, encoding="utf-8")
    (root / "fixtures" / f"{CODE.lower()}.py").write_text(FIXTURE, encoding="utf-8")


def test_new_rule_stubs_fail_only_where_they_are_and_pass_once_filled(copy):
    made = run(copy, "-m", "flake8_jaxnp", "new-rule", CODE, NAME, "--family", FAMILY)
    assert made.returncode == 0, made.stderr
    failed = failures(copy)
    stub_tests = {"test_catalogue::test_no_catalogue_entry_is_a_new_rule_stub",
                  "test_catalogue::test_no_check_is_a_new_rule_stub",
                  "test_fixtures::test_no_fixture_is_a_new_rule_stub"}
    assert stub_tests <= set(failed), sorted(failed)
    assert {name: text for name, text in failed.items() if CODE not in text and STUB not in text} == {}
    fill_stubs(copy)
    assert failures(copy) == {}


@pytest.mark.parametrize("args, error", [
    ((CODE, NAME, "--family", "nowhere"), "unknown family 'nowhere'"),
    (("JNP601", NAME, "--family", FAMILY), "JNP601 is already in"),
    (("JNP6", NAME, "--family", FAMILY), "malformed code 'JNP6'"),
    ((CODE, "Toy Pitfall", "--family", FAMILY), "malformed name"),
    ((CODE, "prng-key-reuse", "--family", FAMILY), "is already a rule's"),
    ((CODE, "numpy-only-apis", "--family", "api_usage"), "already defines numpy_only_apis"),
    ((CODE, NAME, "--family", FAMILY, "--evidence", "nothing"), "unknown evidence kind 'nothing'"),
])
def test_new_rule_refuses_bad_input_in_one_line_and_writes_nothing(copy, args, error):
    before = {path: path.read_bytes() for path in copy.rglob("*") if path.is_file()}
    result = run(copy, "-m", "flake8_jaxnp", "new-rule", *args)
    assert (result.returncode, result.stdout) == (2, "")
    assert len(result.stderr.splitlines()) == 1 and error in result.stderr, result.stderr
    assert {path: path.read_bytes() for path in copy.rglob("*") if path.is_file()} == before


def test_new_rule_outside_the_repository_is_refused(copy, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    result = run(copy, "-m", "flake8_jaxnp", "new-rule", CODE, NAME, "--family", FAMILY, cwd=elsewhere)
    assert result.returncode == 2 and "is not the flake8-jaxnp repository" in result.stderr
    assert len(result.stderr.splitlines()) == 1 and list(elsewhere.iterdir()) == []
