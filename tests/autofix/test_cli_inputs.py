"""The fix command on any input: what it cannot decode or parse comes back byte for byte (files,
stdin, the pre-commit hook), the others are still fixed, in their own encoding and line endings."""
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from flake8_jaxnp.autofix import cli

ROOT = Path(__file__).resolve().parents[2]
FIXABLE = "import jax\n\n# café\ny = jax.tree_map(lambda v: v, [1])\n"
FIXED = FIXABLE.replace("jax.tree_map", "jax.tree.map")
LATIN_1_WITHOUT_DECLARATION = FIXABLE.encode("latin-1")
BINARY = bytes(range(256)) * 4
DECLARED = "# -*- coding: latin-1 -*-\n" + FIXABLE
INPUTS = {  # name: (bytes, the bytes after the fix or None when left as they are, the fix's status)
    "latin1.py": (LATIN_1_WITHOUT_DECLARATION, None, cli.NOT_FIXED),
    "binary.py": (BINARY, None, cli.NOT_FIXED),
    "declared.py": (DECLARED.encode("latin-1"), DECLARED.replace("jax.tree_map", "jax.tree.map").encode("latin-1"),
                    0),
    "crlf.py": (FIXABLE.replace("\n", "\r\n").encode(), FIXED.replace("\n", "\r\n").encode(), 0),
    "bom.py": (b"\xef\xbb\xbf" + FIXABLE.encode(), b"\xef\xbb\xbf" + FIXED.encode(), 0),
    "broken_crlf.py": (b"import jax\r\nx = jax.tree_map(\r\n", None, cli.NOT_FIXED),
}


def fix(*args, cwd, stdin=None, command=(sys.executable, "-m", "flake8_jaxnp", "fix")):
    result = subprocess.run([*command, "--isolated", "--jaxnp-cache-dir", "", *args], capture_output=True, cwd=cwd,
                            input=stdin, timeout=120)
    assert b"Traceback" not in result.stderr, result.stderr.decode(errors="replace")
    return result


@pytest.mark.parametrize("name", INPUTS)
def test_each_input_alone_gets_the_documented_status_and_its_bytes(tmp_path, name):
    before, after, status = INPUTS[name]
    (tmp_path / name).write_bytes(before)
    check = fix("--check", name, cwd=tmp_path)
    assert check.returncode == (status or cli.FINDINGS_LEFT)
    result = fix(name, cwd=tmp_path)
    assert result.returncode == status
    assert (tmp_path / name).read_bytes() == (before if after is None else after)
    errors = result.stderr.decode().splitlines()
    assert len(errors) == 1 + (after is None)  # the line naming what was left, and the summary
    if after is None:
        assert errors[0].startswith(f"python -m flake8_jaxnp fix: {name}: not fixed: it ")


def test_a_folder_is_fixed_around_what_cannot_be_decoded_with_a_summary(tmp_path):
    for name, (before, _, _) in INPUTS.items():
        (tmp_path / name).write_bytes(before)
    result = fix(".", cwd=tmp_path)
    assert result.returncode == cli.NOT_FIXED
    for name, (before, after, _) in INPUTS.items():
        assert (tmp_path / name).read_bytes() == (before if after is None else after), name
    errors = result.stderr.decode().splitlines()
    assert sorted(line.split(": ")[1] for line in errors[:-1]) == ["./binary.py", "./broken_crlf.py", "./latin1.py"]
    assert errors[-1] == "python -m flake8_jaxnp fix: fixed 3 findings in 3 files"


@pytest.mark.parametrize("name", INPUTS)
def test_stdin_comes_back_whole_in_its_own_bytes(tmp_path, name):
    """An editor replaces its buffer with stdout: undecodable or unparsable, it gets it back unchanged."""
    before, after, status = INPUTS[name]
    result = fix("--stdin-display-name", "src/edited.py", "-", cwd=tmp_path, stdin=before)
    assert (result.returncode, result.stdout) == (status, before if after is None else after)
    if after is None:
        assert result.stderr.decode().splitlines()[0].startswith(
            "python -m flake8_jaxnp fix: src/edited.py: not fixed: it ")


def test_the_pre_commit_fix_hook_leaves_what_it_cannot_decode_and_fixes_the_rest(tmp_path):
    """The hook's own entry (pre-commit passes the staged files as arguments)."""
    yaml = pytest.importorskip("yaml")
    (hook,) = [hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
               if hook["id"] == "flake8-jaxnp-fix"]
    program, *arguments = shlex.split(hook["entry"])
    for name, (before, _, _) in INPUTS.items():
        (tmp_path / name).write_bytes(before)
    result = fix(*arguments, *INPUTS, cwd=tmp_path, command=[str(Path(sys.executable).parent / program)])
    assert result.returncode == cli.NOT_FIXED
    for name, (before, after, _) in INPUTS.items():
        assert (tmp_path / name).read_bytes() == (before if after is None else after), name


def test_an_unwritable_cache_folder_is_said_in_one_line_and_the_fix_goes_on(tmp_path):
    (tmp_path / "blocker").write_text("")
    (tmp_path / "a.py").write_text(FIXABLE, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "flake8_jaxnp", "fix", "--isolated", "--jaxnp-cache-dir",
                             "blocker/cache", "a.py"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "a.py").read_text(encoding="utf-8") == FIXED
    assert result.stderr.splitlines() == [
        "flake8-jaxnp: --jaxnp-cache-dir blocker/cache: cannot write there (Not a directory); nothing is cached in "
        "this run", "python -m flake8_jaxnp fix: fixed 1 finding in 1 file"]
