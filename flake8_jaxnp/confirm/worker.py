"""The worker process: imports JAX once, then runs files' cases for the runner.

The runner starts it with ``BOOT``, which drops the working directory from
``sys.path`` before anything is imported, so a ``numpy.py`` or ``jax.py`` there
is never run. Runner and worker talk in JSON lines: one request per file on the
worker's stdin, messages back on its stdout. The worker keeps both pipes for
itself; the cases read from and write to /dev/null (their output is dropped).

Every run of a case starts from the same process state: a freshly executed
copy of the module, and JAX's configuration, ``sys.modules``, ``sys.path``,
the working directory and the environment as they were before the first case.
After each run every process the case started is ended (see ``processes``).
A case runs under strict dtype promotion (again without it when a promotion
error stopped it), and, when a finding of the file needs it and the case traced
watched code, once more under ``jax.disable_jit()`` (after an exception, stopped where
the jitted run raised): comparing the two runs shows which lines ran only while JAX traced. A worker started
with ``timing`` (``--measure-cost``, ``cost.py``) installs no probe and times cases
instead (``timings``).
"""
import io
import json
import os
import sys
import types
import warnings
from contextlib import ExitStack, contextmanager, redirect_stderr, redirect_stdout

from ..model.project.cache import unwritable
from . import processes
from .observe import Stopped, analyse, one_line, stop_place

BOOT = "import sys; del sys.path[0]; from flake8_jaxnp.confirm.worker import main; main()"


def main():
    """Serve requests until the runner closes the worker's stdin."""
    settings = json.loads(sys.argv[1])
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)  # output from C code in the cases goes nowhere
    processes.die_with_parent()
    processes.become_subreaper()

    def send(message):
        replies.write(json.dumps(message) + "\n")
        replies.flush()

    import jax

    from . import process_probes
    if settings["platform"]:
        jax.config.update("jax_platforms", settings["platform"])
    if settings["x64"]:
        jax.config.update("jax_enable_x64", True)
    if settings["cache_dir"] and not unwritable(settings["cache_dir"]):  # the runner said why not
        # Workers compile the same small programs again and again: share them on disk.
        jax.config.update("jax_compilation_cache_dir", settings["cache_dir"])
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
    # Workers share the accelerator: allocate on demand instead of grabbing most of its memory.
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    sys.meta_path.insert(0, RealPaths())
    send({"type": "ready", "backend": jax.default_backend(), "device": jax.devices()[0].device_kind})
    timing = settings.get("timing", False)  # --measure-cost: no probe may slow the timed runs
    if not timing:
        process_probes.install_process_probes()
    limit = settings["memory_limit"] if jax.default_backend() == "cpu" else 0  # drivers reserve vast address space
    baseline = ProcessState()
    for request in requests:
        if limit:
            _limit_memory(limit)
        (time_case if timing else run_file)(json.loads(request), send, baseline)
        send({"type": "file done"})
    os._exit(0)  # threads a case left behind must not keep the worker alive


def _limit_memory(limit):
    """Let each file's cases add at most ``limit`` bytes of address space to what the worker holds
    now, so a case that exhausts memory raises instead of waking the OOM killer. Only the soft
    limit is set, so it can be set again for the next file."""
    import resource

    try:
        with open("/proc/self/statm") as statm:
            in_use = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:  # not Linux: leave the address space alone
        return
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    soft = in_use + limit if hard == resource.RLIM_INFINITY else min(in_use + limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


class RealPaths:
    """First on ``sys.meta_path`` in a worker: a module found through a ``sys.path`` entry that is
    not normalised (``os.path.join(os.path.dirname(__file__), os.pardir)``, a script's usual way to
    reach its package) is loaded from its real path, so its code objects name the file as the
    watched files are named (real paths); else the usual finders answer."""

    def find_spec(self, name, path=None, target=None):
        entries = sys.path if path is None else path
        if all(type(entry) is not str or os.path.normpath(entry) == entry for entry in entries):
            return None
        import importlib.machinery
        import importlib.util
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        origin = getattr(spec, "origin", None)
        if not origin or not os.path.isabs(origin) or os.path.realpath(origin) == origin \
                or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        locations = spec.submodule_search_locations
        return importlib.util.spec_from_file_location(name, os.path.realpath(origin), submodule_search_locations=(
            [os.path.realpath(entry) for entry in locations] if locations is not None else None))


def _extension(module):
    """Whether ``module`` is a compiled extension: many refuse to be loaded twice in one process
    (SciPy's: ``ImportError: cannot load module more than once per process``); a package that
    imports it again finds it in ``sys.modules``."""
    import importlib.machinery
    return str(getattr(module, "__file__", None) or "").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


class ProcessState:
    """What a case may change and the next case must not see."""

    def __init__(self):
        self.modules = dict(sys.modules)
        self.config = dict(sys.modules["jax"].config.values)
        self.path = list(sys.path)
        self.argv = list(sys.argv)
        self.cwd = os.getcwd()
        self.environ = dict(os.environ)

    def restore(self):
        for name in [name for name in sys.modules if name not in self.modules]:
            if not _extension(sys.modules[name]):  # (one a case imported stays: a second load fails)
                del sys.modules[name]
        for name, module in self.modules.items():
            if sys.modules.get(name) is not module:
                sys.modules[name] = module
        config = self.modules["jax"].config
        now = config.values  # a new dict on every access
        for name, value in self.config.items():
            if now.get(name, value) is not value:
                config.update(name, value)
        sys.path[:] = self.path
        sys.argv[:] = self.argv
        os.chdir(self.cwd)
        if dict(os.environ) != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)


class UserFile:
    """The file whose cases run: compiled once, executed afresh for every run."""

    def __init__(self, path, source=None):
        """``source``: text to run in place of the file's (the file with a fix applied)."""
        if source is None:
            with open(path, "rb") as handle:
                source = handle.read()
        self.code = compile(source, path, "exec", dont_inherit=True)
        self.path = path
        self.name, self.root = module_name(path)

    def execute(self, watched=None):
        """A new module object from the file, so no jit cache or state carries between runs;
        with the probes of the ``watched`` files, if given."""
        from . import array_probes
        sys.path.insert(0, self.root)
        sys.argv[:] = [self.path]  # as `python file.py` would: a script's argparse sees no arguments
        module = types.ModuleType(self.name)
        module.__file__ = self.path
        module.__package__ = self.name.rpartition(".")[0]
        sys.modules[self.name] = module
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            exec(self.code, module.__dict__)  # noqa: S102 - running the user's cases is the point
        if watched is not None:
            array_probes.install_watched_module_probes(watched)
            array_probes.install_module_probes(module.__dict__)
        return module


def module_name(path):
    """(dotted module name, folder for sys.path): a file inside packages keeps its package, so
    its relative imports work; one named like an imported module (random.py) gets a private name."""
    folder, file = os.path.split(path)
    parts = [os.path.splitext(file)[0]]
    while os.path.exists(os.path.join(folder, "__init__.py")):
        folder, package = os.path.split(folder)
        parts.insert(0, package)
    name = ".".join(parts)
    return (name if name not in sys.modules else f"_jaxnp_confirm_{name}"), folder


def case_names(module, named=()):
    """Module-level case_* callables, and those ``named`` (``--case main``), that take no arguments
    (defaults allowed), in definition order."""
    import inspect

    names = []
    for name, value in vars(module).items():
        if not (name.startswith("case_") or name in named) or not callable(value):
            continue
        try:
            inspect.signature(value).bind()
        except (TypeError, ValueError):
            continue
        names.append(name)
    return names


def run_file(request, send, baseline):
    """Run one file's cases: ``request`` names the file, the cases (None: all), the watched files
    and those whose findings need the disable_jit rerun."""
    from .linefacts import Watched
    watched = Watched(request["watched"])
    send({"type": "run", "case": None})
    try:
        file = UserFile(request["path"])
        cases = request["cases"]
        if cases is None:
            cases = case_names(file.execute(watched), request.get("named_cases", ()))
    except BaseException as exc:  # noqa: BLE001 - any import failure is reported, not raised
        package = _not_installed(exc)
        send({"type": "missing package", "package": package} if package
             else {"type": "import error", "error": one_line(exc)})
        return
    finally:
        _settle(baseline)
    send({"type": "cases", "cases": cases})
    for case in cases:
        send(dict(run_case(file, case, watched, frozenset(request["rerun"]), send, baseline), type="case", case=case))


def _not_installed(exc):
    """The top-level package an import failed for when no such package is installed (a framework
    the user's environment lacks), else None: the file cannot run here, which is not its fault."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return None
    import importlib.util
    package = exc.name.partition(".")[0]
    try:
        return package if importlib.util.find_spec(package) is None else None
    except (ImportError, ValueError):
        return None


def _settle(baseline):
    """Back to the state before the first case, with nothing the case started still running."""
    baseline.restore()
    processes.end_descendants()


class Run:
    """One execution of one case: its recorder, the exception it raised, its module."""

    def __init__(self, recorder, exception, module):
        self.rec, self.exception, self.module = recorder, exception, module


def execute_case(file, case, watched, eager, strict, baseline, stop=None, count_lines=True):
    """One run of ``case``; ``stop``: where the run is stopped (``observe.stop_place``)."""
    import jax

    from . import array_probes, process_probes
    from .process_probes import HostCallbackStaged
    rec = array_probes.Recorder(watched, track_globals=eager)
    exception, module = None, None
    with ExitStack() as stack:
        stack.callback(_settle, baseline)
        stack.enter_context(redirect_stdout(io.StringIO()))
        stack.enter_context(redirect_stderr(io.StringIO()))
        stack.enter_context(warnings.catch_warnings())  # a case's filters are its own
        try:
            module = file.execute(watched)
            with ExitStack() as modes:
                if eager:
                    modes.enter_context(jax.disable_jit())
                if strict:
                    modes.enter_context(jax.numpy_dtype_promotion("strict"))
                with process_probes.tracing(rec, stop, count_lines):
                    getattr(module, case)()
        except (Exception, SystemExit, Stopped, HostCallbackStaged) as exc:  # noqa: BLE001 - a result
            exception = exc
    return Run(rec, exception, module)


def run_case(file, case, watched, rerun, send, baseline):
    """Run ``case`` (jitted, and eagerly where it traced a file of ``rerun``); return its status,
    events, observations and lines run."""
    import jax

    from .process_probes import HostCallbackStaged, uncounted_reason

    send({"type": "run", "case": case})
    jitted = execute_case(file, case, watched, eager=False, strict=True, baseline=baseline)
    uncounted = ""
    if isinstance(jitted.exception, HostCallbackStaged):  # see process_probes.counts_lines_through_host_callbacks
        uncounted = uncounted_reason(jitted.exception)
        send({"type": "run", "case": case})
        jitted = execute_case(file, case, watched, eager=False, strict=True, baseline=baseline, count_lines=False)
    promotion = None
    if isinstance(jitted.exception, jax.dtypes.TypePromotionError):
        promotion = jitted.exception
        send({"type": "run", "case": case})
        jitted = execute_case(file, case, watched, eager=False, strict=False, baseline=baseline,
                              count_lines=not uncounted)
    # Only a case that traced the code of a file with such a finding needs the rerun without jit. One
    # that raised gets it too, stopped where the jitted run raised (without jit a tracer error would not
    # stop it), so what ran before the exception still counts (see observe.analyse).
    eager = None
    if not uncounted and any(path in rerun for path, _ in jitted.rec.traced_lines):
        send({"type": "run", "case": case})
        eager = execute_case(file, case, watched, eager=True, strict=False, baseline=baseline,
                             stop=stop_place(jitted))
    return dict(analyse(jitted, eager, promotion), uncounted=uncounted)


# -- --measure-cost: the case as written against the case with one finding's fix --------------

MIN_RUNS, MAX_RUNS = 5, 51  # timed calls of each version: at least, at most
TIMING_BUDGET = 2.0  # seconds of timed calls after which no more are started (past MIN_RUNS)


def time_case(request, send, baseline):
    """A timing worker's request: one case timed where its pitfalls happen, or as written and fixed."""
    send((event_timings if request.get("at_event") else timings)(request, send, baseline))


def event_timings(request, send, baseline):
    """Call ``request["case"]`` with the probes on and a Timer on each call's recorder (timer.py), no
    line counted: a first call (it compiles), then at least MIN_RUNS more until TIMING_BUDGET has
    passed, each ended by the Fence as in ``timings``. Returns the "event costs" message: the seconds
    of each call and the probes' samples by line, or why none; sends "run" before every call."""
    from . import array_probes, process_probes
    from .linefacts import Watched
    from .timer import CLOCK, Timer

    process_probes.install_process_probes()  # once a worker: later requests run with them inert
    case, timer, watched, stop = request["case"], Timer(), Watched([request["path"]]), None
    reply = {"type": "event costs", "reason": "", "calls": [], "lines": []}
    with _timed_runs(baseline) as fence:
        try:
            send({"type": "run", "case": case})
            call = getattr(UserFile(request["path"]).execute(watched), case)
            while timer.call <= MIN_RUNS or (timer.call <= MAX_RUNS and CLOCK() < stop):
                send({"type": "run", "case": case})
                array_probes.RECORDER = array_probes.Recorder(watched)
                array_probes.RECORDER.timer = timer
                start = CLOCK()
                try:
                    fence.wait(call())
                finally:
                    array_probes.RECORDER = None
                reply["calls"].append(CLOCK() - start)
                timer.call += 1
                stop = stop or CLOCK() + TIMING_BUDGET
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a raising case is a reason, not a crash
            reply.update(reason=f"the case raised {one_line(exc)}", calls=[])
            return reply
    reply["lines"] = timer.by_line()
    return reply


def timings(request, send, baseline):
    """Call ``request["case"]`` from the file as written and from ``request["fixed"]`` (the file
    with one finding's fix): one warm-up call of each (it compiles; the two results must be equal,
    and it counts how often the finding's statement, ``request["lines"]``, runs per call), then
    timed calls in alternation, each ended by ``jax.block_until_ready`` on what the case returned and
    on a tiny computation queued after it on every local device (each runs its work in order), so
    work JAX dispatched asynchronously is in the time, even where the case drops its result. Returns
    the "cost" message (the samples in seconds, or why none); sends "run" before every call, so the
    runner's timeout applies to each."""
    import time

    case, reply = request["case"], {"type": "cost", "reason": "", "original": [], "fixed": [], "line_runs": 0}
    calls, results, version = {}, {}, "original"
    with _timed_runs(baseline) as fence:
        try:
            for version, source in (("original", None), ("fixed", request["fixed"])):
                send({"type": "run", "case": case})
                calls[version] = getattr(UserFile(request["path"], source).execute(), case)
                with LineRuns(request["path"], request["lines"]) as runs:
                    results[version] = fence.wait(calls[version]())
                if version == "original":
                    reply["line_runs"] = runs.count
            if not same_results(results["original"], results["fixed"]):
                reply["reason"] = "the fixed case returns a different result"
                return reply
            stop = time.perf_counter() + TIMING_BUDGET
            while len(reply["fixed"]) < MIN_RUNS or (len(reply["fixed"]) < MAX_RUNS and time.perf_counter() < stop):
                for version in ("original", "fixed"):
                    send({"type": "run", "case": case})
                    start = time.perf_counter()
                    fence.wait(calls[version]())
                    reply[version].append(time.perf_counter() - start)
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a raising case is a reason, not a crash
            reply.update(reason=f"the {version} case raised {one_line(exc)}", original=[], fixed=[])
    return reply


@contextmanager
def _timed_runs(baseline):
    """Around a timing request: the case's output dropped, its warning filters its own, no compilation
    cache (a compile in the loop costs what it costs), the process state restored after; gives the Fence."""
    import jax

    with ExitStack() as stack:
        stack.callback(_settle, baseline)
        stack.enter_context(redirect_stdout(io.StringIO()))
        stack.enter_context(redirect_stderr(io.StringIO()))
        stack.enter_context(warnings.catch_warnings())
        jax.config.update("jax_enable_compilation_cache", False)
        yield Fence()


class Fence:
    """Waits for a result and for everything queued before it on each local device."""

    def __init__(self):
        import jax

        self.step = jax.jit(lambda mark: mark + 1)
        self.marks = [jax.device_put(0, device) for device in jax.local_devices()]
        self.wait(None)  # compiles the step outside the timed calls

    def wait(self, result):
        import jax

        return jax.block_until_ready((result, [self.step(mark) for mark in self.marks]))[0]


class LineRuns:
    """While active, counts the entries into one statement (its ``lines``) of the file at ``path``."""

    def __init__(self, path, lines):
        self.path, self.lines, self.count = path, frozenset(lines), 0

    def __enter__(self):
        self.previous = sys.gettrace()
        sys.settrace(self._frame)
        return self

    def __exit__(self, *exc_info):
        sys.settrace(self.previous)

    def _frame(self, frame, event, arg):
        if frame.f_code.co_filename != self.path:
            return None
        inside = False

        def line(frame, event, arg):
            nonlocal inside
            if event == "line":
                now = frame.f_lineno in self.lines
                self.count += now and not inside
                inside = now
            return line
        return line


def same_results(first, second):
    """Whether two results of a case are equal: the same pytree structure (by its text: each run
    defines its own classes), arrays and numbers of the same dtype, shape and values (nan equal
    to nan), other leaves ``==``."""
    import jax
    import numpy as np

    leaves, structure = jax.tree.flatten(first)
    others, other_structure = jax.tree.flatten(second)
    if str(structure) != str(other_structure):
        return False
    for leaf, other in zip(leaves, others):
        if isinstance(leaf, (jax.Array, np.ndarray, np.generic, int, float, complex)):
            leaf, other = np.asarray(leaf), np.asarray(other)
            if (leaf.dtype, leaf.shape) != (other.dtype, other.shape) or not np.array_equal(
                    leaf, other, equal_nan=leaf.dtype.kind in "fc"):
                return False
        else:
            try:
                if not bool(leaf == other):
                    return False
            except Exception:  # noqa: BLE001 - leaves that cannot be compared are not the same
                return False
    return True
