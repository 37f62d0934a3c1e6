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
import re
import sys
import time
import types
import warnings
from contextlib import contextmanager

import jax
import numpy as np

from .. import evidence as ev
from ..api import random_samplers
from ..checks.keys import SPLIT
from ..checks.remade_keys import MAKERS
from ..facts import CLOCKS, STDLIB_RANDOM
from . import array_probes
from .array_probes import fingerprint, install_array_probes, is_device_array, user_frame
from .frames import LIBRARY_DIRS, OWN_DIR, place_of
from .observe import exception_evidence, one_line

# A tracer formatted into a string before print() sees it (f"{x}"): JitTracer(float32[2]), Traced<...>.
TRACER_TEXT = re.compile(r"Tracer\(|Traced<")
TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"  # JAX's monitoring event for one trace


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


def _key_consumer_probe(name, func):
    """Key reuse: record the key data each sampler call from the file consumes; the same data
    consumed again gives the same random bits. The reuse is seen at the sampler's line and at
    the lines of the file that called it there (a helper's caller passed the key to consume)."""
    @functools.wraps(func)
    def probe(*args, **kwargs):
        rec = array_probes.RECORDER
        if rec is not None and not array_probes.BUSY:
            frame = sys._getframe(1)
            key = args[0] if args else kwargs.get("key")
            if frame.f_code.co_filename in rec.watched and isinstance(key, jax.Array):
                place, fingerprint = place_of(frame), _key_fingerprint(key, rec)
                if fingerprint in rec.keys_consumed:
                    (_, first_line), first_name = rec.keys_consumed[fingerprint]
                    for caller in _watched_places(rec.watched):
                        rec.observe(caller, ev.KEY_REUSE, "key data", f"{name}() consumed the key data that "
                                    f"{first_name}() consumed on line {first_line}")
                else:
                    rec.keys_consumed[fingerprint] = (place, name)
        return func(*args, **kwargs)
    return probe


def _key_maker_probe(name, func):
    """Under a trace a key is a new tracer each time it is made; remember the maker and the seed (a
    Python integer, or a traced seed by identity), so that the same seed made again counts as the same
    key data (``_key_fingerprint``)."""
    @functools.wraps(func)
    def probe(*args, **kwargs):
        key = func(*args, **kwargs)
        rec = array_probes.RECORDER
        if rec is not None and not array_probes.BUSY and isinstance(key, jax.core.Tracer):
            seed = args[0] if args else kwargs.get("seed")
            if isinstance(seed, jax.core.Tracer):
                rec.traced_keys.append(seed)
                seed = f"tracer@{id(seed)}"
            elif not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
                return key
            rec.traced_keys.append(key)
            options = sorted((option, value) for option, value in kwargs.items() if option != "seed")
            rec.seeded_keys[id(key)] = f"{name}({seed}) {args[1:]} {options}"
        return key
    return probe


def _key_fingerprint(key, rec):
    """The key's data; for a traced key the concrete seed it was made from (``_key_maker_probe``), else
    its identity (the same tracer is the same key). A concrete key closed over by a lax.cond branch is
    read at compile time: key_data would be staged there."""
    if isinstance(key, jax.core.Tracer):
        rec.traced_keys.append(key)
        return rec.seeded_keys.get(id(key), f"tracer@{id(key)}")
    with jax.ensure_compile_time_eval():  # a concrete key closed over by a traced branch
        data = jax.random.key_data(key) if jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key) else key
    with array_probes.probes_off():  # on an accelerator np.asarray calls the probed __array__
        return fingerprint(np.asarray(data))


def _trace_listener(event, duration, **kwargs):
    """Retracing: count each trace JAX makes at the innermost line of the file that caused it."""
    rec = array_probes.RECORDER
    if rec is None or event != TRACE_EVENT:
        return
    place = next(_watched_places(rec.watched), None)
    if place is not None:
        rec.traces[place] += 1
        if rec.traces[place] > 1:
            rec.observed[(place, ev.RETRACE)] = ("trace count", f"JAX traced and compiled {rec.traces[place]}x for "
                                                 f"this line")


def _jit_probe(jit):
    """Retracing: remember which new functions each jax.jit call of the file wrapped."""
    @functools.wraps(jit)
    def probe(fun, *args, **kwargs):
        jitted = jit(fun, *args, **kwargs)
        rec = array_probes.RECORDER
        if rec is not None:
            frame = sys._getframe(1)
            if frame.f_code.co_filename in rec.watched:
                rec.jit_wraps[place_of(frame)].setdefault(id(fun), (fun, jitted))  # fun kept: ids stay unique
        return jitted
    return probe


def _gradient_probe(transform, name):
    """Nan gradients: a gradient with nan where the function's value is finite, and the jnp.where lines
    of the file that ran while computing it."""
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
            gradient = result[1] if name == "value_and_grad" else result[0] if has_aux else result
            if wheres and _has_nan(gradient):
                array_probes.RECORDER = None  # the value is computed for the verdict, not watched
                try:
                    value = fun(*call_args, **call_kwargs)
                finally:
                    array_probes.RECORDER = rec
                if not _has_nan(value[0] if has_aux else value):
                    for place in wheres:
                        rec.observe(place, ev.NAN_GRADIENT, "nan gradient",
                                    f"jax.{name}() gave a nan gradient where the function's value is finite")
            return result
        return run
    return probe


def _has_nan(tree):
    return any(isinstance(leaf, (jax.Array, np.ndarray, float)) and not isinstance(leaf, jax.core.Tracer)
               and bool(np.isnan(np.asarray(leaf)).any()) for leaf in jax.tree.leaves(tree))


def _clock_probe(name, func):
    """Unsynchronised timing: a clock read while a device array of the reading frame is still being computed."""
    def record(rec, frame, _args):
        while frame is not None and frame.f_code.co_filename == __file__:
            frame = frame.f_back
        if frame is not None and frame.f_code.co_filename in rec.watched:
            pending = sorted(local for local, value in frame.f_locals.items()
                             if is_device_array(value) and not value.is_ready())
            if pending:
                rec.observe(place_of(frame), ev.UNFINISHED_AT_CLOCK, "async dispatch",
                            f"{name}() read the clock while {', '.join(pending)} was still being computed")
    return _watching(func, record)


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
    jax.monitoring.register_event_duration_secs_listener(_trace_listener)
    jax.jit = _jit_probe(jax.jit)
    jax.grad = _gradient_probe(jax.grad, "grad")
    jax.value_and_grad = _gradient_probe(jax.value_and_grad, "value_and_grad")
    for qualname in sorted(random_samplers() | {SPLIT}):
        name = qualname.rpartition(".")[2]
        setattr(jax.random, name, _key_consumer_probe(name, getattr(jax.random, name)))
    for qualname in sorted(MAKERS):
        name = qualname.rpartition(".")[2]
        setattr(jax.random, name, _key_maker_probe(name, getattr(jax.random, name)))
    _patch_host_calls("random", CLOCKS)
    _patch_host_calls("random", {f"random.{name}" for name in STDLIB_RANDOM})
    global_state = np.random.mtrand._rand
    for name in dir(np.random):
        value = getattr(np.random, name)
        if getattr(value, "__self__", None) is global_state and not name.startswith(("seed", "get_", "set_")):
            setattr(np.random, name, _host_call_probe("random", value))
    install_array_probes()


# -- line counting ---------------------------------------------------------------------------

@contextmanager
def tracing(rec):
    """Make ``rec`` the recorder every probe reports to, and count each line of the watched files
    (and, if asked, the globals each line reads); a line of a frame that started while JAX traced
    also counts as traced."""
    watched = rec.watched

    def lines(traced):
        def local(frame, event, arg):
            if event == "exception":
                _record_exception(rec, arg[1], arg[2])
            if rec.pending_leaks and frame in rec.pending_leaks and event in ("line", "return"):
                place, names = rec.pending_leaks.pop(frame)
                rec.leaks.update((place, name) for name in names if _holds_tracer(frame.f_locals.get(name)))
            if event == "line":
                path, line = place = frame.f_code.co_filename, frame.f_lineno
                rec.lines[place] += 1
                if traced:
                    rec.traced_lines[place] += 1
                    if rec.jit_stack:
                        rec.line_jit.setdefault(place, rec.jit_stack[0])
                facts = watched.facts(path)
                if facts is None:
                    return local
                if line in facts.leak_watch:
                    rec.pending_leaks[frame] = (place, facts.leak_watch[line])
                if rec.track_globals:
                    for name in facts.global_loads.get(line, ()):
                        if name in frame.f_globals:
                            fingerprint = _value_fingerprint(frame.f_globals[name])
                            if fingerprint is not None:
                                rec.global_values[(place, name)].add(fingerprint)
            return local
        return local

    eager_lines, traced_lines = lines(False), lines(True)

    def calls(frame, event, arg):
        if frame.f_code.co_filename not in watched:
            return None
        return eager_lines if _trace_state_clean() else traced_lines

    previous = sys.gettrace()
    array_probes.RECORDER = rec
    sys.settrace(calls)
    try:
        yield
    finally:
        sys.settrace(previous)
        array_probes.RECORDER = None


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


def _holds_tracer(value, depth=2):
    """A container (or object) of the user's that now holds a tracer, two levels deep
    (``self.rng``, ``self.losses[0]``, ``seen[0]``)."""
    if isinstance(value, jax.core.Tracer):
        return True
    if isinstance(value, dict):
        items = value.values()
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = value
    elif hasattr(value, "__dict__") and not isinstance(value, (type, types.ModuleType)):
        items = vars(value).values()
    else:
        return False
    return depth > 0 and any(_holds_tracer(item, depth - 1) for item in items)


def _value_fingerprint(value):
    """Something that changes when a global data value is rebound; None for code and modules."""
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


def _record_warning(rec, message, category, issuer, place, inside_other_code):
    """JAX's dtype-truncation and deprecation warnings; ``issuer``: the file that called warn."""
    text = str(message).split(". ")[0].splitlines()[0][:160] if str(message) else category.__name__
    if issubclass(category, UserWarning) and "not available" in text:
        rec.event_or_observation(inside_other_code, place, ev.X64_TRUNCATION, "dtype warning",
                                 f"{category.__name__}: {text}")
    elif issubclass(category, (DeprecationWarning, FutureWarning)) and (
            issuer.startswith(LIBRARY_DIRS) or "jax" in text):
        rec.event_or_observation(inside_other_code, place, ev.JAX_DEPRECATION, "deprecation warning",
                                 f"{category.__name__}: {text}")


def _watched_places(watched):
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename in watched:
            yield place_of(frame)
        frame = frame.f_back
