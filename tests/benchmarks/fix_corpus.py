"""The fix command on real code: do its diffs apply, does the fixed code compile, are the
findings it fixes gone, and what does it cost.

    python tests/benchmarks/fix_corpus.py DIR [DIR ...] [--repeat N] [--show]

Each DIR (the library corpus, the research corpus) is copied to a temporary folder, where
``python -m flake8_jaxnp fix --diff .`` runs, safe fixes only and then with
``--unsafe-fixes``, with the pre-commit hook's selection (``--select JNP``), ``--isolated``
and a cold cache, as the findings figures are made. The diff is applied to a fresh copy with
``patch -p1`` (after ``patch --dry-run`` and ``git apply --check``); then every changed file
must parse and compile, flake8's JNP findings before and after give the fixes per rule, no
JNP504 finding whose removed name
has a known replacement may be left, no finding may be new, and a second ``fix --diff``
must print nothing. The time is the median of ``--repeat`` runs of ``fix --diff``. Exit 1
when a check fails.
"""
import argparse
import ast
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

SELECTION = ["--isolated", "--jaxnp-cache-dir=", "--select", "JNP", "--jobs", "2"]
FINDING = re.compile(r"^\./(?P<path>.+?):\d+:\d+: (?P<code>JNP\d+) (?P<message>.*)$")
CHANGED_FILE = re.compile(r"^\+\+\+ b/(?:\./)?(.+)$", re.M)


def findings(tree):
    """Counter of (path, code) for flake8's JNP findings in ``tree``, and the JNP504 messages by path."""
    result = subprocess.run([sys.executable, "-m", "flake8", *SELECTION, "--exit-zero", "."],
                            capture_output=True, text=True, cwd=tree)
    if result.returncode != 0:
        raise SystemExit(f"flake8 failed with {result.returncode}: {result.stderr.strip()}")
    matches = [match for match in map(FINDING.match, result.stdout.splitlines()) if match]
    jnp504 = [(m["path"], m["message"]) for m in matches if m["code"] == "JNP504"]
    return Counter((m["path"], m["code"]) for m in matches), jnp504


def fix_diff(tree, unsafe):
    """(the diff ``fix --diff`` prints for ``tree``, its summary line, seconds)."""
    command = [sys.executable, "-m", "flake8_jaxnp", "fix", "--diff", *(["--unsafe-fixes"] if unsafe else []),
               *SELECTION, "."]
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, cwd=tree)
    seconds = time.perf_counter() - start
    if result.returncode not in (0, 1):
        raise SystemExit(f"fix failed with {result.returncode}: {result.stderr.strip()}")
    summary = [line for line in result.stderr.splitlines() if " would fix " in line]
    return result.stdout, summary[-1] if summary else "", seconds


def applies(tree, patch_file):
    """{tool: whether it accepts the diff} for ``patch --dry-run`` and ``git apply --check``."""
    checks = {"patch": ["patch", "-p1", "--dry-run", "--quiet", "-i", str(patch_file)],
              "git apply": ["git", "apply", "--check", "-p1", str(patch_file)]}
    return {tool: subprocess.run(command, capture_output=True, cwd=tree).returncode == 0
            for tool, command in checks.items()}


def broken(tree, paths):
    """The changed files that do not parse or compile, with why."""
    problems = []
    for path in paths:
        text = (tree / path).read_bytes()
        try:
            compile(ast.parse(text, str(path)), str(path), "exec")
        except (SyntaxError, ValueError) as exc:
            problems.append(f"{path}: {type(exc).__name__}: {exc}")
    return problems


def replaceable_left(jnp504):
    """The JNP504 findings left whose removed name has a replacement the data knows."""
    from flake8_jaxnp import api
    replacements = api.removed_name_replacements()
    return [(path, message) for path, message in jnp504 if message.split(" ", 1)[0] in replacements]


def check_tree(source, unsafe, repeat, show, scratch):
    """One row of the table, and the problems found."""
    label = "unsafe" if unsafe else "safe"
    work = scratch / f"{source.name}-{label}"
    shutil.copytree(source, work, symlinks=True)
    before, _ = findings(work)
    runs = [fix_diff(work, unsafe) for _ in range(max(repeat, 1))]
    diff, summary, _ = runs[0]
    if any(run[0] != diff for run in runs):
        return None, [f"{source}: {label}: fix --diff printed different diffs on the same tree"]
    if show:
        print(diff)
    patch_file = scratch / f"{work.name}.patch"
    patch_file.write_text(diff, encoding="utf-8")
    changed = sorted(set(CHANGED_FILE.findall(diff)))
    accepted = applies(work, patch_file) if diff else {"patch": True, "git apply": True}
    problems = [f"{source}: {label}: {tool} refuses the diff" for tool, ok in accepted.items() if not ok]
    if diff and accepted["patch"]:
        subprocess.run(["patch", "-p1", "--quiet", "-i", str(patch_file)], check=True, cwd=work)
    problems += [f"{source}: {label}: {problem}" for problem in broken(work, changed)]
    after, jnp504_after = findings(work)
    fixed = Counter()
    for (path, code), count in before.items():
        fixed[code] += max(count - after[(path, code)], 0)
    problems += [f"{source}: {label}: new finding {code} in {path}" for (path, code), count in after.items()
                 if count > before[(path, code)]]
    problems += [f"{source}: {label}: JNP504 with a replacement left: {path}: {message}"
                 for path, message in replaceable_left(jnp504_after)]
    second, _, _ = fix_diff(work, unsafe)
    if second:
        problems.append(f"{source}: {label}: a second fix --diff changes {len(CHANGED_FILE.findall(second))} files")
    median = statistics.median(seconds for *_, seconds in runs)
    per_rule = ", ".join(f"{code} {n}" for code, n in sorted(fixed.items()) if n) or "-"
    row = (f"| {source.name} | {label} | {len(changed)} | {sum(fixed.values())} | {per_rule} | "
           f"{'yes' if not problems else 'no'} | {median:.1f} s ({len(runs)} runs) |")
    if summary:
        row += f" {summary.split(': ', 1)[-1]} |"
    return row, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path, help="folders of Python code (never changed)")
    parser.add_argument("--repeat", type=int, default=1, help="timed fix --diff runs per tree and mode")
    parser.add_argument("--show", action="store_true", help="print each diff")
    options = parser.parse_args()
    for tree in options.trees:
        if not tree.is_dir():
            parser.error(f"{tree} is not a folder")
    for tool in ("patch", "git"):
        if shutil.which(tool) is None:
            parser.error(f"{tool} is not installed")
    rows, problems = [], []
    with tempfile.TemporaryDirectory(prefix="fix-corpus-") as scratch:
        for tree in options.trees:
            for unsafe in (False, True):
                row, found = check_tree(tree.resolve(), unsafe, options.repeat, options.show, Path(scratch))
                rows += [row] if row else []
                problems += found
    print("| tree | fixes | files fixed | fixes applied | by rule | all checks pass | fix --diff time (median) "
          "| the command's count |")
    print("| --- | --- | ---: | ---: | --- | --- | ---: | --- |")
    print("\n".join(rows))
    for problem in problems:
        print(f"problem: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
