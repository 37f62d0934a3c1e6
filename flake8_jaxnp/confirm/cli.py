"""Command line: ``flake8-jaxnp-confirm [--format table|json] [--timeout S] PATH...``."""
import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

from ..options import Options
from . import report
from .runner import PLATFORMS, PathError, prepare, python_files, run_file, stop
from .verdicts import exit_code, judge

DEFAULT_TIMEOUT = 60.0


def parser():
    cli = argparse.ArgumentParser(
        prog="flake8-jaxnp-confirm",
        description="Run the case_* functions of each file and check every flake8-jaxnp finding "
                    "against what JAX really does. Exit status: 0 every finding confirmed or not "
                    "exercised and nothing missed; 1 a finding not reproduced, a missed pitfall, "
                    "or a case that hung or crashed; 2 usage, path or import errors; 130 interrupted.")
    cli.add_argument("paths", nargs="+", metavar="PATH", help="Python files or folders")
    cli.add_argument("--format", choices=("table", "json"), default="table")
    cli.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                     help=f"seconds one case may run before it counts as hung (default {DEFAULT_TIMEOUT:g})")
    cli.add_argument("--platform", choices=sorted(PLATFORMS), help="JAX backend for the cases (JAX_PLATFORMS)")
    cli.add_argument("--require-gpu", action="store_true", help="fail unless the cases run on a GPU")
    cli.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="files run in parallel")
    cli.add_argument("--memory-limit", type=float, default=default_memory_limit(), metavar="GIB",
                     help="memory each worker may allocate on the CPU backend before a case gets "
                          "MemoryError (default %(default)g GiB, half the machine; 0 turns it off)")
    cli.add_argument("--jaxnp-extra-transforms", default="", metavar="A.B,C.D",
                     help="as for flake8: more dotted names that trace like jax.jit")
    cli.add_argument("--jaxnp-x64", action="store_true",
                     help="as for flake8: the project enables jax_enable_x64 (the cases run with it too)")
    cli.add_argument("--cache-dir", default=default_cache_dir(),
                     help="folder for JAX's compilation cache, shared by the workers and later runs "
                          "(default %(default)s; '' turns it off)")
    return cli


def main(argv=None):
    args = parser().parse_args(argv)
    errors = []
    files = []
    for path in args.paths:
        try:
            files += python_files([path])
        except PathError as exc:
            errors.append(str(exc))
    files = list(dict.fromkeys(files))  # a file named twice (or inside a folder also named) runs once
    if args.require_gpu:
        backend = _backend(args.platform)
        if backend != "gpu":
            errors.append(f"--require-gpu: JAX's backend is {backend}, not gpu")
            return _finish(args, [], [], errors)
    options = Options(extra_transforms=tuple(name.strip() for name in args.jaxnp_extra_transforms.split(",")
                                             if name.strip()), x64=args.jaxnp_x64)
    prepared = []
    for path in files:
        try:
            prepared.append(prepare(path, options))
        except PathError as exc:
            errors.append(str(exc))
    try:
        results = _run_all(prepared, args)
    except KeyboardInterrupt:
        print("flake8-jaxnp-confirm: interrupted", file=sys.stderr)
        return 130
    errors += [result.error for result in results if result.error]
    rows = [row for result in results for row in judge(result)]
    return _finish(args, rows, results, errors)


def _run_all(prepared, args):
    runnable = [(result, cases) for result, cases in prepared if cases]
    progress = Progress(len(runnable), enabled=args.format == "table" and sys.stderr.isatty())
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = {pool.submit(run_file, result, cases, args.timeout, args.platform, args.cache_dir,
                               int(args.memory_limit * (1 << 30)), args.jaxnp_x64): result
                   for result, cases in runnable}
        try:
            for future in as_completed(futures):
                future.result()
                progress.advance(futures[future].path)
        except KeyboardInterrupt:
            stop()
            raise
    progress.clear()
    return [result for result, _ in prepared]


def default_memory_limit():
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return 0
    return round(physical / 2 / (1 << 30), 1)


def default_cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "flake8-jaxnp", "confirm-xla")


def _finish(args, rows, results, errors):
    code = exit_code(rows, results, errors)
    for error in errors:
        print(f"flake8-jaxnp-confirm: {error}", file=sys.stderr)
    print(report.as_json(rows, results, errors, code) if args.format == "json" else report.table(rows, results))
    return code


def _backend(platform):
    """The backend JAX picks in a fresh interpreter with the requested platform."""
    env = dict(os.environ)
    if platform:
        env["JAX_PLATFORMS"] = PLATFORMS[platform]
    probe = subprocess.run([sys.executable, "-c", "import jax; print(jax.default_backend())"],
                           capture_output=True, text=True, env=env)
    return probe.stdout.strip() if probe.returncode == 0 else "unavailable"


class Progress:
    """A one-line counter on stderr, only when stderr is a terminal."""

    def __init__(self, total, enabled):
        self.total, self.done, self.enabled = total, 0, enabled and total > 0

    def advance(self, path):
        self.done += 1
        if self.enabled:
            sys.stderr.write(f"\r\033[K[{self.done}/{self.total}] {path}")
            sys.stderr.flush()

    def clear(self):
        if self.enabled:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
