"""Fixture pairs: each ``pairs/jnpNNN.py`` fixed by the command gives ``jnpNNN.fixed.py``
(read by hand), statement shapes of every kind (loops, jitted functions, methods, comments
on the line, calls over several lines); a second run changes nothing, and what the fix
leaves is only what the pair marks ``no fix``."""
import ast
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import FIXTURES
from flake8_jaxnp.autofix import FIXERS, fix_safety
from flake8_jaxnp.linter import lint
from flake8_jaxnp.options import Options

PAIRS = Path(__file__).with_name("pairs")
BEFORE = sorted(path for path in PAIRS.glob("jnp*.py") if not path.name.endswith(".fixed.py"))


def fix(*args, cwd):
    result = subprocess.run([sys.executable, "-m", "flake8_jaxnp", "fix", "--isolated", "--jaxnp-cache-dir", "",
                             *args], capture_output=True, text=True, cwd=cwd, timeout=120)
    assert result.returncode in (0, 1) and "Traceback" not in result.stderr, result.stderr
    return result


def fixed_name(path):
    return path.with_name(path.stem + ".fixed.py").name


def test_every_fixable_rule_has_a_pair():
    assert sorted(path.stem.upper() for path in BEFORE) == sorted(FIXERS)


@pytest.fixture(scope="module")
def fixed_copies(tmp_path_factory):
    """The pairs' before files, copied and fixed in place by one run over the folder."""
    folder = tmp_path_factory.mktemp("pairs")
    for path in BEFORE:
        shutil.copy(path, folder / path.name)
    fix("--unsafe-fixes", ".", cwd=folder)
    return folder


@pytest.mark.parametrize("before", BEFORE, ids=[path.stem for path in BEFORE])
def test_the_command_fixes_the_file_as_the_pair_says(fixed_copies, before):
    assert (fixed_copies / before.name).read_text() == (PAIRS / fixed_name(before)).read_text()


@pytest.mark.parametrize("before", BEFORE, ids=[path.stem for path in BEFORE])
def test_what_is_left_is_only_what_the_pair_marks_no_fix(before):
    fixed = (PAIRS / fixed_name(before)).read_text()
    compile(fixed, fixed_name(before), "exec")
    code = before.stem.upper()
    left = {f.line for f in lint(ast.parse(fixed), fixed.splitlines(True), Options(cache_dir="")) if f.code == code}
    marked = {number for number, line in enumerate(fixed.splitlines(), 1) if "no fix" in line}
    assert left == marked
    assert before.read_text().count("no fix") == len(marked)


def test_without_unsafe_fixes_what_is_left_is_the_unsafe_fixes_and_what_has_none(tmp_path):
    """A safe rule's pair: its findings left are on the lines marked ``no fix`` or ``an unsafe fix``
    (an unsafe shape of its fix); an unsafe rule's pair keeps every finding of its rule."""
    for path in BEFORE:
        shutil.copy(path, tmp_path / path.name)
    fix(".", cwd=tmp_path)
    for before in BEFORE:
        code, text = before.stem.upper(), (tmp_path / before.name).read_text()
        left = [f.line for f in _findings(text) if f.code == code]
        if fix_safety(code) == "unsafe":
            assert len(left) == sum(f.code == code for f in _findings(before.read_text())), code
        else:
            marked = {number for number, line in enumerate(text.splitlines(), 1)
                      if "no fix" in line or "an unsafe fix" in line}
            assert set(left) == marked, code


def _findings(text):
    return lint(ast.parse(text), text.splitlines(True), Options(cache_dir=""))


def test_a_second_run_changes_nothing(fixed_copies):
    again = fix("--unsafe-fixes", "--diff", ".", cwd=fixed_copies)
    assert again.stdout == ""
    assert again.stderr.splitlines()[-1].endswith("would fix 0 findings in 0 files")


def findings_by_file_and_rule(root):
    found = Counter()
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        found.update((path.relative_to(root).as_posix(), f.code)
                     for f in lint(tree, text.splitlines(True), Options(cache_dir=""), str(path)))
    return found


def test_fixing_the_fixture_suite_breaks_no_file_and_brings_out_no_other_finding(tmp_path):
    """The fixtures hold the shapes every rule was written for: fixing them all must leave
    each file compiling, each other rule's findings as they were, and fewer of the fixed ones."""
    root = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, root)
    before = findings_by_file_and_rule(root)
    fix("--unsafe-fixes", "--select", "JNP", ".", cwd=root)
    for path in root.rglob("*.py"):
        if path.read_bytes() != (FIXTURES / path.relative_to(root)).read_bytes():
            compile(path.read_text(encoding="utf-8"), str(path), "exec")
    after = findings_by_file_and_rule(root)
    assert {key: n for key, n in after.items() if key[1] not in FIXERS} == \
        {key: n for key, n in before.items() if key[1] not in FIXERS}
    assert {key: (before[key], n) for key, n in after.items() if n > before[key]} == {}
    fixed = {code: sum(before[key] - after[key] for key in before if key[1] == code) for code in FIXERS}
    assert {code: n for code, n in fixed.items() if n == 0} == {}
