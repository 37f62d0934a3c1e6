"""The probes installed once per process (``install_process_probes``), and line counting. Imports jax.

Print, warnings, host RNGs and clocks, PRNG key consumers, jax.jit and the
gradient transforms, JAX's trace events, and (through ``array_probes``) jax.Array
itself; ``tracing`` counts the lines of the watched files and records the
exceptions that pass through them. Like the array probes, these write into
``array_probes.RECORDER``.
"""
import builtins
import functools
import importlib
import inspect
import os
import re
import sys
import time
import timeit
import types
import warnings
from contextlib import contextmanager

import jax
import numpy as np

from .. import evidence as ev
from ..facts import CLOCKS, STDLIB_RANDOM
from . import array_probes
from .array_probes import install_array_probes, user_frame
from . import key_probes
from .device_arrays import computing, dispatched_arrays, frame_arrays, is_device_array
from .frames import LIBRARY_DIRS, OWN_DIR, in_other_code, place_of, watched_places
from .key_probes import install_key_probes, tracing_keys
from .observe import Stopped, exception_evidence, one_line

# A tracer formatted into a string before print() sees it (f"{x}"): JitTracer(float32[2]), Traced<...>.
TRACER_TEXT = re.compile(r"Tracer\(|Traced<")
TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"  # JAX's monitoring event for one trace
# JAX's monitoring events for the stages of one compile, which a timing run (timer.py) adds up.
COMPILE_STAGES = {TRACE_EVENT: "trace", "/jax/core/compile/jaxpr_to_mlir_module_duration": "lowering",
                  "/jax/core/compile/backend_compile_duration": "backend compile"}


def _watching(func, record):
    """``func``, calling ``record(recorder, caller's frame, positional arguments)`` first while a recorder is on."""
    @functools.wraps(func)
    def probe(*args, **kwargs):
        rec = array_probes.RECORDER
        if rec is not None:
            record(rec, sys._getframe(1), args)
        return func(*args, **kwargs)
    return probe


def _host_call_probe(kind, func, shows_tracer=None):
    """A host call counted per place; a print also as "print-tracer" when ``shows_tracer`` of its
    arguments (a print of shapes or constant strings at trace time shows real values, as intended)."""
    def record(rec, frame, args):
        if frame.f_code.co_filename in rec.watched:
            place = place_of(frame)
            rec.host_calls[kind][place] += 1
            if shows_tracer is not None and shows_tracer(args):
                rec.host_calls["print-tracer"][place] += 1
    return _watching(func, record)


def _print_shows_tracer(args):
    """print(x) shows a tracer it is given, or one formatted into its text."""
    return any(_holds_tracer(a) or _tracer_text(a) for a in args)


def _debug_print_shows_tracer(args):
    """jax.debug.print formats the tracers it is given into values on every call; only text
    formatted while tracing (``jax.debug.print(f"{x}")``) shows one."""
    return any(_tracer_text(a) for a in args)


def _tracer_text(value):
    return isinstance(value, str) and TRACER_TEXT.search(value) is not None


def _patch_host_calls(kind, qualnames):
    """Wrap each importable ``module.function`` of ``qualnames``; C types (datetime) stay as they are."""
    for qualname in sorted(qualnames):
        module_name, _, name = qualname.rpartition(".")
        try:
            owner = importlib.import_module(module_name)
            setattr(owner, name, _host_call_probe(kind, getattr(owner, name)))
        except (ImportError, AttributeError, TypeError):
            continue


def _compile_listener(event, duration, **kwargs):
    """Retracing: count each trace JAX makes at the innermost line of the file that caused it; in a
    timing run, time each stage of each compile there."""
    rec = array_probes.RECORDER
    if rec is None or event not in COMPILE_STAGES:
        return
    place = next(watched_places(rec.watched), None)
    if place is not None and rec.timer is not None:
        rec.timer.compile_stage([place, *_jit_places(rec)], COMPILE_STAGES[event], duration)
    if place is not None and event == TRACE_EVENT:
        rec.traces[place] += 1
        if rec.traces[place] > 1:
            rec.observed[(place, ev.RETRACE)] = ("trace count", f"JAX traced and compiled {rec.traces[place]}x for "
                                                 f"this line")


def _jit_places(rec):
    """Where the function JAX compiles now was given to jax.jit in a watched file (a jitted lambda
    bound in a loop and called on the next line): JAX's frame for a cache miss holds the function
    (private: none found, the compile counts only where it was called)."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_name == "cache_miss" and frame.f_code.co_filename.startswith(LIBRARY_DIRS):
            function = frame.f_locals.get("fun")
            return [place for place, wraps in rec.jit_wraps.items() if id(function) in wraps]
        frame = frame.f_back
    return []


def _jit_probe(jit):
    """Retracing: remember which new functions jax.jit wrapped for each watched line that called it,
    directly or through another jit wrapper (``@eqx.filter_jit`` calls jax.jit on a new function for
    each function it is given, so a def decorated in a loop makes a new one on every iteration)."""
    @functools.wraps(jit)
    def probe(fun, *args, **kwargs):
        own = callable(fun) and _user_code_outside_a_class(sys._getframe(1))
        traced, consumed = tracing_keys(fun) if own else (fun, None)
        jitted = jit(traced, *args, **kwargs)
        rec = array_probes.RECORDER
        for place in watched_places(rec.watched) if rec is not None else ():
            rec.jit_wraps[place].setdefault(id(traced), (traced, jitted))  # kept: ids stay unique
        if not own:
            return jitted
        key_probes.JITTED_CONSUMERS[id(jitted)] = (jitted, consumed)
        name = getattr(fun, "__name__", "jitted")  # (its calls probed as a watched module's jitted function's)
        return _kept_self(fun, array_probes.CallProbe(jitted, name, array_probes.jitted_call))
    return probe


def _kept_self(fun, jitted):
    """Stale static self: ``jax.jit(self.method)`` keeps ``self`` as a constant of the compiled code, as a
    class body's jitted method does (``JittedMethodProbe``): a call of it remembers the object."""
    obj = getattr(fun, "__self__", None)
    rec = array_probes.RECORDER
    if not inspect.ismethod(fun) or isinstance(obj, type) or rec is None \
            or not array_probes.watched_class(rec, type(obj)):
        return jitted
    array_probes.watch_attributes(type(obj))
    return _SelfKeeping(jitted, obj, f"{type(obj).__name__}.{fun.__name__}", frozenset(fun.__func__.__code__.co_names))


class _SelfKeeping:
    """A jitted bound method that remembers its object on each call; the rest (``lower``...) is the jitted one's."""

    def __init__(self, jitted, obj, name, reads):
        self._jitted, self._kept = jitted, (obj, name, reads)

    def __call__(self, *args, **kwargs):
        if array_probes.RECORDER is not None:
            array_probes.RECORDER.static_selves[id(self._kept[0])] = self._kept
        return self._jitted(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._jitted, name)


def _user_code_outside_a_class(frame):
    """Whether ``frame`` runs user code (not an installed package's: a watched file's, or a project
    module's) in a function or at a module's top level: a jitted function made there may stand in a
    probe (a class body's ``@jax.jit`` method must stay a descriptor)."""
    name = frame.f_code.co_filename
    if not in_other_code(name) or f"-packages{os.sep}" in name:
        return False
    return bool(frame.f_code.co_flags & inspect.CO_OPTIMIZED) or frame.f_locals is frame.f_globals


def _gradient_probe(transform, name):
    """Nan gradients: a gradient (or Jacobian) with nan where the function's value is finite, and the
    jnp.where lines of the file that ran while computing it. Under an outer transform
    (``jax.vmap(jax.grad(f))``, ``jax.jit``) the gradient is a tracer: a debug callback looks at its
    values, and the function's, when they are computed."""
    @functools.wraps(transform)
    def probe(fun, *args, **kwargs):
        differentiated = transform(fun, *args, **kwargs)
        has_aux = kwargs.get("has_aux", False)

        @functools.wraps(differentiated)
        def run(*call_args, **call_kwargs):
            rec = array_probes.RECORDER
            if rec is None:
                return differentiated(*call_args, **call_kwargs)
            rec.differentiating.append(set())
            try:
                result = differentiated(*call_args, **call_kwargs)
            finally:
                wheres = rec.differentiating.pop()
            if not wheres:
                return result
            gradient = result[1] if name == "value_and_grad" else result[0] if has_aux else result
            observe = functools.partial(_observe_nan_gradient, rec, wheres, name)
            arrays = _arrays(gradient)
            if any(isinstance(a, jax.core.Tracer) for a in arrays):
                jax.debug.callback(observe, arrays, _arrays(_value(rec, fun, has_aux, call_args, call_kwargs)))
            elif _has_nan(arrays):
                observe(arrays, _value(rec, fun, has_aux, call_args, call_kwargs))
            return result
        return run
    return probe


def _masked_take_probe(take):
    """Indexing a tracer (``(x ** 0.5)[x > 0]``) while jax.grad & co. compute: a boolean mask keeps
    part of the value and drops the rest, whose gradient is still computed, as a jnp.where drops
    a branch; its place is one a nan gradient may come from."""
    def probe(value, index):
        rec = array_probes.RECORDER
        if rec is not None and rec.differentiating and not array_probes.BUSY \
                and getattr(getattr(index, "dtype", None), "kind", None) == "b":
            frame = sys._getframe(1)
            while frame is not None and frame.f_code.co_filename not in rec.watched:
                frame = frame.f_back
            if frame is not None:
                rec.differentiating[-1].add(place_of(frame))
        return take(value, index)
    return probe


def _pullback_probe(transform, name):
    """Nan gradients through ``jax.vjp``: the jnp.where lines of the file that ran while it computed
    the function, and a nan in what the pullback it returns gives where the function's value is finite."""
    @functools.wraps(transform)
    def probe(fun, *primals, **kwargs):
        rec = array_probes.RECORDER
        if rec is None:
            return transform(fun, *primals, **kwargs)
        rec.differentiating.append(set())
        try:
            result = transform(fun, *primals, **kwargs)
        finally:
            wheres = rec.differentiating.pop()
        if not wheres:
            return result
        value, pullback = result[0], result[1]

        @functools.wraps(pullback)
        def pulled(*cotangents):
            gradient = pullback(*cotangents)
            if _has_nan(_arrays(gradient)):
                _observe_nan_gradient(rec, wheres, name, _arrays(gradient), _arrays(value))
            return gradient
        return (value, pulled, *result[2:])
    return probe


def _observe_nan_gradient(rec, wheres, name, gradient, value):
    with array_probes.probes_off():  # reading the values is the probe's, not the user's
        if _has_nan(gradient) and not _has_nan(value):
            for place in wheres:
                rec.observe(place, ev.NAN_GRADIENT, "nan gradient",
                            f"jax.{name}() gave a nan gradient where the function's value is finite")


def _value(rec, fun, has_aux, args, kwargs):
    """The differentiated function's value, computed for the verdict with the probes off."""
    array_probes.RECORDER = None
    try:
        value = fun(*args, **kwargs)
    finally:
        array_probes.RECORDER = rec
    return value[0] if has_aux else value


def _arrays(tree):
    return [leaf for leaf in jax.tree.leaves(tree) if isinstance(leaf, (jax.Array, jax.core.Tracer))]


def _has_nan(tree):
    return any(isinstance(leaf, (jax.Array, np.ndarray, float)) and not isinstance(leaf, jax.core.Tracer)
               and bool(np.isnan(np.asarray(leaf)).any()) for leaf in jax.tree.leaves(tree))


def _clock_probe(name, func):
    """Unsynchronised timing: a clock read while a device array of the reading frame (or of a list,
    tuple, dict, pytree or dataclass it holds: ``device_arrays.frame_arrays``), or what a jitted call on
    one of its lines returned (``dispatched_arrays``: a timed call whose result is discarded), is still
    being computed. A clock read in a context manager's ``__exit__`` ends the ``with`` block of the frame
    that called it: that frame's arrays are the timed work."""
    def record(rec, frame, _args):
        while frame is not None and frame.f_code.co_filename == __file__:
            frame = frame.f_back
        if frame is not None and frame.f_code.co_name == "__exit__" and frame.f_back is not None \
                and frame.f_back.f_code.co_filename in rec.watched:
            frame = frame.f_back
        if frame is not None and frame.f_code.co_filename in rec.watched:
            arrays = frame_arrays(frame.f_locals) | dispatched_arrays(frame.f_code, rec.dispatched)
            pending = sorted(local for local, value in arrays.items() if computing(value))
            if pending:
                rec.observe(place_of(frame), ev.UNFINISHED_AT_CLOCK, "async dispatch",
                            f"{name}() read the clock while {', '.join(pending)} was still being computed")
            if rec.timer is not None:
                rec.timer.clock_read([place_of(frame)], list(arrays.values()))
    return _watching(func, record)


def _timed_callable_probe(name, func):
    """Timing a callable (``timeit.repeat(lambda: f(x))``): a timed run that returns a device array
    still being computed timed its dispatch."""
    @functools.wraps(func)
    def probe(stmt="pass", *args, **kwargs):
        rec, frame = array_probes.RECORDER, sys._getframe(1)
        if rec is None or not callable(stmt) or frame.f_code.co_filename not in rec.watched:
            return func(stmt, *args, **kwargs)

        def timed():
            result = stmt()
            if any(is_device_array(a) and computing(a) for a in jax.tree.leaves(result)):
                rec.observe(place_of(frame), ev.UNFINISHED_AT_CLOCK, "async dispatch",
                            f"timeit.{name}() timed a call that returned before its result was computed")
            return result
        return func(timed, *args, **kwargs)
    return probe


def install_process_probes():
    """Patch print, jax.debug.print, warnings.warn, host RNGs and clocks, jax.Array conversions
    and jax.device_get/put."""
    if getattr(builtins.print, "__wrapped__", None) is not None:
        return  # installed already
    array_probes.BACKEND = jax.default_backend()
    builtins.print = _host_call_probe("print", builtins.print, _print_shows_tracer)
    jax.debug.print = _host_call_probe("print", jax.debug.print, _debug_print_shows_tracer)
    warnings.warn = _warn_probe(warnings.warn)
    for qualname in sorted(name for name in CLOCKS if name.startswith("time.")):
        name = qualname[len("time."):]
        setattr(time, name, _clock_probe(name, getattr(time, name)))
    for name in ("timeit", "repeat"):
        setattr(timeit, name, _timed_callable_probe(name, getattr(timeit, name)))
    jax.monitoring.register_event_duration_secs_listener(_compile_listener)
    jax.jit = _jit_probe(jax.jit)
    for name in ("grad", "value_and_grad", "jacrev", "jacfwd", "jacobian", "hessian"):
        setattr(jax, name, _gradient_probe(getattr(jax, name), name))
    jax.vjp = _pullback_probe(jax.vjp, "vjp")
    install_key_probes()
    _patch_host_calls("random", CLOCKS)
    _patch_host_calls("random", {f"random.{name}" for name in STDLIB_RANDOM})
    global_state = np.random.mtrand._rand
    for name in dir(np.random):
        value = getattr(np.random, name)
        if getattr(value, "__self__", None) is global_state and not name.startswith(("seed", "get_", "set_")):
            setattr(np.random, name, _host_call_probe("random", value))
    for module, names in HOST_CALLBACKS.items():
        for name in names:
            primitive = getattr(importlib.import_module(module), name, None)
            if primitive is not None:
                primitive.bind = _host_callback_probe(primitive.bind, names[name])
    install_array_probes()
    shaped_array = jax.core.ShapedArray  # a tracer's aval indexes it (Tracer.__getitem__)
    shaped_array._getitem = staticmethod(_masked_take_probe(shaped_array.__dict__["_getitem"].__func__))


# -- host callbacks under line counting --------------------------------------------------------

# module -> {primitive: what the user called}: what stages a call back into Python from compiled code
HOST_CALLBACKS = {"jax._src.debugging": {"debug_print_p": "jax.debug.print", "debug_callback_p": "jax.debug.callback"},
                  "jax._src.callback": {"pure_callback_p": "jax.pure_callback",
                                        "io_callback_p": "jax.experimental.io_callback"}}


class HostCallbackStaged(BaseException):
    """A case staged a host callback while its lines were counted, on a backend where that is not
    known to be safe: the worker runs it again without line counting. A BaseException: the case's
    own ``except Exception`` must not swallow it."""


def counts_lines_through_host_callbacks(backend):
    """Whether lines may be counted while code stages a host callback. On a TPU v5e (JAX 0.10.2) a
    jitted function calling jax.debug.print aborted the worker in 8 of 9 runs with line counting
    on and in 0 of 2 with it off (docs/figures.md, "Ninth round"): only the CPU is known safe."""
    return backend == "cpu"


def uncounted_reason(what):
    """Why a case or test ran without line counting: it staged the host callback ``what``."""
    return (f"it calls {what}, and on {array_probes.BACKEND} host callbacks under line counting aborted "
            "the runtime (docs/known-gaps.md)")


_on_host_callback = None  # set by ``tracing`` while lines are counted where host callbacks are unsafe


def _host_callback_probe(bind, what):
    def probe(*args, **params):
        if _on_host_callback is not None:
            _on_host_callback(what)
        return bind(*args, **params)
    return probe


# -- line counting ---------------------------------------------------------------------------

class Counting:
    """What ``tracing`` tells its caller: ``stopped_for``, the host callback that stopped line
    counting (then no line counts are kept), or ""."""

    def __init__(self):
        self.stopped_for = ""


@contextmanager
def tracing(rec, stop=None, count_lines=True, rerun_uncounted=True):
    """Make ``rec`` the recorder every probe reports to, and (``count_lines``) count each line of
    the watched files (and, if asked, the globals each line reads); a line of a frame that started
    while JAX traced also counts as traced. ``stop``: (place, runs), raise ``Stopped`` when that line
    starts its run number ``runs``. Where host callbacks are unsafe under line counting
    (``counts_lines_through_host_callbacks``), staging one raises ``HostCallbackStaged`` (the
    caller reruns without counting, ``rerun_uncounted``) or stops counting for the rest of the run
    and drops the counts (a test, run once). Yields a ``Counting``."""
    global _on_host_callback
    watched, counting = rec.watched, Counting()

    def lines(traced):
        def local(frame, event, arg):
            if event == "exception":
                _record_exception(rec, arg[1], arg[2])
            if rec.pending_leaks and frame in rec.pending_leaks and event in ("line", "return"):
                place, held = rec.pending_leaks.pop(frame)
                rec.leaks.update((place, name) for name, before in held.items()
                                 if _tracers(_outer_value(frame, name)) - before)
            if event == "line":
                path, line = place = frame.f_code.co_filename, frame.f_lineno
                rec.lines[place] += 1
                if stop is not None and stop == (place, rec.lines[place]):
                    raise Stopped
                if traced:
                    rec.traced_lines[place] += 1
                    if rec.jit_stack:
                        rec.line_jit.setdefault(place, rec.jit_stack[0])
                facts = watched.facts(path)
                if facts is None:
                    return local
                if line in facts.leak_watch:
                    # a tracer held before the line is none it stored: a pytree's leaves while a transform traces it
                    rec.pending_leaks[frame] = (place, {name: _tracers(_outer_value(frame, name))
                                                        for name in facts.leak_watch[line]})
                if rec.track_globals:
                    for kind, name in facts.outer_loads.get(line, ()):
                        values = frame.f_globals if kind == "global" else frame.f_locals
                        if name in values:
                            fingerprint = _value_fingerprint(values[name])
                            if fingerprint is not None:
                                rec.global_values[(place, kind, name)].add(fingerprint)
            return local
        return local

    eager_lines, traced_lines = lines(False), lines(True)

    def calls(frame, event, arg):
        if frame.f_code.co_filename not in watched:
            return None
        return eager_lines if _trace_state_clean() else traced_lines

    def host_callback(what):
        if rerun_uncounted:
            raise HostCallbackStaged(what)
        sys.settrace(None)
        counting.stopped_for = counting.stopped_for or what

    previous = sys.gettrace()
    array_probes.RECORDER = rec
    if count_lines:
        if not counts_lines_through_host_callbacks(array_probes.BACKEND):
            _on_host_callback = host_callback
        sys.settrace(calls)
    try:
        yield counting
    finally:
        sys.settrace(previous)
        _on_host_callback = None
        array_probes.RECORDER = None
        if counting.stopped_for:  # counts of part of the run would compare as if lines ran less
            rec.lines.clear()
            rec.traced_lines.clear()


# The exception types some rule accounts for (observe.exception_kinds); others are not looked at.
PITFALL_EXCEPTIONS = (TypeError, ValueError, NotImplementedError, IndexError, RuntimeError, AttributeError,
                      ImportError)


def _record_exception(rec, exc, tb):
    """An exception passing through a watched frame confirms a finding there even when something
    catches it later (``pytest.raises``, the code's own ``try``), at the first watched frame it
    reaches (its innermost). Only one that ends the case or test can be missed: a caught one may be
    a deliberate guard (``try: jnp.asanyarray ... except AttributeError``)."""
    if isinstance(exc, PITFALL_EXCEPTIONS):
        place, kinds, _ = exception_evidence(exc, rec.watched, tb)
        for kind in kinds:
            rec.observe(place, kind, "exception", one_line(exc))


def _trace_state_clean():
    """Whether no JAX transformation is tracing right now (private API: assume tracing if it moved)."""
    check = getattr(jax._src.core, "trace_state_clean", None)
    return check() if check is not None else False


def _holds_tracer(value):
    return bool(_tracers(value))


def _outer_value(frame, name):
    """The object a line mutates outside its frame: a closure variable or self (the frame's locals), or a global."""
    return frame.f_locals[name] if name in frame.f_locals else frame.f_globals.get(name)


def _tracers(value, depth=2):
    """The ids of the tracers a container (or object) of the user's holds now, two levels deep
    (``self.rng``, ``self.losses[0]``, ``seen[0]``)."""
    if isinstance(value, jax.core.Tracer):
        return {id(value)}
    if isinstance(value, dict):
        items = value.values()
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = value
    elif hasattr(value, "__dict__") and not isinstance(value, (type, types.ModuleType)):
        items = vars(value).values()
    else:
        return set()
    return set().union(*(_tracers(item, depth - 1) for item in items)) if depth > 0 else set()


def _value_fingerprint(value):
    """Something that changes when a global or closure data value or plain function is rebound
    (``global mock_fn; mock_fn = other``: jit keeps the first); None for other code and modules."""
    if isinstance(value, types.FunctionType):
        return f"function@{id(value)}"
    if callable(value) or isinstance(value, types.ModuleType):
        return None
    if isinstance(value, (bool, int, float, complex, str, bytes, type(None))):
        return repr(value)
    return f"{type(value).__name__}@{id(value)}"


def _warn_probe(warn):
    """``warnings.warn`` that leaves the probes' frames out of ``stacklevel``, so a warning shows where
    it shows without them (JAX's float64 warning at the user's line), and, while a recorder is on,
    records JAX's dtype-truncation and deprecation warnings at the innermost watched line (before
    any filter: an ignored warning was still issued)."""
    @functools.wraps(warn)
    def probe(message, category=None, stacklevel=1, *args, **kwargs):
        rec = array_probes.RECORDER
        if rec is not None:
            frame, inside = user_frame(sys._getframe(1), libraries_ask=False)
            if frame is not None:
                issued = type(message) if isinstance(message, Warning) else category or UserWarning
                _record_warning(rec, message, issued, sys._getframe(1).f_code.co_filename, place_of(frame), inside)
        if kwargs.get("skip_file_prefixes"):  # Python 3.12+ skips those frames itself: add the probes'
            kwargs["skip_file_prefixes"] = (*kwargs["skip_file_prefixes"], OWN_DIR)
            return warn(message, category, stacklevel + 1, *args, **kwargs)
        return warn(message, category, _level_without_probes(stacklevel), *args, **kwargs)
    return probe


def _level_without_probes(stacklevel):
    """The stacklevel that, given by the warn probe, names the frame ``stacklevel`` names for the probe's
    caller once the probes' frames are not counted (like ``warnings``, skipping importlib's own frames)."""
    frame, level, remaining = sys._getframe(1), 1, stacklevel  # the probe's frame is level 1
    while remaining > 0 and frame is not None:
        frame = frame.f_back
        while frame is not None and _is_importlib_frame(frame):
            frame = frame.f_back
        level += 1
        if frame is not None and not frame.f_code.co_filename.startswith(OWN_DIR):
            remaining -= 1
    return level + remaining


def _is_importlib_frame(frame):
    filename = frame.f_code.co_filename
    return "importlib" in filename and "_bootstrap" in filename


# What a deprecation warning says: a FutureWarning about something else (JAX's "scatter inputs have
# incompatible types ... will result in an error") is no deprecated or removed name.
DEPRECATION = re.compile(r"deprecat|removed|no longer", re.IGNORECASE)


def _record_warning(rec, message, category, issuer, place, inside_other_code):
    """JAX's dtype-truncation and deprecation warnings; ``issuer``: the file that called warn."""
    text = str(message).split(". ")[0].splitlines()[0][:160] if str(message) else category.__name__
    if issubclass(category, UserWarning) and "not available" in text:
        rec.event_or_observation(inside_other_code, place, ev.X64_TRUNCATION, "dtype warning",
                                 f"{category.__name__}: {text}")
    elif issubclass(category, (DeprecationWarning, FutureWarning)) and DEPRECATION.search(str(message)) and (
            issuer.startswith(LIBRARY_DIRS) or "jax" in text):
        rec.event_or_observation(inside_other_code, place, ev.JAX_DEPRECATION, "deprecation warning",
                                 f"{category.__name__}: {text}")
