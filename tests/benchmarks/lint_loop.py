"""The plugin's work on six research repositories in one process, for counting instructions.

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no python tests/benchmarks/lint_loop.py DIR [--no-lint]

Parses every file of jaxrl, purejaxrl, equinox, whisper-jax, cleanrl and gemma under ``DIR``
(the research folder ``shared/research/extract.sh`` wrote), then ``linter.lint``s each with a new
cache folder and the rules off by default left out, as flake8 runs the plugin. ``--no-lint``
stops after the parse: the difference of the two counts is the plugin's.
"""
import ast
import sys
import tempfile
from pathlib import Path

REPOSITORIES = ("ikostrikov__jaxrl", "luchris429__purejaxrl", "patrick-kidger__equinox",
                "sanchit-gandhi__whisper-jax", "vwxyzjn__cleanrl", "google-deepmind__gemma")


def parsed_files(root):
    """(path, tree, lines) of every file that parses, in a fixed order."""
    parsed = []
    for name in REPOSITORIES:
        for path in sorted((Path(root) / name).rglob("*.py")):
            source = path.read_text(encoding="utf-8", errors="replace")
            try:
                parsed.append((str(path), ast.parse(source), source.splitlines(True)))
            except SyntaxError:
                continue
    return parsed


def main():
    parsed = parsed_files(sys.argv[1])
    if "--no-lint" in sys.argv:
        return
    from flake8_jaxnp import linter
    from flake8_jaxnp.options import OFF_BY_DEFAULT, Options
    with tempfile.TemporaryDirectory() as cache:
        options = Options(cache_dir=cache, silenced=frozenset(OFF_BY_DEFAULT))
        found = sum(len(list(linter.lint(tree, lines, options, path))) for path, tree, lines in parsed)
    print(f"{len(parsed)} files, {found} findings")


if __name__ == "__main__":
    main()
