"""Command line: ``flake8-jaxnp-confirm [--format table|json] [--timeout S] PATH...``."""
import argparse
import math
import os
import signal
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

from ..model.project.cache import unwritable, unwritable_warning
from ..options import OptionError, from_configuration
from . import cost, processes, report
from .runner import ACCELERATORS, PLATFORMS, PathError, Pool, prepare, python_files, run_file, scope, settings, stop
from .verdicts import exit_code, judge

DEFAULT_TIMEOUT = 60.0
MAX_TIMEOUT = 7 * 24 * 3600.0  # select() and the clock stay exact well beyond a week
MAX_MEMORY_GIB = float(1 << 20)  # where the machine's memory is unknown
REQUIRED = {"--require-accelerator": ACCELERATORS, "--require-gpu": ("gpu",)}  # flag -> backends it accepts


class OneLineErrors(argparse.ArgumentParser):
    """Usage errors as one line on stderr, exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message}\n")


def parser():
    cli = OneLineErrors(
        prog="flake8-jaxnp-confirm",
        description="Run the case_* functions of each file and check every flake8-jaxnp finding "
                    "against what JAX really does. Exit status: 0 every finding confirmed or not "
                    "exercised and nothing missed; 1 a finding not reproduced, a missed pitfall, "
                    "or a case that hung, crashed or exited; 2 usage, configuration, path, import or "
                    "linter errors, or no accelerator where one is required; 130 interrupted; "
                    "143 terminated. The --jaxnp-* options are read from the flake8 configuration "
                    "as flake8 reads them; given here, they win.")
    cli.add_argument("paths", nargs="+", metavar="PATH", help="Python files or folders")
    cli.add_argument("--case", action="append", default=[], metavar="NAME", type=function_name,
                     help="also run each file's module-level function NAME (taking no arguments) as a case: "
                          "--case main runs a script's entry point; repeatable")
    cli.add_argument("--format", choices=("table", "json"), default="table")
    cli.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT,
                     help="seconds one run of a case (jitted, or the rerun without jit) may take before "
                          f"it counts as hung (default {DEFAULT_TIMEOUT:g})")
    cli.add_argument("--platform", choices=[*sorted(PLATFORMS), "auto"], default="auto",
                     help="JAX backend for the cases (jax_platforms; default auto: the one JAX picks)")
    cli.add_argument("--require-accelerator", dest="require", action="store_const", const="--require-accelerator",
                     help="fail unless the cases run on a GPU or TPU")
    cli.add_argument("--require-gpu", dest="require", action="store_const", const="--require-gpu",
                     help="fail unless the cases run on a GPU")
    cli.add_argument("--jobs", type=count,
                     help="files run in parallel (default: the number of CPUs; one on a TPU, which admits one "
                          "process at a time)")
    cli.add_argument("--memory-limit", type=gibibytes, default=default_memory_limit(), metavar="GIB",
                     help="memory each worker may allocate on the CPU backend before a case gets "
                          "MemoryError (default %(default)g GiB, half the machine; 0 turns it off)")
    cli.add_argument("--jaxnp-extra-transforms", metavar="A.B,C.D",
                     help="as for flake8: more dotted names that trace like jax.jit")
    cli.add_argument("--jaxnp-x64", action="store_true",
                     help="as for flake8: the project enables jax_enable_x64 (the cases run with it too)")
    cli.add_argument("--jaxnp-cache-dir", metavar="DIR", help="as for flake8: the linter's summaries and findings")
    cli.add_argument("--extend-select", metavar="CODES",
                     help="as for flake8: also judge these rules that are off by default (the catalogue marks them)")
    cli.add_argument("--measure-cost", action="store_true",
                     help="time the case of each confirmed finding whose harm is time as written and with the "
                          "finding's fix, and report the difference (slower: many timed runs, one at a time)")
    cli.add_argument("--cache-dir", default=default_cache_dir(),
                     help="folder for JAX's compilation cache, shared by the workers and later runs "
                          "(default %(default)s; '' turns it off)")
    return cli


def function_name(text):
    if not text.isidentifier():
        raise argparse.ArgumentTypeError(f"{text}: not a function name")
    return text


def seconds(text):
    value = float(text)
    if not (math.isfinite(value) and 0 < value <= MAX_TIMEOUT):
        raise argparse.ArgumentTypeError(f"{text}: not a number of seconds in (0, {MAX_TIMEOUT:g}]")
    return value


def count(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: not a count of at least 1")
    return value


def gibibytes(text):
    value = float(text)
    most = physical_memory() / (1 << 30) or MAX_MEMORY_GIB
    if not (math.isfinite(value) and 0 <= value <= most):
        shown = math.floor(most * 10) / 10  # one decimal, never above what is allowed
        raise argparse.ArgumentTypeError(f"{text}: not a size in GiB between 0 and this machine's {shown:g}")
    return value


class Terminated(KeyboardInterrupt):
    """SIGTERM: ends the run as an interrupt does."""


def _terminate(signum, frame):
    raise Terminated


def main(argv=None):
    cli = parser()
    args = cli.parse_args(argv)
    try:
        args.options = from_configuration(args.jaxnp_extra_transforms, args.jaxnp_x64, args.jaxnp_cache_dir,
                                          extend_select=args.extend_select)
    except OptionError as exc:
        cli.error(str(exc))
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        return _main(args)
    except Terminated:
        stop()
        print("flake8-jaxnp-confirm: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        stop()
        print("flake8-jaxnp-confirm: interrupted", file=sys.stderr)
        return 128 + signal.SIGINT
    except BrokenPipeError:  # the reader of the report went away (| head): no traceback at exit either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        signal.signal(signal.SIGTERM, previous)


def _main(args):
    errors = []
    for warning in cache_warnings(args):
        print(warning, file=sys.stderr)
    files = []
    for path in args.paths:
        try:
            files += python_files([path])
        except PathError as exc:
            errors.append(str(exc))
    files = list(dict.fromkeys(files))  # a file named twice (or inside a folder also named) runs once
    results = []
    for path in files:
        try:
            results.append(prepare(path, args.options, args.case))
        except PathError as exc:
            errors.append(str(exc))
    stopped = _run_all(results, args)  # a backend --require-* refuses: nothing ran, nothing to time
    errors += stopped
    errors += [message for result in results for message in (result.lint_error, result.error) if message]
    for name in args.case:
        if results and not any(name in result.named_cases for result in results):
            where = results[0].path if len(results) == 1 else "any of the given files"
            errors.append(f"--case {name}: there is no module-level function {name} in {where}")
    if results and not errors and not any(result.case_names for result in results):
        skipped = [report.not_run(result) for result in results if result.missing_package]
        errors += skipped or ["no case_* function to run in the given paths (a module-level callable that takes "
                              "no arguments); --case NAME runs another one, e.g. --case main for a script"]
    rows = judge(results, args.options.silenced)
    timed = args.measure_cost and not stopped
    costs = cost.measure(rows, results, args.timeout, _settings(args)) if timed else None
    return _finish(args, rows, results, errors, costs)


def cache_warnings(args):
    """A line for each cache folder the options name that cannot be written: the run goes on without it."""
    warning = unwritable_warning(args.options.cache_dir)
    reason = unwritable(args.cache_dir) if args.cache_dir else None
    xla = (f"flake8-jaxnp-confirm: --cache-dir {args.cache_dir}: cannot write there ({reason}); "
           "JAX's compilation cache is off in this run") if reason else None
    return [line for line in (warning, xla) if line]


def _run_all(results, args):
    """Run every file that mentions a case in a pool of reused workers; the errors that stopped it."""
    processes.become_subreaper()  # a stray that escaped a killed worker's process group comes back here
    runnable = [result for result in results if result.has_cases]
    watched = dict(scope(results), named_cases=args.case)
    progress = Progress(len(runnable), enabled=args.format == "table" and sys.stderr.isatty())
    workers = Pool(_settings(args))
    try:
        backend, device = workers.backend() if runnable or args.require else ("", "")
        if args.require and backend not in REQUIRED[args.require]:
            reason = f" ({device})" if backend == "unavailable" else ""
            return [f"{args.require}: JAX's backend is {backend}{reason}, not {' or '.join(REQUIRED[args.require])}"]
        with ThreadPoolExecutor(_jobs(args.jobs, backend)) as threads:
            try:  # (an interrupt while submitting must stop the workers too, or leaving waits for them)
                futures = {threads.submit(run_file, result, workers, args.timeout, watched): result
                           for result in runnable}
                for future in as_completed(futures):
                    future.result()
                    progress.advance(futures[future].path)
            except KeyboardInterrupt:
                stop()
                raise
    finally:
        workers.close()
    progress.clear()
    return []


def _jobs(asked, backend):
    """How many workers may run at once: ``asked`` (--jobs, None: the number of CPUs), but one on a
    TPU, where a second process opening the chip fails (libtpu's lockfile); a --jobs given above
    that is lowered, and the user told."""
    if backend != "tpu":
        return asked or os.cpu_count() or 1
    if asked and asked > 1:
        print(f"flake8-jaxnp-confirm: --jobs {asked} lowered to 1: one process at a time can hold a TPU",
              file=sys.stderr)
    return 1


def _settings(args):
    """What every worker is started with."""
    return settings(args.platform, args.cache_dir, int(args.memory_limit * (1 << 30)), args.options.x64)


def physical_memory():
    """Bytes of RAM, or 0 where the platform does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return 0


def default_memory_limit():
    return round(physical_memory() / 2 / (1 << 30), 1)


def default_cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "flake8-jaxnp", "confirm-xla")


def _finish(args, rows, results, errors, costs=None):
    """Errors on stderr; the report on stdout, unless errors stopped the run before any case ran."""
    code = exit_code(rows, results, errors)
    for error in errors:
        print(f"flake8-jaxnp-confirm: {error}", file=sys.stderr)
    if errors and not any(result.cases for result in results):
        return code
    print(report.as_json(rows, results, errors, code, costs) if args.format == "json"
          else report.table(rows, results, costs))
    return code


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
