"""The worker process that runs one file's cases; started by the runner with ``serve``.

Workers are forked from a server process that has already imported jax (see
``runner``), so each file gets a fresh interpreter state without paying for the
import again. A worker runs each case on a freshly executed copy of the module:
under strict dtype promotion (again without it when a promotion error stopped
the case), and, when the case traced some of the file's code, once more under
``jax.disable_jit()``. Comparing the jitted run with the eager one shows which
lines ran only while JAX traced. Results go to the runner as one message per
case over ``connection``; the cases' own output is captured and dropped.
"""
import ast
import inspect
import io
import os
import re
import sys
import traceback
import types
from contextlib import ExitStack, redirect_stderr, redirect_stdout

from ..generate import SEQUENCE_REFUSAL


def serve(path, cases, settings, connection, stderr_path):
    """Run ``cases`` of ``path`` and send a message per step to ``connection``.

    ``settings``: (platform for jax_platforms or None, compilation cache folder or "",
    address-space limit in bytes or 0, whether to enable jax_enable_x64).
    """
    if hasattr(os, "setsid"):
        os.setsid()  # the runner ends the worker and anything a case starts as one process group
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # output from C code in the cases goes nowhere
    stderr = os.open(stderr_path, os.O_WRONLY | os.O_APPEND)
    os.dup2(stderr, 2)  # kept for the runner to explain a crash
    import jax  # before the user's folder joins sys.path, so it cannot shadow jax

    from . import probes
    platform, cache_dir, memory_limit, x64 = settings
    if platform:
        jax.config.update("jax_platforms", platform)
    if x64:
        jax.config.update("jax_enable_x64", True)
    if cache_dir and _writable_folder(cache_dir):
        # Workers compile the same small programs again and again: share them on disk.
        jax.config.update("jax_compilation_cache_dir", cache_dir)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
    # Workers share the accelerator: allocate on demand instead of grabbing most of its memory.
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    send = connection.send
    send({"type": "backend", "backend": jax.default_backend(), "device": jax.devices()[0].device_kind})
    probes.install_process_probes()
    if memory_limit and jax.default_backend() == "cpu":  # accelerator drivers reserve vast address space
        _limit_memory(memory_limit)
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    file = UserFile(path, source)
    sys.path.insert(0, file.root)
    try:
        file.execute()
    except BaseException as exc:  # noqa: BLE001 - any import failure is reported, not raised
        send({"type": "import_error", "error": _one_line(exc)})
        return
    for case in cases:
        send({"type": "start", "case": case})
        send(dict(run_case(file, case), type="case", case=case))
    send({"type": "done"})


def _limit_memory(limit):
    """Cap the address space, so a case that exhausts memory raises instead of waking the OOM killer."""
    import resource

    try:
        with open("/proc/self/statm") as statm:
            in_use = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:  # not Linux: leave the address space alone
        return
    resource.setrlimit(resource.RLIMIT_AS, (in_use + limit, in_use + limit))


def _writable_folder(path):
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return False
    return os.access(path, os.W_OK)


class UserFile:
    """The file under test: compiled once, executed afresh for every run."""

    def __init__(self, path, source):
        from . import probes
        self.path = path
        self.code = compile(source, path, "exec")
        self.facts = probes.LineFacts(self.code)
        self.loop_heads = loop_heads(ast.parse(source))
        self.name, self.root = module_name(path)

    def execute(self):
        """A new module object from the file, so no jit cache or state carries between runs."""
        from . import probes
        module = types.ModuleType(self.name)
        module.__file__ = self.path
        module.__package__ = self.name.rpartition(".")[0]
        sys.modules[self.name] = module
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            exec(self.code, module.__dict__)  # noqa: S102 - running the user's cases is the point
        probes.install_module_probes(module.__dict__)
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


class Run:
    """One execution of one case: its recorder, the exception it raised, its module."""

    def __init__(self, recorder, exception, module):
        self.rec, self.exception, self.module = recorder, exception, module


def execute_case(file, case, eager, strict):
    import jax

    from . import probes
    module = file.execute()
    rec = probes.Recorder(file.path, file.facts, track_globals=eager)
    exception = None
    with ExitStack() as stack:
        stack.enter_context(redirect_stdout(io.StringIO()))
        stack.enter_context(redirect_stderr(io.StringIO()))
        stack.enter_context(probes.warnings_probe(rec))
        if eager:
            stack.enter_context(jax.disable_jit())
        if strict:
            stack.enter_context(jax.numpy_dtype_promotion("strict"))
        probes.RECORDER = rec
        try:
            with probes.tracing(rec):
                getattr(module, case)()
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a raising case is a result
            exception = exc
        finally:
            probes.RECORDER = None
    return Run(rec, exception, module)


def run_case(file, case):
    """Run ``case`` jitted and eagerly; return its status, events, observations and lines run."""
    import jax

    from . import probes
    events, observations = [], []

    def add(target, line, codes, mechanism, detail):
        target.append({"line": line, "codes": sorted(codes), "mechanism": mechanism, "detail": detail})

    jitted = execute_case(file, case, eager=False, strict=True)
    if isinstance(jitted.exception, jax.dtypes.TypePromotionError):
        line = exception_line(jitted.exception, file.path)
        if line is not None and is_promotion(jitted.exception):
            add(events, line, {"JNP401"}, "strict promotion", _one_line(jitted.exception))
        jitted = execute_case(file, case, eager=False, strict=False)
    # Only a case that traced some of the file's code can behave differently without jit.
    eager = None
    if jitted.exception is None and jitted.rec.traced:
        eager = execute_case(file, case, eager=True, strict=False)
    for (line, code), (mechanism, detail) in sorted(jitted.rec.events.items()):
        add(events, line, {code}, mechanism, detail)
    for (line, code), (mechanism, detail) in sorted(jitted.rec.observed.items()):
        add(observations, line, {code}, mechanism, detail)
    for line, (made, compiled) in sorted(probes.new_functions_compiled(jitted.rec).items()):
        if compiled > 1:
            add(observations, line, {"JNP602"}, "jit cache",
                f"jax.jit() here wrapped {made} new functions and JAX compiled {compiled} of them")
    status, error = "ok", None
    if jitted.exception is not None:
        status, error = "raised", _one_line(jitted.exception)
        codes = exception_codes(jitted.exception)
        line = exception_line(jitted.exception, file.path)
        if codes == {"JNP205"}:  # the method's definition is at fault, not the call
            line = _jitted_definition_line(jitted.exception, jitted.module, file.path) or line
        if codes and line is not None:
            add(events, line, codes, "exception", error)
    _transfers(file, jitted.rec, events, observations, add)
    if eager is not None and eager.exception is None:
        _trace_only_lines(file, jitted, eager, events, observations, add)
    lines = sorted(set(jitted.rec.lines) | set(eager.rec.lines if eager else ()))
    return {"status": status, "error": error, "events": events, "observations": observations,
            "lines": lines}


def _transfers(file, rec, events, observations, add):
    """JNP1xx: a transfer repeated at one line confirms; on every iteration of its loop it is an event."""
    mechanism = "transfer guard" if rec.guarded else "call site"

    def report(line, code, count, detail):
        if count < 2:
            return
        head = file.loop_heads.get(line)
        iterations = rec.lines[head] if head else None
        if iterations and count >= iterations:
            add(events, line, {code}, mechanism, f"{detail} {count}x, on each of {iterations} loop iterations")
        else:
            add(observations, line, {code}, mechanism, f"{detail} {count}x")

    for line, by_code in sorted(rec.d2h.items()):
        for code, count in sorted(by_code.items()):
            report(line, code, count, f"{rec.d2h_what[(line, code)]} copied device-to-host")
    for line, uploads in sorted(rec.uploads.items()):
        fingerprint, count = uploads.most_common(1)[0]
        report(line, "JNP104", count, f"the same host data ({fingerprint.split(':')[0]}) uploaded")


def _trace_only_lines(file, jitted, eager, events, observations, add):
    """JNP3xx: lines that ran fewer times than under disable_jit ran only while JAX traced."""
    from . import probes
    differing = [f"{name}()" for name, results in sorted(jitted.rec.results.items())
                 if not probes.same_results(results, eager.rec.results.get(name, []))]
    stale_results = f"; {', '.join(differing)} returned other values than under disable_jit" if differing else ""
    for line, eager_count in sorted(eager.rec.lines.items()):
        jit_count = jitted.rec.lines.get(line, 0)
        if not 0 < jit_count < eager_count:
            continue
        counts = f"{jit_count}x under jit, {eager_count}x under disable_jit"
        add(observations, line, {"JNP301", "JNP302", "JNP303", "JNP305"}, "trace count", f"line ran {counts}")
        for kind, code, what in (("print", "JNP301", "print()"), ("random", "JNP305", "host RNG/clock call")):
            jit_calls, eager_calls = jitted.rec.host_calls[kind][line], eager.rec.host_calls[kind][line]
            if jit_calls < eager_calls:
                add(events, line, {code}, "trace count",
                    f"{what} ran {jit_calls}x under jit, {eager_calls}x under disable_jit")
        rebound = file.facts.rebinds.get(line, set())
        for name in sorted(rebound):
            add(events, line, {"JNP302"}, "trace count", f"rebinding of '{name}' ran {counts}")
        for kind, name in sorted(file.facts.mutates.get(line, ())):
            if _outlives_trace(kind, name, line, jitted):
                add(events, line, {"JNP303"}, "trace count", f"mutation of {kind} '{name}' ran {counts}")
        for (value_line, name), values in sorted(eager.rec.global_values.items()):
            if value_line == line and len(values) > 1 and name not in rebound:
                add(events, line, {"JNP304"}, "disable_jit comparison",
                    f"global '{name}' had {len(values)} values across the eager calls; "
                    f"the line ran {counts}, so jit kept the first{stale_results}")


def is_promotion(exc):
    """A strict-mode error from a binary operation; not a bool operand (masks promote losslessly,
    as in NumPy) and not the cast of an .at[] update to the array's dtype."""
    dtypes = re.search(r"Input dtypes \(([^)]*)\)", str(exc))
    if dtypes and "'bool'" in dtypes.group(1):
        return False
    return not any(frame.name == "safe_to_cast" for frame in traceback.extract_tb(exc.__traceback__))


def _outlives_trace(kind, name, line, run):
    """A mutated module global (not a module) or self always outlives the trace; a closure's
    container only matters when a tracer was stored in it (collecting shapes is deliberate)."""
    if kind == "global":
        return not isinstance(run.module.__dict__.get(name), types.ModuleType)
    if kind == "closure":
        return (line, name) in run.rec.leaks
    return True


def exception_codes(exc):
    """The rules an exception raised while running a case can confirm (empty: unrelated)."""
    import jax

    errors = jax.errors
    message = str(exc)
    if isinstance(exc, errors.TracerArrayConversionError):
        return {"JNP201"}
    if isinstance(exc, errors.TracerBoolConversionError):
        return {"JNP202", "JNP203"}  # jnp.compress/extract raise it for their data-dependent size
    if isinstance(exc, errors.TracerIntegerConversionError):
        return {"JNP202"}
    if isinstance(exc, errors.NonConcreteBooleanIndexError):
        return {"JNP203"}
    if isinstance(exc, errors.ConcretizationTypeError):
        return {"JNP202", "JNP203"}
    if isinstance(exc, jax.dtypes.TypePromotionError):
        return {"JNP401"}
    if isinstance(exc, (TypeError, ValueError, NotImplementedError)):
        if any(text in message for text in ("immutable", "item assignment", "must be a numpy.ndarray")):
            return {"JNP501"}
        if "argument" in message and ("not supported" in message or "unexpected keyword" in message):
            return {"JNP503"}
    if isinstance(exc, (RuntimeError, ValueError)) and "has been deleted" in message:
        return {"JNP605"}  # a donated buffer used again (eagerly, or passed to a jitted call)
    if isinstance(exc, TypeError) and "as an abstract array" in message and "argument" in message:
        return {"JNP205"}  # a jitted method's self that JAX cannot trace
    if isinstance(exc, TypeError) and SEQUENCE_REFUSAL in message:
        return {"JNP505"}
    if isinstance(exc, TypeError) and ("Tracer" in message or "concrete" in message):
        return {"JNP202"}
    if isinstance(exc, IndexError) and "must be static" in message:
        return {"JNP202"}  # a slice bound that is a tracer
    if isinstance(exc, AttributeError):
        if message in ("__setitem__", "__delitem__"):
            return {"JNP501"}
        if _from_jax(getattr(exc, "obj", None)):
            return {"JNP501", "JNP502", "JNP504"}
    if isinstance(exc, ImportError) and (exc.name or "").split(".")[0] in ("jax", "jaxlib"):
        return {"JNP502", "JNP504"}
    return set()


def _jitted_definition_line(exc, module, path):
    """The first decorator line of the function JAX could not trace an argument of, named in the
    error as ``<function Class.method at 0x...>``; None when it is not a function of the file."""
    match = re.search(r"<function ([\w.]+) at 0x", str(exc))
    target = module
    for part in match.group(1).split(".") if match else ():
        target = getattr(target, part, None)
    code = getattr(inspect.unwrap(target), "__code__", None) if match and target is not None else None
    return code.co_firstlineno if code is not None and code.co_filename == path else None


def _from_jax(obj):
    import jax

    module = obj.__name__ if isinstance(obj, types.ModuleType) else type(obj).__module__
    return isinstance(obj, jax.Array) or module.split(".")[0] in ("jax", "jaxlib")


def exception_line(exc, path):
    """The innermost traceback line in the file under test."""
    line, tb = None, exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def loop_heads(tree):
    """line -> the line whose run count is the iteration count of the innermost loop around it
    in the same function: the first line of the loop body, or a while loop's test."""
    scopes = []

    def visit(node, depth):
        if isinstance(node, ast.While):  # the test runs once per iteration too
            scopes.append((depth, node.lineno, node.test.end_lineno, node.lineno))
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            scopes.append((depth, node.body[0].lineno, node.body[-1].end_lineno, node.body[0].lineno))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            scopes.append((depth, node.lineno, node.end_lineno, None))
        for child in ast.iter_child_nodes(node):
            visit(child, depth + 1)

    visit(tree, 0)
    heads = {}
    for _, first, last, head in sorted(scopes, key=lambda scope: scope[0]):  # inner scopes win
        for line in range(first, last + 1):
            heads[line] = head
    return {line: head for line, head in heads.items() if head is not None}


def _one_line(exc):
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:160]}" if text else type(exc).__name__
