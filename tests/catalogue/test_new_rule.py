"""``python -m flake8_jaxnp new-rule``, run in a copy of the repository: the registry, catalogue
and fixture tests then fail only on the stubs it wrote, and pass once the stubs are filled."""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from conftest import ROOT
from flake8_jaxnp.scaffold import STUB

CODE, NAME, FAMILY = "JNP699", "toy-pitfall", "keys"
TESTS = ("conftest.py", "benchmarks/corpus.py",  # (conftest asks it where the corpus is)
         "expectations.py", "catalogue/test_catalogue.py", "checks/test_fixtures.py")
FILLED = {  # the catalogue's stub fields, written
    "message": "{what} is a toy pitfall",
    "why": "A toy rule, to show what new-rule leaves to write.",
    "fix": "Call something else.",
    "unconfirmable": "a toy rule: nothing goes wrong at runtime",
}
EXAMPLES = {  # the catalogue's stub programs, written
    "example": "import jax.numpy as jnp\n\n\ndef toy_pitfall(x):\n    return x\n\n\ntoy_pitfall(jnp.zeros(3))",
    "instead": "import jax.numpy as jnp\n\n\ndef toy_safe(x):\n    return x\n\n\ntoy_safe(jnp.zeros(3))",
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


def copy_repository(into):
    """The package, the fixtures and the tests that hold a rule's touchpoints, in ``into``."""
    shutil.copytree(ROOT / "flake8_jaxnp", into / "flake8_jaxnp", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "fixtures", into / "fixtures", ignore=shutil.ignore_patterns("__pycache__"))
    for name in TESTS:
        (into / "tests" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "tests" / name, into / "tests" / name)
    shutil.copy(ROOT / "setup.cfg", into / "setup.cfg")
    return into


@pytest.fixture
def copy(tmp_path):
    return copy_repository(tmp_path)


@pytest.fixture(scope="module")
def untouched(tmp_path_factory):
    """One copy for the refusals, which must leave it as it is."""
    return copy_repository(tmp_path_factory.mktemp("repository"))


def run(root, *args, cwd=None):
    """``python args`` with the copy's package first on the path."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd or root, env=env)


def failures(root):
    """{test id: failure text} of the copy's tests."""
    report = root / "report.xml"
    run(root, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
        *(f"tests/{name}" for name in TESTS if Path(name).name.startswith("test_")))
    failed = {}
    for case in ElementTree.parse(report).iter("testcase"):
        for problem in [*case.iter("failure"), *case.iter("error")]:
            test = f"{case.get('classname').split('.')[-1]}::{case.get('name')}"
            failed[test] = problem.get("message", "") + (problem.text or "")
    return failed


def fill_stubs(root):
    catalogue = root / "flake8_jaxnp" / "catalogue.toml"
    text = catalogue.read_text(encoding="utf-8")
    for field, value in FILLED.items():
        text = re.sub(rf'^{field} = "{re.escape(STUB)}.*"$', f'{field} = "{value}"', text, count=1, flags=re.MULTILINE)
    for field, program in EXAMPLES.items():
        text = re.sub(rf"^({field} = '''\n)# {re.escape(STUB)}.*$", lambda match: match[1] + program, text, count=1,
                      flags=re.MULTILINE)
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
    assert {name: text for name, text in failed.items() if CODE not in name + text and STUB not in text} == {}
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
def test_new_rule_refuses_bad_input_in_one_line_and_writes_nothing(untouched, args, error):
    before = {path: path.read_bytes() for path in untouched.rglob("*") if path.is_file()}
    result = run(untouched, "-m", "flake8_jaxnp", "new-rule", *args)
    assert (result.returncode, result.stdout) == (2, "")
    assert len(result.stderr.splitlines()) == 1 and error in result.stderr, result.stderr
    assert {path: path.read_bytes() for path in untouched.rglob("*") if path.is_file()} == before


def test_new_rule_outside_the_repository_is_refused(untouched, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    result = run(untouched, "-m", "flake8_jaxnp", "new-rule", CODE, NAME, "--family", FAMILY, cwd=elsewhere)
    assert result.returncode == 2 and "is not the flake8-jaxnp repository" in result.stderr
    assert len(result.stderr.splitlines()) == 1 and list(elsewhere.iterdir()) == []
