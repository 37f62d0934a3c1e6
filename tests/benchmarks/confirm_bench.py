"""Time the runtime confirmation: paired, alternating runs, medians and ratios.

    python tests/benchmarks/confirm_bench.py --repeat 5
    python tests/benchmarks/confirm_bench.py --repeat 5 --baseline /path/to/older/checkout

Without --baseline: ``pytest fixtures/pytest_project`` with and without
``--jaxnp-confirm`` (the plugin's overhead), and ``flake8-jaxnp-confirm`` over
the fixture files. With --baseline: the same ``flake8-jaxnp-confirm`` run from
this checkout and from the older one (imported through PYTHONPATH), alternating.
Every run is a fresh interpreter; the compilation cache is warmed first.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / "fixtures" / "pytest_project"


def timed(command, cwd, env=None):
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(map(str, command))} failed ({result.returncode}): {result.stderr[-300:]}")
    return elapsed


def paired(label, first, second, repeat):
    """Alternate two (name, command, cwd, env) runs ``repeat`` times; print medians and the ratio."""
    for name, command, cwd, env in (first, second):
        timed(command, cwd, env)  # warm the compilation cache and the file system
    times = {first[0]: [], second[0]: []}
    for _ in range(repeat):
        for name, command, cwd, env in (first, second):
            times[name].append(timed(command, cwd, env))
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"{label}: " + ", ".join(f"{name} {median:.2f} s" for name, median in medians.items())
          + f", ratio {medians[second[0]] / medians[first[0]]:.2f} (medians of {repeat})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="an older checkout to compare flake8-jaxnp-confirm with")
    args = parser.parse_args()
    fixture_files = sorted(str(path) for path in (ROOT / "fixtures").glob("*.py"))
    confirm = [sys.executable, "-m", "flake8_jaxnp.confirm", *fixture_files]
    if args.baseline:
        old_env = dict(os.environ, PYTHONPATH=str(args.baseline.resolve()))
        paired("flake8-jaxnp-confirm over the fixture files",
               ("before", confirm, args.baseline, old_env), ("after", confirm, ROOT, None), args.repeat)
        return
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "."]
    paired("pytest over fixtures/pytest_project",
           ("without", pytest, PROJECT, None), ("with --jaxnp-confirm", [*pytest, "--jaxnp-confirm"], PROJECT, None),
           args.repeat)


if __name__ == "__main__":
    main()
