"""The parent side: find files, lint them, and run their cases in workers under a watchdog.

Nothing here imports jax. Workers (``worker.py``) are separate interpreters that
import JAX once and then run one file after another; they lead their own
process groups. A worker whose case hangs (no message within ``--timeout`` for
one run), crashes, or sends something that is not a message is killed with
everything it started, the case is recorded, and a new worker runs the rest of
the file's cases.
"""
import ast
import importlib.util
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

from ..checks.transfers import HANDFUL, handful_steps
from ..findings import INTERNAL_ERROR
from ..linter import lint
from ..model.syntax import LOOPS, SCOPES, TEST_FUNCTION_PREFIX, is_assertion_call, is_test_file
from ..options import DEFAULT
from ..rules import RULES, needs_eager_run
from . import processes
from .observe import one_line
from .worker import BOOT

# --platform -> jax_platforms (auto: what JAX picks); an accelerator keeps the CPU beside it, which
# jax.debug.print and the other host callbacks place their inputs on
PLATFORMS = {"cpu": "cpu", "gpu": "cuda,cpu", "tpu": "tpu,cpu"}
ACCELERATORS = ("gpu", "tpu")  # jax.default_backend() names
STARTUP_TIMEOUT = 120.0  # seconds a new worker may take to import JAX and start its backend
MESSAGE_LIMIT = 64 << 20  # bytes; a longer "line" from a worker is not a message


class PathError(Exception):
    """A path that cannot be confirmed; its message is the one-line report."""


class WorkerLost(Exception):
    """The worker ended, fell silent, or sent something that is not a message."""


class CorruptMessage(WorkerLost):
    pass


@dataclass
class CaseResult:
    name: str
    status: str  # ok, raised, timed out, crashed
    detail: str = ""
    events: list = field(default_factory=list)
    observations: list = field(default_factory=list)
    lines: list = field(default_factory=list)  # [path, line] pairs that ran
    uncounted: str = ""  # why no line was counted (then ``lines`` is empty), or ""
    blind: list = field(default_factory=list)  # [path, line, evidence kinds, why] the probes could not establish


@dataclass
class FileResult:
    path: str
    findings: list  # findings some runtime evidence can confirm
    statements: dict  # line -> first line of the innermost statement holding it
    unconfirmable: list = field(default_factory=list)  # findings of rules no runtime evidence confirms
    has_cases: bool = True  # the source mentions case_ or a --case name (else no worker runs it); pytest: the tests are
    case_names: list = None  # the cases the worker found; None until it ran the file
    cases: list = field(default_factory=list)
    error: str = ""
    lint_error: str = ""  # a check of the linter failed (INTERNAL_ERROR): its findings here may be incomplete
    assertions: frozenset = frozenset()  # first lines of the statements that check a value in a test
    demo_lines: frozenset = frozenset()  # lines that only a handful of loop steps repeat (for _ in range(3))
    backend: tuple = ()  # (backend, device kind) as the worker saw it
    missing_package: str = ""  # the file imports a package that is not installed: none of its cases ran
    named_cases: tuple = ()  # the --case names the file defines at module level

    @property
    def realpath(self):
        return os.path.realpath(self.path)

    @property
    def own_paths(self):
        """The names code objects may give this file: its real path, and its absolute path when a
        symbolic link leads to it (pytest imports through the folders it was given)."""
        return {self.realpath, os.path.abspath(self.path)}

    @property
    def rerun(self):
        """Whether a finding here needs the rerun under disable_jit."""
        return needs_eager_run({finding.code for finding in self.findings})


def python_files(paths):
    """Expand folders into their .py files; raise PathError for unusable arguments."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            for folder, subfolders, names in os.walk(path):
                subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") and d != "__pycache__")
                files += [os.path.join(folder, name) for name in sorted(names) if name.endswith(".py")]
        elif not os.path.exists(path):
            raise PathError(f"{path}: no such file or directory")
        elif not path.endswith(".py"):
            raise PathError(f"{path}: not a Python file (.py)")
        else:
            files.append(path)
    return files


def prepare(path, options=DEFAULT, named_cases=()):
    """Lint ``path`` (read as Python reads it: BOM, coding cookie); PathError when it is not valid Python.
    ``named_cases``: functions to run as cases besides ``case_*`` (``--case main``)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        source = importlib.util.decode_source(data)
        tree = ast.parse(data, filename=path)
    except OSError as exc:
        raise PathError(f"{path}: cannot read: {exc}") from None
    except SyntaxError as exc:
        raise PathError(f"{path}:{exc.lineno or 1}: not valid Python: {exc.msg}") from None
    except (UnicodeDecodeError, LookupError, ValueError, RecursionError, MemoryError) as exc:
        raise PathError(f"{path}: not valid Python: {one_line(exc)}") from None
    findings = lint(tree, source.splitlines(True), options, path)
    failure = next((finding for finding in findings if finding.code == INTERNAL_ERROR), None)
    findings = [finding for finding in findings if finding is not failure]
    defined = module_level_names(tree)
    named = tuple(name for name in named_cases if name in defined)
    return FileResult(path, [finding for finding in findings if RULES[finding.code].evidence],
                      statement_lines(tree),
                      unconfirmable=[finding for finding in findings if not RULES[finding.code].evidence],
                      has_cases=b"case_" in data or bool(named), named_cases=named,
                      assertions=assertion_lines(tree, path),
                      demo_lines=demo_loop_lines(tree),
                      lint_error=f"{path}: linter error, its findings here may be incomplete and no pitfall "
                                 f"here counts as missed: {failure.message}" if failure else "")


def module_level_names(tree):
    """The names a module binds at its top level (definitions, assignments, imports)."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).partition(".")[0] for alias in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(name.id for target in targets for name in ast.walk(target) if isinstance(name, ast.Name))
    return names


def statement_lines(tree):
    """line -> first line of the innermost statement covering it (findings and events meet there)."""
    statements = sorted((node for node in ast.walk(tree) if isinstance(node, ast.stmt)),
                        key=lambda node: node.end_lineno - node.lineno, reverse=True)
    owner = {}
    for node in statements:
        for line in range(node.lineno, node.end_lineno + 1):
            owner[line] = node.lineno
    return owner


def demo_loop_lines(tree):
    """The lines that loops of a handful of steps repeat and no other loop of their function does
    (``for _ in range(3)``, at most HANDFUL steps in all): the linter reports no per-iteration
    transfer there (checks.transfers), so none counts as missed. (A stack, not recursion: a
    deep ``elif`` chain must not exhaust Python's.)"""
    lines, stack = set(), [(tree, 1)]  # (node, the steps its enclosing loops take; None: a hot loop)
    while stack:
        node, steps = stack.pop()
        if isinstance(node, SCOPES):
            steps = 1
        if not isinstance(node, LOOPS):
            stack += [(child, steps) for child in ast.iter_child_nodes(node)]
            continue
        count = handful_steps(node, _names_range)
        inner = None if count is None or steps is None or steps * count > HANDFUL else steps * count
        stack += [(getattr(node, header), steps) for header in ("target", "iter", "test")
                  if getattr(node, header, None) is not None]
        for statement in node.body + node.orelse:
            if inner is not None and not isinstance(statement, LOOPS):  # a nested loop counts its own
                lines.update(range(statement.lineno, statement.end_lineno + 1))
            stack.append((statement, inner))
    return frozenset(lines)


def _names_range(func):
    return isinstance(func, ast.Name) and func.id == "range"


def assertion_lines(tree, path):
    """First lines of the statements that check a value in a test: a call of an ``assert*`` method
    or function (``self.assertTrue(jnp.all(x))``, ``np.testing.assert_allclose``), an ``assert``
    in a test file or ``test*`` function, and every statement of an assertion helper (a function
    named ``assert*``: ``assert_trees_all_close`` looping over leaves). A test has to bring what it
    checks to the host: the linter reports no transfer there (checks.transfers), and none counts as
    missed."""
    lines, stack = set(), [(tree, is_test_file(path))]
    while stack:
        node, in_test = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name.lstrip("_").startswith("assert"):
                lines.update(statement.lineno for statement in ast.walk(node) if isinstance(statement, ast.stmt))
                continue
            in_test = in_test or node.name.startswith(TEST_FUNCTION_PREFIX)
        if isinstance(node, ast.Assert) and in_test:
            lines.add(node.lineno)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and any(
                is_assertion_call(call) for call in ast.walk(node.value) if isinstance(call, ast.Call)):
            lines.add(node.lineno)
        stack.extend((child, in_test) for child in ast.iter_child_nodes(node))
    return frozenset(lines)


# -- workers ---------------------------------------------------------------------------------

_lock = threading.Lock()  # starting a worker vs. ending strays: a new worker is never taken for one
_live = {}  # pid -> Worker running now
_stopping = threading.Event()


class Worker:
    """One worker interpreter and the JSON-lines channel to it."""

    def __init__(self, settings):
        self.stderr = tempfile.TemporaryFile()  # already unlinked: nothing is left behind
        self.buffer = b""
        with _lock:
            if _stopping.is_set():
                raise WorkerLost("the run was interrupted")
            self.process = subprocess.Popen(
                [sys.executable, "-c", BOOT, json.dumps(settings)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=self.stderr, start_new_session=True)
            _live[self.process.pid] = self
        try:
            ready = self.receive(STARTUP_TIMEOUT)
        except TimeoutError:
            self.kill()
            raise WorkerLost(f"no answer within {STARTUP_TIMEOUT:g}s") from None
        except WorkerLost:
            reason = self.exit_reason()
            self.kill()
            raise WorkerLost(reason) from None
        self.backend = (ready.get("backend", ""), ready.get("device", ""))

    def send(self, message):
        try:
            self.process.stdin.write((json.dumps(message) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            raise WorkerLost("the worker ended") from None

    def receive(self, timeout):
        """The next message; TimeoutError when none comes within ``timeout`` seconds."""
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise TimeoutError
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise WorkerLost("the worker ended")
            self.buffer += chunk
            if len(self.buffer) > MESSAGE_LIMIT:
                raise CorruptMessage(f"more than {MESSAGE_LIMIT} bytes without a line end")
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except ValueError:
            raise CorruptMessage(repr(line[:60])) from None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise CorruptMessage(repr(line[:60]))
        return message

    def kill(self):
        """End the worker, its process group, and (where this process is a subreaper) every stray."""
        if not processes.kill_group(self.process.pid):
            self.process.kill()
        self.process.wait()
        with _lock:
            _live.pop(self.process.pid, None)
            processes.end_descendants(keep=set(_live))
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()
            except OSError:
                pass

    def exit_reason(self):
        """How the worker ended, with the last line it wrote to stderr."""
        try:
            returncode = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "the worker stopped answering"
        if returncode < 0:
            what = f"killed by {_signal_name(-returncode)}"
            if _signal_name(-returncode) == "SIGKILL":
                what += " (out of memory?)"
        else:
            what = f"interpreter exited with status {returncode}"
        self.stderr.seek(0)
        text = self.stderr.read().decode("utf-8", "replace")
        return f"{what}: {_telling_line(text)[:160]}" if text.strip() else what


def _telling_line(stderr):
    """The line of a dead worker's stderr that says why: a runtime's failed check or Python's fatal error
    (the lines after them list modules and frames), else the last line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return next((line for line in lines if "Check failed" in line or line.startswith("Fatal Python error")),
                lines[-1])


def _signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class Pool:
    """Idle workers, reused from file to file; a worker that failed is never returned here."""

    def __init__(self, settings):
        self.settings, self.idle, self.lock = settings, [], threading.Lock()

    def take(self):
        with self.lock:
            if self.idle:
                return self.idle.pop()
        return Worker(self.settings)

    def backend(self):
        """(backend, device kind) as JAX picked them in a worker, before any file runs: the first
        worker answers and stays, idle, for the first file. The runner never imports JAX, so it never
        holds the accelerator the workers need. ("unavailable", why) when no worker starts."""
        try:
            worker = self.take()
        except WorkerLost as exc:
            return "unavailable", str(exc)
        self.give(worker)
        return worker.backend

    def give(self, worker):
        with self.lock:
            self.idle.append(worker)

    def close(self):
        with self.lock:
            idle, self.idle = self.idle, []
        for worker in idle:
            worker.kill()


def settings(platform=None, cache_dir="", memory_limit=0, x64=False):
    """What every worker is started with: ``platform`` a --platform choice (auto: JAX picks), ``cache_dir`` a folder for
    JAX's compilation cache ("" for none), ``memory_limit`` bytes a worker may add on the CPU backend
    (0: no limit), ``x64`` whether to enable jax_enable_x64."""
    return {"platform": PLATFORMS.get(platform), "cache_dir": cache_dir, "memory_limit": memory_limit, "x64": x64}


def scope(results):
    """What every worker request carries: the real paths of the files whose lines count, and of
    those with a finding that needs the rerun under disable_jit."""
    return {"watched": sorted(result.realpath for result in results),
            "rerun": sorted(result.realpath for result in results if result.rerun)}


def run_file(result, pool, timeout, watched):
    """Run the cases of one prepared file, with a new worker after a hang, crash or corrupt message.
    ``watched``: the ``scope`` of the run."""
    remaining = None  # None: the worker finds the cases
    while not _stopping.is_set():
        try:
            worker = pool.take()
        except WorkerLost as exc:
            result.error = f"{result.path}: the worker did not start: {exc}"
            return result
        result.backend = worker.backend
        remaining = _run_on(worker, result, remaining, timeout, watched)
        if remaining is None:
            pool.give(worker)
            return result
        worker.kill()
        if not remaining or result.error:
            return result
    return result


def _run_on(worker, result, cases, timeout, watched):
    """Send one file to ``worker``; None when it finished, else the cases still to run."""
    running, done = None, set()
    try:
        worker.send(dict(watched, path=result.realpath, cases=cases))
        while True:
            message = worker.receive(timeout)
            kind = message["type"]
            if kind == "run":
                running = message["case"]
            elif kind == "import error":
                result.error = f"{result.path}: import failed: {message['error']}"
            elif kind == "missing package":
                result.missing_package = message["package"]
            elif kind == "cases":
                cases = message["cases"]
                if result.case_names is None:
                    result.case_names = list(cases)
            elif kind == "case":
                result.cases.append(CaseResult(message["case"], message["status"], message["error"] or "",
                                               message["events"], message["observations"], message["lines"],
                                               message["uncounted"]))
                done.add(message["case"])
                running = None
            elif kind == "file done":
                return None
    except TimeoutError:
        if running is None:
            result.error = f"{result.path}: executing the module took more than {timeout:g}s"
        else:
            result.cases.append(CaseResult(running, "timed out", f"one run gave no result within {timeout:g}s"))
    except CorruptMessage as exc:
        _failed(result, running, f"the worker sent a corrupt message: {exc}")
    except WorkerLost:
        _failed(result, running, worker.exit_reason())
    except (KeyError, TypeError) as exc:  # a well-formed line that is not one of ours
        _failed(result, running, f"the worker sent a corrupt message: {one_line(exc)}")
    if running is not None:
        done.add(running)
    return [case for case in (cases or []) if case not in done]


def _failed(result, running, reason):
    if running is None:
        result.error = f"{result.path}: worker failed: {reason}"
    else:
        result.cases.append(CaseResult(running, "crashed", reason))


def stop():
    """End every running worker and start no more (the user interrupted or terminated the run)."""
    _stopping.set()
    for worker in list(_live.values()):
        worker.kill()
