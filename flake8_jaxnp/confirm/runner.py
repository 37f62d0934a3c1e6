"""The parent side: find files and cases, lint them, and run each file's worker under a watchdog.

Nothing here imports jax: each file runs in its own worker process, forked
from a server that imported jax once, so a case that hangs, crashes or
exhausts memory takes only its own worker down. When that happens the case
is recorded and a new worker runs the rest of the file's cases.
"""
import ast
import multiprocessing
import os
import signal
import tempfile
import threading
from dataclasses import dataclass, field

from ..linter import lint
from ..options import DEFAULT
from . import worker

PLATFORMS = {"cpu": "cpu", "gpu": "cuda"}  # --platform -> jax_platforms


class PathError(Exception):
    """A path that cannot be confirmed; its message is the one-line report."""


@dataclass
class CaseResult:
    name: str
    status: str  # ok, raised, timed out, crashed
    detail: str = ""
    events: list = field(default_factory=list)
    observations: list = field(default_factory=list)
    lines: list = field(default_factory=list)


@dataclass
class FileResult:
    path: str
    findings: list
    statements: dict  # line -> first line of the innermost statement holding it
    cases: list = field(default_factory=list)
    error: str = ""
    backend: tuple = ()  # (backend, device kind) as the worker saw it


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


def prepare(path, options=DEFAULT):
    """Lint ``path`` and list its cases; raise PathError when it is not valid Python."""
    try:
        with open(path, "rb") as handle:
            source = handle.read().decode("utf-8")
        tree = ast.parse(source, filename=path)
    except (OSError, UnicodeDecodeError) as exc:
        raise PathError(f"{path}: cannot read: {exc}") from None
    except SyntaxError as exc:
        raise PathError(f"{path}:{exc.lineno}: not valid Python: {exc.msg}") from None
    findings = [finding for finding in lint(tree, source.splitlines(True), options, path) if finding.code != "JNP900"]
    result = FileResult(path, findings, statement_lines(tree))
    return result, case_names(tree)


def case_names(tree):
    """Module-level zero-argument functions named case_*, in file order."""
    return [node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("case_") and not _has_parameters(node)]


def _has_parameters(function):
    args = function.args
    return bool(args.args or args.posonlyargs or args.kwonlyargs or args.vararg or args.kwarg)


def statement_lines(tree):
    """line -> first line of the innermost statement covering it (findings and events meet there)."""
    statements = sorted((node for node in ast.walk(tree) if isinstance(node, ast.stmt)),
                        key=lambda node: node.end_lineno - node.lineno, reverse=True)
    owner = {}
    for node in statements:
        for line in range(node.lineno, node.end_lineno + 1):
            owner[line] = node.lineno
    return owner


def run_file(result, cases, timeout, platform=None, cache_dir="", memory_limit=0, x64=False):
    """Run ``cases`` of one prepared file in workers, restarting after a hang or crash.

    ``platform`` is a --platform choice; ``cache_dir`` a folder for JAX's compilation cache
    ("" for none); ``memory_limit`` the bytes a worker may add on the CPU backend (0: no limit);
    ``x64`` enables jax_enable_x64 in the worker.
    """
    remaining = list(cases)
    settings = (PLATFORMS.get(platform), cache_dir, memory_limit, x64)
    while remaining and not _stopping.is_set():
        done = _run_worker(result, remaining, timeout, settings)
        if result.error:
            return result
        remaining = [case for case in remaining if case not in done]
    return result


def _context():
    """Workers fork from a server that imported jax once; where fork is missing, they spawn."""
    global _CONTEXT
    if _CONTEXT is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            _CONTEXT = multiprocessing.get_context("forkserver")
            _CONTEXT.set_forkserver_preload(["flake8_jaxnp.confirm.worker", "flake8_jaxnp.confirm.probes"])
        else:
            _CONTEXT = multiprocessing.get_context("spawn")
    return _CONTEXT


_CONTEXT = None
_live = set()  # workers running now
_stopping = threading.Event()


def stop():
    """End every running worker and start no more (the user interrupted the run)."""
    _stopping.set()
    for process in list(_live):
        _kill(process)


def _run_worker(result, cases, timeout, settings):
    """One worker for ``cases``; returns the cases it settled (finished, hung or crashed)."""
    context = _context()
    receiver, sender = context.Pipe(duplex=False)
    with tempfile.NamedTemporaryFile(prefix="jaxnp-confirm-", suffix=".stderr") as stderr:
        process = context.Process(
            target=worker.serve, daemon=True,
            args=(os.path.realpath(result.path), cases, settings, sender, stderr.name))
        process.start()
        _live.add(process)
        sender.close()
        done, running, finished = set(), None, False
        try:
            for message in _messages(receiver, timeout):
                kind = message["type"]
                if kind == "backend":
                    result.backend = (message["backend"], message["device"])
                elif kind == "import_error":
                    result.error = f"{result.path}: import failed: {message['error']}"
                elif kind == "start":
                    running = message["case"]
                elif kind == "case":
                    result.cases.append(CaseResult(
                        message["case"], message["status"], message["error"] or "", message["events"],
                        message["observations"], message["lines"]))
                    done.add(message["case"])
                    running = None
                elif kind == "done":
                    finished = True
        except TimeoutError:
            _kill(process)
            _live.discard(process)
            if running is None:
                result.error = f"{result.path}: worker did not start within {2 * timeout:g}s"
            else:
                result.cases.append(CaseResult(running, "timed out", f"no result within {timeout:g}s"))
                done.add(running)
            return done
        finally:
            receiver.close()
        process.join()
        _live.discard(process)
        if finished or result.error:
            return done
        reason = _exit_reason(process.exitcode, stderr.read().decode("utf-8", "replace"))
        if running is None:
            result.error = f"{result.path}: worker failed: {reason}"
        else:
            result.cases.append(CaseResult(running, "crashed", reason))
            done.add(running)
        return done


def _messages(receiver, timeout):
    """Messages from the worker until it closes the pipe; TimeoutError when it is silent for
    ``timeout`` seconds (twice that for the first message, which includes startup)."""
    wait = 2 * timeout
    while True:
        if not receiver.poll(wait):
            raise TimeoutError
        try:
            yield receiver.recv()
        except EOFError:
            return
        wait = timeout


def _kill(process):
    """End the worker and anything it started (it leads its own process group)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (AttributeError, ProcessLookupError, PermissionError):  # no process groups, or it is gone
        process.kill()
    process.join()


def _exit_reason(returncode, stderr):
    if returncode < 0:
        try:
            what = f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            what = f"killed by signal {-returncode}"
        if -returncode == signal.SIGKILL:
            what += " (out of memory?)"
    else:
        what = f"interpreter exited with status {returncode}"
    last = next((line.strip() for line in reversed(stderr.splitlines()) if line.strip()), "")
    return f"{what}: {last[:160]}" if last else what
