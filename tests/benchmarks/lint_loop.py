"""The plugin's cost in instructions over a few research repositories linted in one process.

    python tests/benchmarks/lint_loop.py [--cachegrind] [--warm] [--bare] DIR [DIR ...]

Parses every ``.py`` file below the folders, then lints each (``linter.lint`` with a new cache
folder and the rules off by default left out, as flake8 runs the plugin). With ``--warm`` the
loop runs twice over the same cache folder, the process's memory of the project emptied in
between (as a new flake8 run): the second pass reuses the kept findings of every file after
asking its project questions again (subtract the figure without ``--warm``: the first pass);
``--bare`` parses without linting (what the loop costs without the plugin).
``--cachegrind`` runs the same command under ``valgrind --tool=cachegrind`` (``PYTHONHASHSEED=0``)
and prints its instruction total: a figure that the machine's load does not move. ``--flake8``
(with ``--cachegrind``) counts flake8 itself over the folders instead (``--jobs 1``, with the plugin
and a new cache folder, then without it, as ``bench.py`` runs them) and prints both totals and
their ratio: issue 47's "every file analysed" row in instructions.
"""
import argparse
import ast
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def parsed_files(folders):
    """(path, tree, lines) for every file that parses below ``folders``, in a fixed order."""
    found = []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.py")):
            source = path.read_text(encoding="utf-8", errors="replace")
            try:
                found.append((str(path), ast.parse(source), source.splitlines(True)))
            except (SyntaxError, ValueError):
                continue
    return found


def instructions(command, env=None):
    """The instruction total of ``command`` under cachegrind (and its output)."""
    result = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                             "--cachegrind-out-file=/dev/null", *command],
                            env=dict(env or os.environ, PYTHONHASHSEED="0"), capture_output=True, text=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", result.stderr)
    if result.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed:\n{result.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), result.stdout.strip()


def flake8_ratio(folders):
    """Print flake8's instructions over ``folders`` with the plugin (a new cache folder) and without."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench  # (the sibling script: its launcher drops the plugin for "without")

    totals = {}
    for mode in ("with", "without"):
        for measured in (False, True):  # (a first run compiles the bytecode)
            with tempfile.TemporaryDirectory() as cache_dir:
                plugin = ["--jaxnp-cache-dir", cache_dir] if mode == "with" else []
                command = [sys.executable, "-c", bench.LAUNCHER, mode, *bench.FLAKE8_ARGS, *plugin, *folders]
                if measured:
                    totals[mode], _ = instructions(command, bench.CHILD_ENV)
                else:
                    subprocess.run(command, env=bench.CHILD_ENV, capture_output=True, check=True)
    print(f"flake8 with the plugin {totals['with']:,} instructions, without {totals['without']:,}; "
          f"ratio {totals['with'] / totals['without']:.3f}")


def lint_all(files, cache_dir):
    from flake8_jaxnp import linter
    from flake8_jaxnp.options import OFF_BY_DEFAULT, Options

    options = Options(cache_dir=cache_dir, silenced=frozenset(OFF_BY_DEFAULT))
    return sum(len(list(linter.lint(tree, lines, options, path))) for path, tree, lines in files)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--cachegrind", action="store_true", help="count the instructions under valgrind")
    parser.add_argument("--warm", action="store_true", help="lint twice, the second time reusing the kept findings")
    parser.add_argument("--bare", action="store_true", help="parse only (the loop without the plugin)")
    parser.add_argument("--flake8", action="store_true", help="with --cachegrind: flake8 with and without the plugin")
    options = parser.parse_args()
    if options.cachegrind and options.flake8:
        flake8_ratio(list(map(str, options.folders)))
        return
    if options.cachegrind:
        command = [sys.executable, __file__, *map(str, options.folders)] + \
            (["--warm"] if options.warm else []) + (["--bare"] if options.bare else [])
        total, output = instructions(command)
        print(f"{total:,} instructions; {output}")
        return
    files = parsed_files(options.folders)
    if options.bare:
        print(f"{len(files)} files parsed")
        return
    with tempfile.TemporaryDirectory() as cache_dir:
        findings = lint_all(files, cache_dir)
        if options.warm:
            from flake8_jaxnp.model.project import cache
            cache.MEMORY.__init__()
            findings = lint_all(files, cache_dir)
    print(f"{len(files)} files, {findings} findings")


if __name__ == "__main__":
    main()
