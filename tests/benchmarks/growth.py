"""How the plugin's cost grows with input size, for each generated shape in ``shapes.py``.

``python tests/benchmarks/growth.py`` lints each shape at size N and 2N through the
plugin's own flake8 entry point (``JaxNumpyChecker``; flake8's pyflakes gives up on
deep elif chains long before the plugin would) and prints the median time of
``--repeat`` runs at each size and their ratio: about 2 for linear growth. A project
shape (``PROJECT_SHAPES``) is written to a temporary folder and each of its modules
linted in turn, as one flake8 run does, with the process's memory of the project
emptied before each run and no cache on disk.
"""
import argparse
import ast
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import shapes  # noqa: E402

from flake8_jaxnp import linter  # noqa: E402
from flake8_jaxnp.model.project import cache  # noqa: E402
from flake8_jaxnp.options import Options  # noqa: E402
from flake8_jaxnp.plugin import JaxNumpyChecker  # noqa: E402


def lint_time(source, repeat):
    tree, lines = ast.parse(source), source.splitlines(True)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        codes = [message.split()[0] for _, _, message, _ in JaxNumpyChecker(tree, lines).run()]
        times.append(time.perf_counter() - start)
    if "JNP900" in codes:
        raise SystemExit(f"JNP900 on a generated program: {codes}")
    return statistics.median(times)


def project_lint_time(modules, repeat):
    """Median time to lint every module of a generated project (a folder of ``modules``)."""
    with tempfile.TemporaryDirectory() as root:
        package = Path(root) / "generated"
        package.mkdir()
        parsed = []
        for name, source in modules.items():
            (package / name).write_text(source)
            parsed.append((str(package / name), ast.parse(source), source.splitlines(True)))
        options, times = Options(cache_dir=""), []
        for _ in range(repeat):
            cache.MEMORY.__init__()  # what a new flake8 process knows: nothing
            start = time.perf_counter()
            codes = [f.code for path, tree, lines in parsed for f in linter.lint(tree, lines, options, path)]
            times.append(time.perf_counter() - start)
    if "JNP900" in codes:
        raise SystemExit(f"JNP900 on a generated project: {codes}")
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per size (median)")
    args = parser.parse_args(argv)
    print(f"python {sys.version.split()[0]}; median of {args.repeat} runs")
    print(f"{'shape':<26} {'N':>7} {'time N':>9} {'2N':>7} {'time 2N':>9} {'ratio':>6}")
    for name, (make, size) in shapes.SHAPES.items():
        try:
            small, large = lint_time(make(size), args.repeat), lint_time(make(2 * size), args.repeat)
        except (RecursionError, SyntaxError) as exc:  # the interpreter cannot parse it
            print(f"{name:<26} skipped: {type(exc).__name__} from ast.parse on Python {sys.version.split()[0]}")
            continue
        print(f"{name:<26} {size:>7} {small:>8.3f}s {2 * size:>7} {large:>8.3f}s {large / small:>6.2f}")
    for name, (make, size) in shapes.PROJECT_SHAPES.items():
        small, large = project_lint_time(make(size), args.repeat), project_lint_time(make(2 * size), args.repeat)
        print(f"{name:<26} {size:>7} {small:>8.3f}s {2 * size:>7} {large:>8.3f}s {large / small:>6.2f}")


if __name__ == "__main__":
    main()
