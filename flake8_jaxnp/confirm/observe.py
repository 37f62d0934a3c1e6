"""Turn what the probes recorded during a run into evidence: events and observations.

Shared by the worker (cases) and the pytest plugin (tests). Each item is a dict
with the place (path, line), the evidence kind (``flake8_jaxnp.evidence``), the
mechanism that saw it and a one-line detail. Imports jax only inside functions.
"""
import ast
import functools
import inspect
import os
import re
import sys
import traceback
import types

from .. import evidence as ev
from ..facts import SEQUENCE_REFUSAL, is_promotion
from .frames import in_other_code, real_path


class Evidence:
    """The events and observations of one case or test."""

    def __init__(self):
        self.events, self.observations = [], []

    def add(self, target, place, kind, mechanism, detail):
        path, line = place
        target.append({"path": path, "line": line, "kind": kind, "mechanism": mechanism, "detail": detail})


def analyse(jitted, eager=None, promotion=None):
    """Status, events, observations and lines run of a case: ``jitted`` is its normal run,
    ``eager`` the rerun under disable_jit (or None), ``promotion`` the TypePromotionError that
    stopped a first run under strict promotion (or None)."""
    found = Evidence()
    if promotion is not None:
        place, inside = exception_place(promotion.__traceback__, jitted.rec.watched)
        if place is not None and is_promotion_error(promotion):
            found.add(found.observations if inside else found.events, place, ev.STRICT_PROMOTION,
                      "strict promotion", one_line(promotion))
    status, error = "ok", None
    if jitted.exception is not None:
        status = "exited" if isinstance(jitted.exception, SystemExit) else "raised"
        error = one_line(jitted.exception)
        add_exception(found, jitted.exception, jitted.rec.watched)
    recorded(found, jitted.rec)
    if eager is not None and _ended_alike(jitted, eager):
        _trace_only_lines(found, jitted, eager)
    lines = set(jitted.rec.lines) | set(eager.rec.lines if eager else ())
    return {"status": status, "error": error, "events": found.events, "observations": found.observations,
            "lines": sorted(lines)}


class Stopped(BaseException):
    """Raised by the line counter into the rerun without jit where the jitted run raised (the same
    line, run as often), so the two runs cover the same stretch of the case. A BaseException: the
    case's own ``except Exception`` must not swallow it."""


def stop_place(run):
    """(place, runs): where a rerun without jit stops for the two runs to be compared, the innermost
    watched line of the jitted run's exception and how often it ran; None when it raised none there."""
    if run.exception is None:
        return None
    place = exception_place(run.exception.__traceback__, run.rec.watched)[0]
    return (place, run.rec.lines[place]) if place in run.rec.lines else None


def _ended_alike(jitted, eager):
    """Whether the rerun without jit ended as the jitted run did: both finished, or both raised the
    same type of exception at the same watched line (or the rerun was stopped there), so their line
    counts cover the same stretch of the case."""
    first, second = jitted.exception, eager.exception
    if first is None or second is None:
        return first is second
    watched = jitted.rec.watched
    return ((type(first) is type(second) or isinstance(second, Stopped))
            and exception_place(first.__traceback__, watched)[0] == exception_place(second.__traceback__, watched)[0])


def add_exception(found, exc, watched):
    """An exception some rule accounts for (see ``exception_evidence``)."""
    place, kinds, inside = exception_evidence(exc, watched)
    for kind in kinds:
        found.add(found.observations if inside else found.events, place, kind, "exception", one_line(exc))


def exception_evidence(exc, watched, tb=None):
    """(place, sorted evidence kinds, whether it was raised inside unwatched code the place called) of
    an exception: the innermost watched line of its traceback ``tb`` (default: its own; while it
    propagates, Python has not set that yet), for an untraceable self the first decorator line of
    the jitted method; no kinds when no rule accounts for it."""
    tb = tb or exc.__traceback__
    kinds = exception_kinds(exc, tb)
    place, inside = exception_place(tb, watched) if kinds else (None, False)
    if ev.UNTRACEABLE_SELF in kinds:
        place = _jitted_definition_place(exc, tb, watched) or place
    return place, sorted(kinds) if place is not None else [], inside


def recorded(found, rec):
    """The probes' own events and observations, prints that showed tracers, and the host-device transfers."""
    for (place, kind), (mechanism, detail) in sorted(rec.events.items()):
        found.add(found.events, place, kind, mechanism, detail)
    for (place, kind), (mechanism, detail) in sorted(rec.observed.items()):
        found.add(found.observations, place, kind, mechanism, detail)
    for place, name in sorted(rec.leaks):
        found.add(found.events, place, ev.LEAKED_TRACER, "tracer leak", f"'{name}' held a tracer after the line")
    for place, shown in sorted(rec.host_calls["print-tracer"].items()):
        if 0 < rec.lines[place] == rec.traced_lines[place]:  # however few calls: the line never saw a value
            found.add(found.observations, place, ev.TRACE_ONLY_PRINT, "print probe",
                      f"print() showed a tracer {shown}x, on a line that ran only while JAX traced")
    for place, (made, compiled) in sorted(rec.new_functions_compiled().items()):
        if compiled > 1:
            found.add(found.observations, place, ev.RETRACE, "jit cache",
                      f"jax.jit, reached from this line (directly or through a jit wrapper), "
                      f"wrapped {made} new functions and JAX compiled {compiled} of them")
    _transfers(found, rec)


def _transfers(found, rec):
    """A transfer repeated at one place is an observation; on every iteration of its loop, an event."""
    mechanism = "transfer guard" if rec.guarded else "call site"

    def report(place, kind, count, detail):
        if count < 2:
            return
        path, line = place
        head, gates = loop_heads(path).get(line, (None, ()))
        iterations = rec.lines[(path, head)] if head else None
        # a loop in a block that some iterations of an outer loop skip (every N steps) is not hot
        if iterations and count >= iterations and not _skipped(rec.lines, path, gates):
            each = f"on each of {iterations} loop iterations" if iterations > 1 else "in the loop's only iteration"
            found.add(found.events, place, kind, mechanism, f"{detail} {count}x, {each}")
        else:
            found.add(found.observations, place, kind, mechanism, f"{detail} {count}x")

    for place, by_kind in sorted(rec.d2h.items()):
        for kind, count in sorted(by_kind.items()):
            report(place, kind, count, f"{rec.d2h_what[(place, kind)]} copied device-to-host")
    for place, by_kind in sorted(rec.d2h_via.items()):  # confirms a finding at the call, never "missed"
        for kind, count in sorted(by_kind.items()):
            if count >= 2:
                found.add(found.observations, place, kind, mechanism,
                          f"{rec.d2h_what[(place, kind)]} copied device-to-host {count}x")
    for place, uploads in sorted(rec.uploads.items()):
        fingerprint, count = uploads.most_common(1)[0]
        report(place, ev.SAME_UPLOAD, count, f"the same host data ({fingerprint.split(':')[0]}) uploaded")


def _trace_only_lines(found, jitted, eager):
    """Lines that ran fewer times than under disable_jit ran only while JAX traced."""
    differing = [f"{name}()" for name in sorted(jitted.rec.results) if not jitted.rec.same_results(eager.rec, name)]
    stale_results = f"; {', '.join(differing)} returned other values than under disable_jit" if differing else ""
    for place, eager_count in sorted(eager.rec.lines.items()):
        jit_count = jitted.rec.lines.get(place, 0)
        if not 0 < jit_count < eager_count:
            continue
        counts = f"{jit_count}x under jit, {eager_count}x under disable_jit"
        host_calls = {kind: (jitted.rec.host_calls[kind][place], eager.rec.host_calls[kind][place])
                      for kind in ("print", "random")}
        rebound = trace_only_effects(found, place, counts, host_calls, jitted)
        for (value_place, kind, name), values in sorted(eager.rec.global_values.items()):
            if value_place == place and len(values) > 1 and name not in rebound \
                    and not (kind == "closure" and _cell_made_per_trace(place, name, jitted, eager)):
                found.add(found.events, place, ev.STALE_GLOBAL, "disable_jit comparison",
                          f"{kind} '{name}' had {len(values)} values across the eager calls; "
                          f"the line ran {counts}, so jit kept the first{stale_results}")


def _cell_made_per_trace(place, name, jitted, eager):
    """Whether the function that makes the closure variable's cell itself ran only while JAX traced
    (a traced def's parameter read by a lambda in it): each trace gets its own cell, nothing is stale."""
    path, line = place
    owner = eager.rec.watched.facts(path).cell_lines.get((line, name), ())
    return any(0 < jitted.rec.lines.get((path, other), 0) < eager.rec.lines.get((path, other), 0) for other in owner)


def trace_only_effects(found, place, counts, host_calls, run):
    """Evidence at a line that ran only while JAX traced: the line itself, and the print, host
    RNG/clock call, rebinding or outer mutation in it. ``host_calls``: kind -> (calls in the run,
    calls a run without tracing would make). Returns the names the line rebinds."""
    path, line = place
    found.add(found.observations, place, ev.TRACE_ONLY_LINE, "trace count", f"line ran {counts}")
    for kind, evidence, what in (("print", ev.TRACE_ONLY_PRINT, "print()"),
                                 ("random", ev.TRACE_ONLY_HOST_RANDOM, "host RNG/clock call")):
        traced_calls, untraced_calls = host_calls[kind]
        shows_tracer = kind != "print" or run.rec.host_calls["print-tracer"][place] > 0
        if traced_calls < untraced_calls and shows_tracer:
            found.add(found.events, place, evidence, "trace count",
                      f"{what} ran {traced_calls}x under jit, {untraced_calls}x without it")
    facts = run.rec.watched.facts(path)
    if facts is None:
        return set()
    rebound = facts.rebinds.get(line, set())
    for name in sorted(rebound):
        found.add(found.events, place, ev.TRACE_ONLY_REBIND, "trace count", f"rebinding of '{name}' ran {counts}")
    for kind, name in sorted(facts.mutates.get(line, ())):
        if _outlives_trace(kind, name, place, run):
            found.add(found.events, place, ev.TRACE_ONLY_MUTATION, "trace count",
                      f"mutation of {kind} '{name}' ran {counts}")
    return rebound


NO_RERUN = "stale globals need the rerun under jax.disable_jit, which the pytest mode does not do"
UNCOUNTED_TRANSFORM = ("the line ran only while JAX traced, under a transform whose calls the pytest mode does "
                       "not count (it counts those of the watched files' jitted functions and of what user code jits)")


def trace_only_without_rerun(found, run):
    """Trace counting with no second run: a watched line that ran only while JAX traced, inside
    a call of a jitted function of a watched module, and fewer times than that function was
    called, ran only at trace time (later calls reused the compiled code). Returns the places
    where such evidence cannot be established, as [path, line, evidence kinds, why]."""
    rec, blind = run.rec, []
    for place, runs in sorted(rec.traced_lines.items()):
        blind.append([*place, [ev.STALE_GLOBAL], NO_RERUN])
        jitted = rec.line_jit.get(place)
        if runs == rec.lines[place] and jitted is None:
            blind.append([*place, sorted(ev.NEEDS_EAGER_RUN), UNCOUNTED_TRANSFORM])
        calls = rec.jit_calls[jitted] if jitted else 0
        if runs != rec.lines[place] or not runs < calls:
            continue
        counts = f"{runs}x while tracing, {jitted}() called {calls}x"
        host_calls = {kind: (rec.host_calls[kind][place], rec.host_calls[kind][place] * calls // runs)
                      for kind in ("print", "random")}
        trace_only_effects(found, place, counts, host_calls, run)
    return blind


def is_promotion_error(exc):
    """A strict-mode error from mixing operands that counts as a promotion (facts.is_promotion:
    not a weakly typed Python scalar, not a bool mask), and not the cast of an .at[] update to
    the array's dtype."""
    dtypes = re.search(r"Input dtypes \(([^)]*)\)", str(exc))
    if dtypes:
        operands = [(python_type or dtype, bool(python_type))
                    for python_type, dtype in re.findall(r"""<class '(\w+)'>|'(\w+)'""", dtypes.group(1))]
        if not is_promotion(operands):
            return False
    return not any(frame.name == "safe_to_cast" for frame in traceback.extract_tb(exc.__traceback__))


# Globals a line cannot mutate, whatever method it calls on them: a module, and immutable values
# (a NamedTuple such as an optax transformation, whose ``update`` is a function it holds).
_IMMUTABLE = (types.ModuleType, tuple, frozenset, str, bytes, int, float, complex)


def _outlives_trace(kind, name, place, run):
    """A mutated module global (one that can be mutated) always outlives the trace; a closure's
    container or self only matters when a tracer was stored in it (collecting shapes, memoising a
    jitted function or static names once per trace is deliberate)."""
    if kind == "global":
        namespace = run.module.__dict__ if run.module is not None and run.module.__file__ == place[0] else None
        value = namespace.get(name) if namespace is not None else _global_of(place[0], name)
        return not isinstance(value, _IMMUTABLE)
    return (place, name) in run.rec.leaks


def _global_of(path, name):
    """The value of global ``name`` in the imported module of ``path`` (None if not found)."""
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if isinstance(file, str) and real_path(file) == path:
            return vars(module).get(name)
    return None


def exception_kinds(exc, tb):
    """The evidence kinds an exception raised while running a case is (empty: unrelated); ``tb``: its traceback."""
    import jax

    errors = jax.errors
    message = str(exc)
    if isinstance(exc, errors.TracerArrayConversionError):
        return {ev.TRACER_TO_NUMPY}
    if isinstance(exc, (errors.TracerBoolConversionError, errors.TracerIntegerConversionError)):
        return {ev.TRACER_TO_PYTHON}
    if isinstance(exc, errors.NonConcreteBooleanIndexError):
        return {ev.BOOLEAN_INDEX}
    if isinstance(exc, errors.ConcretizationTypeError):
        return {ev.CONCRETIZATION}
    wrapped = exc.__cause__ or exc.__context__  # a library re-raising JAX's error (SciPy's minimize: ValueError)
    if isinstance(wrapped, (errors.TracerArrayConversionError, errors.ConcretizationTypeError)):
        return exception_kinds(wrapped, tb)
    if "unhashable type" in message and "Tracer" in message:
        return {ev.TRACER_TO_PYTHON}  # a tracer JAX hashed as a static parameter (matrix_power's exponent)
    if isinstance(exc, jax.dtypes.TypePromotionError):
        return {ev.STRICT_PROMOTION} if is_promotion_error(exc) else set()
    if isinstance(exc, (TypeError, ValueError, NotImplementedError)):
        if any(text in message for text in ("immutable", "item assignment", "must be a numpy.ndarray")):
            return {ev.IMMUTABLE_ARRAY}
        if _refused_argument(exc, message):
            return {ev.UNSUPPORTED_ARGUMENT}
        if _raised_by_jax(tb) and any(text in message for text in REFUSED_VALUE_MESSAGES):
            return {ev.UNSUPPORTED_ARGUMENT}  # take(mode="raise"), asarray(order="F"), median(overwrite_input=True)
        if isinstance(exc, NotImplementedError) and message.startswith("JAX Arrays do not implement"):
            return {ev.MISSING_JAX_ATTRIBUTE}  # x.flat exists but raises
        if isinstance(exc, TypeError) and message.endswith("Device' object is not callable"):  # 3.12 qualifies it
            return {ev.MISSING_JAX_ATTRIBUTE}  # x.device() after device became a property
    if isinstance(exc, TypeError) and "as an abstract array" in message and "argument" in message:
        return {ev.UNTRACEABLE_SELF}  # e.g. a jitted method's plain-object self
    if isinstance(exc, TypeError) and SEQUENCE_REFUSAL in message:
        return {ev.SEQUENCE_ARGUMENT}
    if isinstance(exc, TypeError) and ("Tracer" in message or "concrete" in message):
        return {ev.TRACER_TO_PYTHON}
    if isinstance(exc, IndexError) and "must be static" in message:
        return {ev.TRACED_SLICE}
    if isinstance(exc, (RuntimeError, ValueError)) and any(text in message for text in DELETED_BUFFER_ERRORS):
        return {ev.DELETED_BUFFER}  # eagerly, or passed to a jitted call
    if isinstance(exc, AttributeError):
        if message in ("__setitem__", "__delitem__"):
            return {ev.IMMUTABLE_ARRAY}
        if _from_jax(getattr(exc, "obj", None)):
            return {ev.MISSING_JAX_ATTRIBUTE}
        if _raised_by_jax(tb) and message.startswith("Unrecognized config option"):
            return {ev.MISSING_JAX_ATTRIBUTE}  # jax.config.update("jax_array", True) for a removed option
    if isinstance(exc, ImportError) and (exc.name or "").split(".")[0] in ("jax", "jaxlib"):
        return {ev.MISSING_JAX_IMPORT}
    return set()


# How jax.numpy words the refusal of a NumPy argument value it does not implement.
# A donated buffer used again: "Array has been deleted" (eagerly; a jitted call on the CPU says
# "Buffer has been deleted or donated"), "Donation requested for invalid buffer" (a jitted call on a TPU),
# "Attempt to use a buffer that was previously donated in the same call" (f(x, x) donating the first x),
# "Attempt to donate the same buffer twice" (a donated pytree holding one array under two names)
DELETED_BUFFER_ERRORS = ("has been deleted", "Donation requested for invalid buffer", "previously donated",
                         "donate the same buffer twice")
REFUSED_VALUE_MESSAGES = ("is not supported", "Only implemented for", "does not support")


def _raised_by_jax(tb):
    """True when the innermost frame of traceback ``tb`` is JAX's own code."""
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and f"{os.sep}jax{os.sep}" in tb.tb_frame.f_code.co_filename


def _refused_argument(exc, message):
    """Every form in which jax.numpy refuses an argument: "... argument ... not supported",
    "unexpected keyword argument", and NotImplementedError("out argument of <jnp.ufunc 'add'>")."""
    if "argument" not in message:
        return False
    return ("not supported" in message or "unexpected keyword" in message
            or (isinstance(exc, NotImplementedError) and re.match(r"\w+ argument of ", message) is not None))


def _jitted_definition_place(exc, tb, watched):
    """(path, first decorator line) of the method named in the error as ``<function Class.method at
    0x...>`` when what it refuses is its first parameter (``at path self``), looked up from the watched
    frames of the traceback; None if not found (an argument of a plain function stays at its call)."""
    match = re.search(r"<function ([\w.]+\.[\w]+) at 0x", str(exc))
    refused = re.search(r"at path (\w+)", str(exc))
    tb = tb if match and refused else None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename in watched:
            target = tb.tb_frame.f_globals
            parts = match.group(1).split(".")
            target = target.get(parts[0])
            for part in parts[1:]:
                target = getattr(target, part, None)
            code = getattr(inspect.unwrap(target), "__code__", None) if target is not None else None
            if code is not None and code.co_filename in watched and code.co_varnames[:1] == (refused.group(1),):
                return code.co_filename, code.co_firstlineno
        tb = tb.tb_next
    return None


def _from_jax(obj):
    import jax

    module = obj.__name__ if isinstance(obj, types.ModuleType) else type(obj).__module__
    return isinstance(obj, jax.Array) or module.split(".")[0] in ("jax", "jaxlib")


def exception_place(tb, watched):
    """(the innermost place of traceback ``tb`` in a watched file, whether the traceback runs on from there
    into unwatched code of its own, see ``frames.in_other_code``: the exception was raised inside that code)."""
    place, inside = None, False
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename in watched:
            place, inside = (filename, tb.tb_lineno), False
        elif place is not None:
            inside = inside or in_other_code(filename)
        tb = tb.tb_next
    return place, inside


@functools.lru_cache(maxsize=None)
def loop_heads(path):
    """line -> (head, gates): the head is the line whose run count is the iteration count of the
    innermost loop around it in the same function (the first line of the loop body, or a while
    loop's test); the gates are (test line, branch's first line) of each ``if`` that holds that
    loop inside an outer loop of the function (``if step % N == 0: for split in splits:``), as
    ``_entry_lines`` gives them.
    Iterative, so deeply nested code (long elif chains) cannot exhaust the stack."""
    try:
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    scopes, stack = [], [(tree, 0, None)]  # None: outside any loop of the function, else its gates
    while stack:
        node, depth, gates = stack.pop()
        if isinstance(node, ast.While):  # the test runs once per iteration too
            scopes.append((depth, node.lineno, node.test.end_lineno, (node.lineno, gates or ())))
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            scopes.append((depth, node.body[0].lineno, node.body[-1].end_lineno, (node.body[0].lineno, gates or ())))
            inside = gates or ()
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            scopes.append((depth, node.lineno, node.end_lineno, None))
            inside = None
        else:
            inside = gates
        if isinstance(node, ast.If) and gates is not None:
            for branch in (node.body, node.orelse):
                gated = (*gates, (node.lineno, *_entry_lines(branch[0]))) if branch else gates
                stack.extend((child, depth + 1, gated) for child in branch)
            stack.append((node.test, depth + 1, gates))
        else:
            stack.extend((child, depth + 1, inside) for child in ast.iter_child_nodes(node))
    heads = {}
    for _, first, last, head in sorted(scopes, key=lambda scope: scope[0]):  # inner scopes win
        for line in range(first, last + 1):
            heads[line] = head
    return {line: head for line, head in heads.items() if head is not None}


def _entry_lines(statement):
    """(its line, the first line of its body when it is a loop, else None): a loop's line runs once
    more than its body on each entry (the last ``next`` or test), so the difference counts entries."""
    is_loop = isinstance(statement, (ast.For, ast.AsyncFor, ast.While))
    return statement.lineno, statement.body[0].lineno if is_loop else None


def _skipped(counts, path, gates):
    """True when a gate's branch ran fewer times than its ``if`` was tested: some iterations of
    the outer loop skip the block (every N steps)."""
    for test, first, loop_body in gates:
        if first != test != loop_body:
            entries = counts[(path, first)] - (counts[(path, loop_body)] if loop_body else 0)
            if entries < counts[(path, test)]:
                return True
    return False


def one_line(exc):
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:160]}" if text else type(exc).__name__
