"""What the worker (or the pytest plugin) watches while code runs. Imports jax.

Every probe writes into the current ``Recorder`` (one per run of one case or
test) and only records what a frame of a watched file did, keyed by the place
(path, line), so JAX's and NumPy's own use of the same functions is invisible
and a pitfall in one watched file counts whichever file's code reached it.
"""
import builtins
import dis
import functools
import hashlib
import importlib
import os
import sys
import sysconfig
import time
import types
import warnings
from collections import Counter, defaultdict
from contextlib import contextmanager

import jax
import jax.numpy as jnp
import numpy as np

from .. import evidence as ev
from ..api import random_samplers
from ..checks.keys import SPLIT
from ..facts import AT_UPDATES, CLOCKS, STDLIB_RANDOM, WIDE_DTYPES, is_promotion

D2H_KINDS = {"numpy": ev.TO_NUMPY, "scalar": ev.TO_SCALAR, "format": ev.FORMATTING}
# NumPy functions that read only an array's metadata, never its data.
NUMPY_METADATA = frozenset({"shape", "ndim", "size", "result_type", "iscomplexobj", "isrealobj", "isscalar",
                            "iterable", "can_cast", "min_scalar_type", "isfortran"})
# Directories whose frames stand between a conversion and the user line that
# caused it only when JAX or NumPy themselves asked for the value.
LIBRARY_DIRS = tuple(os.path.dirname(module.__file__) + os.sep for module in (jax, np))
# Frames that stand between an event and the watched line without taking it over: the standard
# library's (print, unittest's assertions) and the runtime mode's own.
PASSING_DIRS = tuple({sysconfig.get_paths()[key] + os.sep for key in ("stdlib", "platstdlib")})
OWN_DIR = os.path.dirname(__file__) + os.sep
OPERATORS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
             "pow": "**", "matmul": "@"}
FORMAT_OPS = frozenset({"FORMAT_VALUE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC"})  # f-strings, by Python version
TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"  # JAX's monitoring event for one trace
HASH_LIMIT = 16 << 20  # bytes of host data hashed to recognise a repeated upload

BACKEND = "cpu"  # set by install_process_probes
RECORDER = None  # the Recorder of the run in progress, or None
_busy = False  # a probe is already handling this call: nested conversions are its own


class Recorder:
    """Everything observed during one run of one case (or test), keyed by place (path, line)."""

    def __init__(self, watched, track_globals=False, operand_dtypes=False):
        self.watched = watched  # Watched: the files whose frames count
        self.track_globals = track_globals  # fingerprint the globals each line reads (eager runs)
        self.operand_dtypes = operand_dtypes  # compare operator dtypes (where strict promotion is not used)
        self.pending_leaks = {}  # frame -> (place, closure names it mutated), checked at its next line
        self.leaks = set()  # (place, name): a closure container that held a tracer after the line
        self.lines = Counter()  # place -> times it ran
        self.traced_lines = Counter()  # place -> times it ran while JAX traced
        self.line_jit = {}  # place -> the outermost jitted function being called when it traced
        self.jit_stack = []  # jitted functions of watched modules being called now
        self.jit_calls = Counter()  # jitted function -> calls
        self.host_calls = defaultdict(Counter)  # "print"/"random" -> place -> calls
        self.global_values = defaultdict(set)  # (place, name) -> fingerprints of values read
        self.d2h = defaultdict(Counter)  # place -> evidence kind -> transfers
        self.d2h_what = {}  # (place, kind) -> what transferred first
        self.d2h_via = defaultdict(Counter)  # call site in a watched file -> kind -> transfers made below it
        self.uploads = defaultdict(Counter)  # place -> data fingerprint -> uploads
        self.events = {}  # (place, kind) -> (mechanism, detail): seen once is enough
        self.guarded = False  # a transfer guard confirmed a transfer
        self.results = defaultdict(list)  # jitted function -> what its calls returned
        self.observed = {}  # (place, kind) -> (mechanism, detail): evidence that is never "missed"
        self.keys_consumed = {}  # key fingerprint -> (place, sampler) of its first consumption
        self.traced_keys = []  # traced keys seen, kept alive so that their ids stay unique
        self.traces = Counter()  # place -> functions JAX traced for a call there
        self.jit_wraps = defaultdict(dict)  # place -> {id of a function jax.jit wrapped there: (it, jitted)}
        self.differentiating = []  # per jax.grad call in progress: the places of the jnp.where calls it ran
        self.static_selves = {}  # id of an object a jitted method ran on -> (object, method, names it reads)

    def event(self, place, kind, mechanism, detail):
        self.events.setdefault((place, kind), (mechanism, detail))

    def observe(self, place, kind, mechanism, detail):
        self.observed.setdefault((place, kind), (mechanism, detail))

    def event_or_observation(self, inside_other_code, place, kind, mechanism, detail):
        """An event; an observation when it happened inside unwatched code that the watched line
        called (a promotion inside optax): it confirms a finding there but is never "missed"."""
        (self.observe if inside_other_code else self.event)(place, kind, mechanism, detail)


def _place(frame):
    return frame.f_code.co_filename, frame.f_lineno


def _transfer_guard(direction):
    return jax.transfer_guard_device_to_host if direction == "d2h" else jax.transfer_guard_host_to_device


def _call_guarded(direction, call):
    """Run ``call``; on an accelerator, first under a disallowing transfer guard.

    Returns (result, moved): moved is None on the CPU backend (no guard fires
    there), else whether the guard saw a transfer.
    """
    global _busy
    _busy = True
    try:
        if BACKEND == "cpu":
            return call(), None
        try:
            with _transfer_guard(direction)("disallow"):
                return call(), False
        except Exception as exc:  # noqa: BLE001 - the guard's error type differs between versions
            if "Disallowed" not in str(exc):
                raise
            return call(), True
    finally:
        _busy = False


def _record_d2h(place, kind, what, call, moved_if=None, inside_other_code=False):
    """Run a conversion; count it when a guard saw a transfer, or (CPU) when ``moved_if(result)``.
    One made inside unwatched code counts only for the watched call that reached it (``d2h_via``)."""
    result, moved = _call_guarded("d2h", call)
    guarded = moved is True
    if moved is None and moved_if is not None:
        moved = moved_if(result)
    if moved is not False:
        counts = RECORDER.d2h_via if inside_other_code else RECORDER.d2h
        counts[place][kind] += 1
        RECORDER.d2h_what.setdefault((place, kind), f"{what} (in code called here)" if inside_other_code else what)
        RECORDER.guarded |= guarded
        for caller in _watched_callers(place):
            RECORDER.d2h_via[caller][kind] += 1
            RECORDER.d2h_what.setdefault((caller, kind), f"{what} (in a function called here)")
    return result


def _watched_callers(place):
    """Places in watched files that called, further out, the code transferring at ``place``
    (a helper in model.py converting its argument, called in train.py's loop)."""
    callers, frame, seen_inner = [], sys._getframe(2), False
    while frame is not None:
        if frame.f_code.co_filename in RECORDER.watched:
            if seen_inner:
                callers.append(_place(frame))
            seen_inner = seen_inner or _place(frame) == place
        frame = frame.f_back
    return callers


def _is_device_array(value):
    return isinstance(value, jax.Array) and not isinstance(value, jax.core.Tracer)


def _arguments(args, kwargs):
    for value in (*args, *kwargs.values()):
        yield value
        if isinstance(value, (list, tuple)):
            yield from value


def _is_wide_host(value):
    return isinstance(value, (np.ndarray, np.generic)) and value.dtype.name in WIDE_DTYPES


def _fingerprint(data):
    """dtype[shape]:content hash; identity instead of content for arrays too big to hash each time."""
    if data.nbytes > HASH_LIMIT:
        digest = f"id{id(data)}"
    else:
        digest = hashlib.blake2b(np.ascontiguousarray(data).tobytes(), digest_size=8).hexdigest()
    return f"{data.dtype}{list(data.shape)}:{digest}"


# -- call-site probes for the module's NumPy and jax.numpy names --------------------------

class CallProbe:
    """A stand-in for one library function that reports each call from a watched file."""

    __slots__ = ("_func", "_name", "_on_call", "__weakref__")  # jax caches functions by weak reference

    def __init__(self, func, name, on_call):
        self._func, self._name, self._on_call = func, name, on_call

    def __call__(self, *args, **kwargs):
        rec = RECORDER
        if rec is None or _busy:
            return self._func(*args, **kwargs)
        frame = sys._getframe(1)
        if frame.f_code.co_filename not in rec.watched:
            return self._func(*args, **kwargs)
        return self._on_call(_place(frame), self._func, self._name, args, kwargs)

    def __getattr__(self, attr):
        return getattr(self._func, attr)

    def __repr__(self):
        return repr(self._func)


class ModuleProbe(types.ModuleType):
    """A module stand-in whose functions are CallProbes; everything else is the module's own."""

    def __init__(self, module, prefix, on_call):
        super().__init__(module.__name__, module.__doc__)
        self.__dict__.update(_probe_module=module, _probe_prefix=prefix, _probe_on_call=on_call)

    def __getattr__(self, name):
        value = getattr(self._probe_module, name)
        if _probe_worthy(value):
            value = CallProbe(value, f"{self._probe_prefix}.{name}", self._probe_on_call)
        self.__dict__[name] = value
        return value


def _probe_worthy(value):
    """Plain functions and ufuncs; not types, dtypes (jnp.float32 is callable) or modules."""
    return callable(value) and not isinstance(value, (type, types.ModuleType)) and not hasattr(value, "dtype")


def _numpy_call(place, func, name, args, kwargs):
    if name.rpartition(".")[2] in NUMPY_METADATA or not any(
            _is_device_array(value) for value in _arguments(args, kwargs)):
        return func(*args, **kwargs)
    return _record_d2h(place, ev.TO_NUMPY, f"{name}()", lambda: func(*args, **kwargs), moved_if=_is_host_value)


def _is_host_value(result):
    """NumPy data or Python numbers came back: the device data was read (np.sum(x) instead
    dispatches to x.sum() and returns a JAX array)."""
    if isinstance(result, (list, tuple)):
        return any(_is_host_value(item) for item in result)
    return isinstance(result, (np.ndarray, np.generic, bool, int, float, complex))


def _jax_numpy_call(place, func, name, args, kwargs):
    if name == "jnp.where" and len(args) == 3 and RECORDER.differentiating:
        RECORDER.differentiating[-1].add(place)
    explicit_dtype = kwargs.get("dtype") is not None or (
        name in ("jnp.array", "jnp.asarray") and len(args) > 1 and args[1] is not None)
    if not explicit_dtype:
        _check_narrowing(place, f"{name}()", _arguments(args, kwargs))
    if name in ("jnp.array", "jnp.asarray", "jax.device_put"):
        return _upload(place, name, func, args, kwargs)
    return func(*args, **kwargs)


def _check_narrowing(place, where, values, inside_other_code=False):
    """NumPy 64-bit data reaching JAX while x64 is off comes out 32-bit."""
    if jax.config.jax_enable_x64:
        return
    wide = next((value for value in values if _is_wide_host(value)), None)
    if wide is not None:
        RECORDER.event_or_observation(inside_other_code, place, ev.WIDE_HOST_DATA, "dtype",
                                      f"NumPy {wide.dtype.name} data passed to {where} came out 32-bit (x64 off)")


def _jitted_call(place, func, name, args, kwargs):
    rec = RECORDER
    _check_narrowing(place, f"jitted {name}()", _arguments(args, kwargs))
    rec.jit_calls[name] += 1
    for data in _arguments(args, kwargs):
        if isinstance(data, np.ndarray):  # jit copies NumPy arguments to the device on every call
            rec.uploads[place][_fingerprint(data)] += 1
    rec.jit_stack.append(name)
    try:
        result = func(*args, **kwargs)
    finally:
        rec.jit_stack.pop()
    rec.results[name].append(result)
    return result


def same_results(first, second):
    """Whether two runs' results of one function agree (values that cannot be compared do)."""
    if len(first) != len(second):
        return False
    for x, y in zip(first, second):
        leaves_x, leaves_y = jax.tree.leaves(x), jax.tree.leaves(y)
        if len(leaves_x) != len(leaves_y):
            return False
        try:
            if not all(np.allclose(np.asarray(a), np.asarray(b), equal_nan=True) for a, b in zip(leaves_x, leaves_y)):
                return False
        except (TypeError, ValueError, RuntimeError):  # RuntimeError: a result donated to a later call
            continue
    return True


def _operator_probe(method, symbol):
    def probe(self, other):
        rec = RECORDER
        if rec is not None and not _busy:
            frame, inside = _user_frame(sys._getframe(1))
            if frame is not None:
                if _is_wide_host(other):
                    _check_narrowing(_place(frame), f"the {symbol} operator", [other], inside)
                if rec.operand_dtypes:
                    _check_promotion(_place(frame), symbol, self, other, inside)
        return method(self, other)
    return probe


def _check_promotion(place, symbol, left, right, inside_other_code):
    """An operator mixing dtypes of two arrays (watched without strict promotion, which would
    change what the code does): the same definition as the linter's."""
    operands = [(str(value.dtype), bool(getattr(value, "weak_type", False)))
                for value in (left, right) if isinstance(value, (jax.Array, np.ndarray, np.generic))]
    if len(operands) == 2 and operands[0][0] != operands[1][0] and is_promotion(operands):
        RECORDER.event_or_observation(inside_other_code, place, ev.STRICT_PROMOTION, "operand dtypes",
                                      f"{operands[0][0]} {symbol} {operands[1][0]} promoted implicitly")


def _upload(place, name, func, args, kwargs):
    data = args[0] if args else None
    if not isinstance(data, np.ndarray):
        return func(*args, **kwargs)
    result, moved = _call_guarded("h2d", lambda: func(*args, **kwargs))
    if moved is not False:
        RECORDER.uploads[place][_fingerprint(data)] += 1
        RECORDER.guarded |= moved is True
    return result


def _device_get_call(place, func, name, args, kwargs):
    return _record_d2h(place, ev.TO_NUMPY, f"{name}()", lambda: func(*args, **kwargs))


NUMPY_PROBE = ModuleProbe(np, "np", _numpy_call)
JAX_NUMPY_PROBE = ModuleProbe(jnp, "jnp", _jax_numpy_call)


class JittedMethodProbe:
    """Stale static self: a jitted method of a class of the file; remembers the objects it was called on."""

    def __init__(self, jitted, name):
        self._jitted, self._name = jitted, name
        code = getattr(getattr(jitted, "__wrapped__", None), "__code__", None)
        self._reads = frozenset(code.co_names if code is not None else ())  # the attributes it may read

    def __get__(self, obj, owner=None):
        if obj is None:
            return self._jitted
        rec, jitted = RECORDER, self._jitted

        def bound(*args, **kwargs):
            if rec is not None:
                rec.static_selves[id(obj)] = (obj, self._name, self._reads)
            return jitted(obj, *args, **kwargs)
        return bound

    def __call__(self, *args, **kwargs):
        return self._jitted(*args, **kwargs)


def _watch_attributes(cls):
    """Stale static self: report an assignment from the file to an attribute that a jitted method read
    after the method was called on the object (it is the method's static cache key)."""
    original = cls.__setattr__

    def setattr_probe(obj, key, value):
        rec = RECORDER
        seen = rec.static_selves.get(id(obj)) if rec is not None else None
        if seen is not None and seen[0] is obj and key in seen[2]:
            frame = sys._getframe(1)
            if frame.f_code.co_filename in rec.watched:
                rec.observe(_place(frame), ev.STALE_STATIC_SELF, "static self",
                            f"'{key}' changed on an object that jitted {seen[1]}() was already called on; "
                            f"JAX keeps the code compiled for it")
        original(obj, key, value)
    cls.__setattr__ = setattr_probe


def _probe_jitted_methods(cls):
    jitted = {name: value for name, value in vars(cls).items() if type(value).__name__ == "PjitFunction"}
    for name, value in jitted.items():
        setattr(cls, name, JittedMethodProbe(value, f"{cls.__name__}.{name}"))
    if jitted:
        _watch_attributes(cls)


def install_module_probes(namespace):
    """Swap a module's NumPy / jax.numpy names and jitted functions for probes."""
    for name, value in list(namespace.items()):
        if isinstance(value, type) and value.__module__ == namespace.get("__name__"):
            _probe_jitted_methods(value)
        if value is np:
            namespace[name] = NUMPY_PROBE
        elif value is jnp:
            namespace[name] = JAX_NUMPY_PROBE
        elif type(value).__name__ == "PjitFunction":
            namespace[name] = CallProbe(value, name, _jitted_call)
        elif _probe_worthy(value) and not isinstance(value, CallProbe):
            for module, probe in ((np, NUMPY_PROBE), (jnp, JAX_NUMPY_PROBE)):
                own_name = getattr(value, "__name__", None)
                if own_name and getattr(module, own_name, None) is value:
                    namespace[name] = getattr(probe, own_name)
                    break


def install_watched_module_probes(watched):
    """install_module_probes on every imported module of a watched file."""
    for name, module in list(sys.modules.items()):
        if watched.unwatched.get(name) is module:
            continue
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and real_path(path) in watched and isinstance(module, types.ModuleType):
            install_module_probes(module.__dict__)
        else:
            watched.unwatched[name] = module


@functools.lru_cache(maxsize=None)
def real_path(path):
    """os.path.realpath, once per module file (it asks the file system for every part)."""
    return os.path.realpath(path)


# -- process-wide patches, installed once per process -------------------------------------

def _watching(func, record):
    """``func``, calling ``record(recorder, caller's frame)`` first while a recorder is on."""
    @functools.wraps(func)
    def probe(*args, **kwargs):
        rec = RECORDER
        if rec is not None:
            record(rec, sys._getframe(1))
        return func(*args, **kwargs)
    return probe


def _host_call_probe(kind, func):
    def record(rec, frame):
        if frame.f_code.co_filename in rec.watched:
            rec.host_calls[kind][_place(frame)] += 1
    return _watching(func, record)


def _array_method_probe(method, kind, what):
    def probe(self, *args, **kwargs):
        if RECORDER is None or _busy:
            return method(self, *args, **kwargs)
        frame, inside = _user_frame(sys._getframe(1))
        if frame is None:
            return method(self, *args, **kwargs)
        how = kind, what
        if not inside and _is_formatting(_current_instruction(frame)):
            how = ev.FORMATTING, "string formatting"
        return _record_d2h(_place(frame), *how, lambda: method(self, *args, **kwargs), inside_other_code=inside)
    return probe


def _user_frame(frame, libraries_ask=True):
    """(the innermost frame of a watched file walking out from ``frame``, whether other unwatched
    code ran in between: the event then happened inside that code); (None, False) when there is none.

    Stdlib and probe frames may sit in between (print, logging, unittest); with ``libraries_ask``
    a JAX or NumPy frame means the library asked for the value, not the user (None).
    """
    watched, inside = RECORDER.watched, False
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename in watched:
            return frame, inside
        if filename.startswith(LIBRARY_DIRS):
            if libraries_ask:
                return None, False
        else:
            inside = inside or in_other_code(filename)
        frame = frame.f_back
    return None, False


def in_other_code(filename):
    """Whether a frame of this unwatched file runs code of its own: not JAX's or NumPy's, not the
    standard library's (installed packages are, even inside its folder), not the runtime mode's."""
    if filename.startswith((*LIBRARY_DIRS, OWN_DIR, "<")):
        return False
    return not filename.startswith(PASSING_DIRS) or f"{os.sep}site-packages{os.sep}" in filename \
        or f"{os.sep}dist-packages{os.sep}" in filename


@functools.lru_cache(maxsize=None)
def _instructions(code):
    return {instruction.offset: instruction for instruction in dis.get_instructions(code)}


def _current_instruction(frame):
    return _instructions(frame.f_code).get(frame.f_lasti)


def _is_formatting(instruction):
    """``"%f" % x`` and f-strings convert with float()/str() from inside the operator."""
    return instruction is not None and (
        instruction.opname in FORMAT_OPS or (instruction.opname == "BINARY_OP" and "%" in instruction.argrepr))


def _result_discarded(frame):
    """Whether the call running in ``frame`` is an expression statement (its result is popped)."""
    following = [ins for offset, ins in _instructions(frame.f_code).items() if offset > frame.f_lasti]
    return bool(following) and following[0].opname == "POP_TOP"


def _copying_method_probe(method, what):
    def probe(*args, **kwargs):
        rec = RECORDER
        if rec is not None:
            frame = sys._getframe(1)
            if frame.f_code.co_filename in rec.watched and _result_discarded(frame):
                rec.event(_place(frame), ev.DISCARDED_RESULT, "discarded result",
                          f"{what} returns a new array and its result was thrown away")
        return method(*args, **kwargs)
    return probe


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
    consumed again gives the same random bits."""
    @functools.wraps(func)
    def probe(*args, **kwargs):
        rec = RECORDER
        if rec is not None and not _busy:
            frame = sys._getframe(1)
            key = args[0] if args else kwargs.get("key")
            if frame.f_code.co_filename in rec.watched and isinstance(key, jax.Array):
                place, fingerprint = _place(frame), _key_fingerprint(key, rec)
                if fingerprint in rec.keys_consumed:
                    (_, first_line), first_name = rec.keys_consumed[fingerprint]
                    rec.observe(place, ev.KEY_REUSE, "key data",
                                f"{name}() consumed the key data that {first_name}() consumed on line {first_line}")
                else:
                    rec.keys_consumed[fingerprint] = (place, name)
        return func(*args, **kwargs)
    return probe


def _key_fingerprint(key, rec):
    """The key's data; for a traced key its identity (the same tracer is the same key)."""
    if isinstance(key, jax.core.Tracer):
        rec.traced_keys.append(key)
        return f"tracer@{id(key)}"
    data = jax.random.key_data(key) if jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key) else key
    return _fingerprint(np.asarray(data))


def _trace_listener(event, duration, **kwargs):
    """Retracing: count each trace JAX makes at the innermost line of the file that caused it."""
    rec = RECORDER
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
        rec = RECORDER
        if rec is not None:
            frame = sys._getframe(1)
            if frame.f_code.co_filename in rec.watched:
                rec.jit_wraps[_place(frame)].setdefault(id(fun), (fun, jitted))  # fun kept: ids stay unique
        return jitted
    return probe


def new_functions_compiled(rec):
    """place -> (new functions jax.jit wrapped there, how many of them JAX compiled)."""
    return {place: (len(wraps), sum(1 for _, jitted in wraps.values() if jitted._cache_size() > 0))
            for place, wraps in rec.jit_wraps.items()}


def _gradient_probe(transform, name):
    """Nan gradients: a gradient with nan where the function's value is finite, and the jnp.where lines
    of the file that ran while computing it."""
    @functools.wraps(transform)
    def probe(fun, *args, **kwargs):
        differentiated = transform(fun, *args, **kwargs)
        has_aux = kwargs.get("has_aux", False)

        @functools.wraps(differentiated)
        def run(*call_args, **call_kwargs):
            global RECORDER
            rec = RECORDER
            if rec is None:
                return differentiated(*call_args, **call_kwargs)
            rec.differentiating.append(set())
            try:
                result = differentiated(*call_args, **call_kwargs)
            finally:
                wheres = rec.differentiating.pop()
            gradient = result[1] if name == "value_and_grad" else result[0] if has_aux else result
            if wheres and _has_nan(gradient):
                RECORDER = None  # the value is computed for the verdict, not watched
                try:
                    value = fun(*call_args, **call_kwargs)
                finally:
                    RECORDER = rec
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
    def record(rec, frame):
        while frame is not None and frame.f_code.co_filename == __file__:
            frame = frame.f_back
        if frame is not None and frame.f_code.co_filename in rec.watched:
            pending = sorted(local for local, value in frame.f_locals.items()
                             if _is_device_array(value) and not value.is_ready())
            if pending:
                rec.observe(_place(frame), ev.UNFINISHED_AT_CLOCK, "async dispatch",
                            f"{name}() read the clock while {', '.join(pending)} was still being computed")
    return _watching(func, record)


def install_process_probes():
    """Patch print, warnings.warn, host RNGs and clocks, jax.Array conversions and jax.device_get/put."""
    global BACKEND
    if getattr(builtins.print, "__wrapped__", None) is not None:
        return  # installed already
    BACKEND = jax.default_backend()
    builtins.print = _host_call_probe("print", builtins.print)
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
    _patch_host_calls("random", CLOCKS)
    _patch_host_calls("random", {f"random.{name}" for name in STDLIB_RANDOM})
    global_state = np.random.mtrand._rand
    for name in dir(np.random):
        value = getattr(np.random, name)
        if getattr(value, "__self__", None) is global_state and not name.startswith(("seed", "get_", "set_")):
            setattr(np.random, name, _host_call_probe("random", value))
    array_type = type(jnp.zeros(()))
    conversions = {
        "__float__": "scalar", "__int__": "scalar", "__bool__": "scalar", "__index__": "scalar",
        "__complex__": "scalar", "item": "scalar", "tolist": "numpy",
        "__str__": "format", "__repr__": "format", "__format__": "format", "__array__": "numpy",
    }
    for name, kind in conversions.items():
        what = f".{name}()" if not name.startswith("__") else f"{name.strip('_')}()"
        setattr(array_type, name, _array_method_probe(getattr(array_type, name), D2H_KINDS[kind], what))
    for name, symbol in OPERATORS.items():
        for prefix in ("__", "__r"):
            method = f"{prefix}{name}__"
            setattr(array_type, method, _operator_probe(getattr(array_type, method), symbol))
    array_type.sort = _copying_method_probe(array_type.sort, "x.sort()")
    update_ref = type(jnp.zeros(1).at[0])
    for name in AT_UPDATES:
        setattr(update_ref, name, _copying_method_probe(getattr(update_ref, name), f"x.at[...].{name}()"))
    jax.device_get = CallProbe(jax.device_get, "jax.device_get", _device_get_call)
    jax.device_put = CallProbe(jax.device_put, "jax.device_put", _jax_numpy_call)


# -- line counting ---------------------------------------------------------------------------

@contextmanager
def tracing(rec):
    """Count each line of the watched files (and, if asked, the globals each line reads); a line
    of a frame that started while JAX traced also counts as traced."""
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
                if line in facts.closure_mutations:
                    rec.pending_leaks[frame] = (place, facts.closure_mutations[line])
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
    sys.settrace(calls)
    try:
        yield
    finally:
        sys.settrace(previous)


# The exception types some rule accounts for (observe.exception_kinds); others are not looked at.
PITFALL_EXCEPTIONS = (TypeError, ValueError, NotImplementedError, IndexError, RuntimeError, AttributeError,
                      ImportError)


def _record_exception(rec, exc, tb):
    """An exception passing through a watched frame confirms a finding there even when something
    catches it later (``pytest.raises``, the code's own ``try``), at the first watched frame it
    reaches (its innermost). Only one that ends the case or test can be missed: a caught one may be
    a deliberate guard (``try: jnp.asanyarray ... except AttributeError``)."""
    from .observe import exception_evidence, one_line

    if isinstance(exc, PITFALL_EXCEPTIONS):
        place, kinds, _ = exception_evidence(exc, rec.watched, tb)
        for kind in kinds:
            rec.observe(place, kind, "exception", one_line(exc))


def _trace_state_clean():
    """Whether no JAX transformation is tracing right now (private API: assume tracing if it moved)."""
    check = getattr(jax._src.core, "trace_state_clean", None)
    return check() if check is not None else False


def _holds_tracer(value):
    """A container (or object) of the user's that now holds a tracer, one level deep."""
    if isinstance(value, dict):
        value = list(value.values())
    elif hasattr(value, "__dict__") and not isinstance(value, (type, types.ModuleType)):
        value = list(vars(value).values())
    items = value if isinstance(value, (list, tuple, set, frozenset)) else [value]
    return any(isinstance(item, jax.core.Tracer) for item in items)


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
        rec = RECORDER
        if rec is not None:
            frame, inside = _user_frame(sys._getframe(1), libraries_ask=False)
            if frame is not None:
                issued = type(message) if isinstance(message, Warning) else category or UserWarning
                _record_warning(rec, message, issued, sys._getframe(1).f_code.co_filename, _place(frame), inside)
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
            yield _place(frame)
        frame = frame.f_back
