"""The fix command: what flake8 reports is what it fixes; exit codes; one-line errors."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from flake8_jaxnp.autofix import cli

SAFE = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    x = jnp.zeros(3)
    x[0] = 1.0
    y = jax.tree_map(lambda v: v + 1, [1, 2])
""")
SAFE_FIXED = SAFE.replace("x[0] = 1.0", "x = x.at[0].set(1.0)").replace("jax.tree_map", "jax.tree.map")
ROOT = Path(__file__).resolve().parents[2]
UNFIXABLE = "import jax\n\nkeys = jax.random.shuffle(jax.random.PRNGKey(0), jax.numpy.arange(3))\n"
UNSAFE = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp
    import numpy as np


    @jax.jit
    def f(x):
        y = jnp.zeros(3)
        y[0] = 1.0
        return np.tanh(x) + y
""")


def fix(*args, cwd, stdin=None):
    result = subprocess.run([sys.executable, "-m", "flake8_jaxnp", "fix", "--isolated", "--jaxnp-cache-dir", "",
                             *args], capture_output=True, text=True, cwd=cwd, input=stdin, timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def test_fixes_the_files_and_exits_0_when_nothing_is_left(tmp_path):
    (tmp_path / "a.py").write_text(SAFE)
    (tmp_path / "clean.py").write_text("import jax\n")
    result = fix(".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "a.py").read_text() == SAFE_FIXED
    assert (tmp_path / "clean.py").read_text() == "import jax\n"
    assert result.stderr.splitlines()[-1] == "python -m flake8_jaxnp fix: fixed 2 findings in 1 file"


def test_exits_1_when_a_finding_without_a_fix_remains_and_still_fixes_the_others(tmp_path):
    (tmp_path / "a.py").write_text(SAFE)
    (tmp_path / "b.py").write_text(UNFIXABLE)
    result = fix("a.py", "b.py", cwd=tmp_path)
    assert result.returncode == 1
    assert (tmp_path / "a.py").read_text() == SAFE_FIXED
    assert (tmp_path / "b.py").read_text() == UNFIXABLE


def test_check_and_diff_write_nothing_and_exit_1_when_a_fix_is_available(tmp_path):
    (tmp_path / "a.py").write_text(SAFE)
    check = fix("--check", "a.py", cwd=tmp_path)
    diff = fix("--diff", "a.py", cwd=tmp_path)
    assert (check.returncode, diff.returncode) == (1, 1)
    assert check.stdout == ""
    assert (tmp_path / "a.py").read_text() == SAFE
    patched = subprocess.run(["patch", "-p1", "--dry-run"], input=diff.stdout, capture_output=True, text=True,
                             cwd=tmp_path)
    assert patched.returncode == 0, patched.stdout + patched.stderr
    subprocess.run(["patch", "-p1", "--quiet"], input=diff.stdout, check=True, text=True, cwd=tmp_path)
    assert (tmp_path / "a.py").read_text() == SAFE_FIXED
    assert fix("--check", "a.py", cwd=tmp_path).returncode == 0


def test_a_diff_of_the_current_folder_is_one_git_apply_takes(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.py").write_text(SAFE)
    subprocess.run(["git", "init", "-q"], check=True, cwd=tmp_path)
    diff = fix("--diff", ".", cwd=tmp_path)
    assert diff.stdout.startswith("--- a/sub/a.py\n+++ b/sub/a.py\n")
    subprocess.run(["git", "apply", "-p1", "-"], input=diff.stdout, check=True, text=True, cwd=tmp_path)
    assert (tmp_path / "sub" / "a.py").read_text() == SAFE_FIXED


def test_unsafe_fixes_only_when_asked_for(tmp_path):
    (tmp_path / "f.py").write_text(UNSAFE)
    safe_only = fix("f.py", cwd=tmp_path)
    assert safe_only.returncode == 1  # np.tanh is left: its fix is unsafe
    assert "y = y.at[0].set(1.0)" in (tmp_path / "f.py").read_text()
    assert "np.tanh(x)" in (tmp_path / "f.py").read_text()
    assert safe_only.stderr.splitlines()[-1] == (
        "python -m flake8_jaxnp fix: fixed 1 finding in 1 file; 1 more with --unsafe-fixes "
        "(they may change behaviour beyond the pitfall: read the diff)")
    unsafe = fix("--unsafe-fixes", "f.py", cwd=tmp_path)
    assert unsafe.returncode == 0
    assert "jnp.tanh(x)" in (tmp_path / "f.py").read_text()
    assert unsafe.stderr.splitlines()[-1] == "python -m flake8_jaxnp fix: fixed 1 finding in 1 file"


def test_stdin_is_fixed_to_stdout(tmp_path):
    result = fix("-", cwd=tmp_path, stdin=SAFE)
    assert (result.returncode, result.stdout) == (0, SAFE_FIXED)
    unchanged = fix("-", cwd=tmp_path, stdin=UNFIXABLE)
    assert (unchanged.returncode, unchanged.stdout) == (1, UNFIXABLE)


def test_stdin_that_does_not_parse_is_written_back_unchanged_with_its_own_status(tmp_path):
    broken = "import jax\nx = jax.tree_map(\n"
    result = subprocess.run([sys.executable, "-m", "flake8_jaxnp", "fix", "--isolated", "--jaxnp-cache-dir", "",
                             "--stdin-display-name", "src/edited.py", "-"], capture_output=True, cwd=tmp_path,
                            input=broken.encode(), timeout=120)
    assert (result.returncode, result.stdout) == (cli.NOT_FIXED, broken.encode())
    assert result.stderr.decode().splitlines()[0].startswith(
        "python -m flake8_jaxnp fix: src/edited.py: not fixed: it does not parse (SyntaxError: ")
    assert fix("--diff", "-", cwd=tmp_path, stdin=broken).stdout == ""  # a diff of nothing


def test_the_exit_statuses_are_in_the_help_and_the_documentation(tmp_path):
    documented = (ROOT / "docs" / "fixes.md").read_text(encoding="utf-8")
    for status in (0, cli.FINDINGS_LEFT, cli.USAGE_ERROR, cli.NOT_FIXED):
        assert f"\n| {status} | " in documented
    assert " ".join(fix("--help", cwd=tmp_path).stdout.split()).endswith(
        " ".join(f"Exit status: {cli.EXIT_STATUSES}.".split()))


@pytest.mark.parametrize("args, message", [
    (["--no-such-option"], "unrecognized arguments: --no-such-option"),
    (["-", "a.py"], "- (stdin) cannot be combined with paths"),
    (["--max-line-length", "many"], "argument --max-line-length: invalid int value: 'many'"),
])
def test_a_usage_error_is_one_line_and_exit_2(tmp_path, args, message):
    (tmp_path / "a.py").write_text(SAFE)
    result = fix(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"python -m flake8_jaxnp fix: {message}"]
    assert (tmp_path / "a.py").read_text() == SAFE


def test_a_file_that_does_not_parse_is_reported_and_left_alone(tmp_path):
    (tmp_path / "a.py").write_text(SAFE)
    (tmp_path / "broken.py").write_text("import jax\nx = jax.tree_map(\n")
    result = fix(".", cwd=tmp_path)
    assert result.returncode == cli.NOT_FIXED
    assert (tmp_path / "broken.py").read_text() == "import jax\nx = jax.tree_map(\n"
    assert (tmp_path / "a.py").read_text() == SAFE_FIXED
    assert result.stderr.splitlines()[0].startswith(
        "python -m flake8_jaxnp fix: ./broken.py: not fixed: it does not parse (SyntaxError: ")


def test_a_file_that_cannot_be_written_is_reported_and_the_others_are_fixed(tmp_path, monkeypatch, capsys):
    (tmp_path / "a.py").write_text(SAFE)
    (tmp_path / "b.py").write_text(SAFE)
    os.chmod(tmp_path / "b.py", 0o640)
    replace = os.replace

    def refuse_a(source, target):
        if os.path.basename(target) == "a.py":
            raise OSError(30, "Read-only file system", target)
        replace(source, target)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "replace", refuse_a)
    assert cli.main(["--isolated", "--jaxnp-cache-dir", "", "a.py", "b.py"]) == cli.NOT_FIXED
    assert (tmp_path / "a.py").read_text() == SAFE
    assert (tmp_path / "b.py").read_text() == SAFE_FIXED
    assert oct(os.stat(tmp_path / "b.py").st_mode & 0o777) == oct(0o640)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.py", "b.py"]  # no temporary file left
    assert capsys.readouterr().err.splitlines() == [
        "flake8-jaxnp-fix: a.py: cannot write the fixes (Read-only file system)",
        "flake8-jaxnp-fix: fixed 2 findings in 1 file"]  # b.py's two: a.py's were not written


def test_a_read_only_file_is_not_counted_as_fixed(tmp_path, monkeypatch, capsys):
    """chmod a-w; as root, who may write it anyway, os.access answers as it does for anyone else."""
    (tmp_path / "a.py").write_text(SAFE)
    os.chmod(tmp_path / "a.py", 0o444)
    if os.geteuid() == 0:
        access = os.access
        monkeypatch.setattr(os, "access", lambda path, mode: mode != os.W_OK and access(path, mode))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["--isolated", "--jaxnp-cache-dir", "", "a.py"]) == cli.NOT_FIXED
    assert (tmp_path / "a.py").read_text() == SAFE
    assert capsys.readouterr().err.splitlines() == [
        "flake8-jaxnp-fix: a.py: cannot write the fixes (Permission denied)",
        "flake8-jaxnp-fix: fixed 0 findings in 0 files"]


def test_it_fixes_exactly_what_flake8_reports(tmp_path):
    """select/ignore on the command line, per-file-ignores in the configuration, noqa, --jaxnp-x64."""
    source = SAFE.replace("x[0] = 1.0", "x[0] = 1.0  # noqa: JNP501") + "z = jnp.ones(2, dtype=jnp.float64)\n"
    (tmp_path / "a.py").write_text(source)
    (tmp_path / "b.py").write_text(SAFE)
    (tmp_path / "setup.cfg").write_text("[flake8]\nper-file-ignores = b.py: JNP504\n")
    result = subprocess.run([sys.executable, "-m", "flake8_jaxnp", "fix", "--jaxnp-cache-dir", "", "--unsafe-fixes",
                             "--jaxnp-x64", "a.py", "b.py"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "a.py").read_text() == source.replace("jax.tree_map", "jax.tree.map")
    assert (tmp_path / "b.py").read_text() == SAFE.replace("x[0] = 1.0", "x = x.at[0].set(1.0)")
    fix("--select", "JNP504", "--unsafe-fixes", "a.py", cwd=tmp_path)  # JNP402 not selected: left
    assert "dtype=jnp.float64" in (tmp_path / "a.py").read_text()
    fix("--extend-ignore", "JNP504", "--unsafe-fixes", "a.py", cwd=tmp_path)
    assert "dtype=jnp.float32" in (tmp_path / "a.py").read_text()


def test_a_safe_rules_unsafe_shape_waits_for_unsafe_fixes_and_is_counted(tmp_path):
    """``x.at[0].set(1.0)`` as a statement keeps the old array; rebinding x changes what runs."""
    source = "import jax.numpy as jnp\n\nx = jnp.zeros(3)\nx.at[0].set(1.0)\nx[1] = 2.0\n"
    (tmp_path / "a.py").write_text(source)
    safe = fix("a.py", cwd=tmp_path)
    assert safe.returncode == cli.FINDINGS_LEFT
    assert (tmp_path / "a.py").read_text() == source.replace("x[1] = 2.0", "x = x.at[1].set(2.0)")
    assert safe.stderr.splitlines()[-1].startswith(
        "python -m flake8_jaxnp fix: fixed 1 finding in 1 file; 1 more with --unsafe-fixes")
    assert fix("--unsafe-fixes", "a.py", cwd=tmp_path).returncode == 0
    assert "\nx = x.at[0].set(1.0)\n" in (tmp_path / "a.py").read_text()
