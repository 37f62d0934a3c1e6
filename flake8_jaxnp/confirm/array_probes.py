"""The Recorder, and the probes on what code does with arrays. Imports jax.

Every probe writes into the current ``Recorder`` (one per run of one case or
test) and only records what a frame of a watched file did, keyed by the place
(path, line), so JAX's and NumPy's own use of the same functions is invisible
and a pitfall in one watched file counts whichever file's code reached it.
Here: the module probes (a watched module's NumPy, jax.numpy and jitted functions, its classes'
jitted methods) and, installed once per process by ``process_probes``, the probes on jax.Array's
conversions, operators and copying methods (a tracer's too) and on jax.device_get/put.
"""
import contextlib
import dis
import functools
import hashlib
import sys
import types
import weakref
from collections import Counter, defaultdict

import jax
import jax.numpy as jnp
import numpy as np

from .. import evidence as ev
from ..facts import AT_UPDATES, SELECTS, WIDE_DTYPES, is_promotion
from .device_arrays import is_device_array
from .frames import LIBRARY_DIRS, in_other_code, place_of, real_path
from .jitted import is_jitted, jit_wrapper_types

D2H_KINDS = {"numpy": ev.TO_NUMPY, "scalar": ev.TO_SCALAR, "format": ev.FORMATTING}
# NumPy functions that read only an array's metadata, never its data.
NUMPY_METADATA = frozenset({"shape", "ndim", "size", "result_type", "iscomplexobj", "isrealobj", "isscalar",
                            "iterable", "can_cast", "min_scalar_type", "isfortran"})
OPERATORS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
             "pow": "**", "matmul": "@"}
FORMAT_OPS = frozenset({"FORMAT_VALUE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC"})  # f-strings, by Python version
HASH_LIMIT = 16 << 20  # bytes of host data hashed to recognise a repeated upload
FETCHED_KEPT = 8  # arrays remembered per place, to tell converting one again from converting a new one

BACKEND = "cpu"  # set by process_probes.install_process_probes
RECORDER = None  # the Recorder of the run in progress, or None
BUSY = False  # a probe is already handling this call: nested conversions are its own
JITTED_CALL_CHECKS = []  # check(place, jitted function, args, kwargs) after a call from a watched file


class Recorder:
    """Everything observed during one run of one case (or test), keyed by place (path, line)."""

    def __init__(self, watched, track_globals=False, operand_dtypes=False):
        self.watched = watched  # Watched: the files whose frames count
        self.track_globals = track_globals  # fingerprint the globals each line reads (eager runs)
        self.operand_dtypes = operand_dtypes  # compare operator dtypes (where strict promotion is not used)
        self.pending_leaks = {}  # frame -> (place, {closure/self name mutated: ids of tracers held before})
        self.leaks = set()  # (place, name): a closure container or self that held a tracer after the line
        self.lines = Counter()  # place -> times it ran
        self.traced_lines = Counter()  # place -> times it ran while JAX traced
        self.line_jit = {}  # place -> the outermost jitted function being called when it traced
        self.jit_stack = []  # jitted functions of watched modules being called now
        self.jit_calls = Counter()  # jitted function -> calls
        self.host_calls = defaultdict(Counter)  # "print"/"print-tracer"/"random" -> place -> calls
        self.global_values = defaultdict(set)  # (place, "global" or "closure", name) -> fingerprints of values read
        self.d2h = defaultdict(Counter)  # place -> evidence kind -> transfers
        self.d2h_what = {}  # (place, kind) -> what transferred first
        self.d2h_via = defaultdict(Counter)  # call site in a watched file -> kind -> transfers made below it
        self.fetched = {}  # place -> weak references to the last arrays brought to the host there
        self.uploads = defaultdict(Counter)  # place -> data fingerprint -> uploads
        self.events = {}  # (place, kind) -> (mechanism, detail): seen once is enough
        self.guarded = False  # a transfer guard confirmed a transfer
        self.results = defaultdict(list)  # jitted function -> what its calls returned
        self.dispatched = {}  # place -> what the last jitted call there returned (kept if the line discards it)
        self.observed = {}  # (place, kind) -> (mechanism, detail): evidence that is never "missed"
        self.keys_consumed = {}  # key fingerprint -> (place, sampler) of its first consumption
        self.traced_keys = []  # traced keys seen, kept alive so that their ids stay unique
        self.seeded_keys = {}  # id of a traced key made from a concrete seed -> what made it (maker, seed)
        self.traces = Counter()  # place -> functions JAX traced for a call there
        self.jit_wraps = defaultdict(dict)  # place -> {id of a function jax.jit wrapped there: (it, jitted)}
        self.differentiating = []  # per jax.grad call in progress: the places of the jnp.where calls it ran
        self.static_selves = {}  # id of an object a jitted method ran on -> (object, method, names it reads)
        self.timer = None  # a --measure-cost run's Timer (timer.py): the probes time what they see, unguarded

    def event(self, place, kind, mechanism, detail):
        self.events.setdefault((place, kind), (mechanism, detail))

    def observe(self, place, kind, mechanism, detail):
        self.observed.setdefault((place, kind), (mechanism, detail))

    def event_or_observation(self, inside_other_code, place, kind, mechanism, detail):
        """An event; an observation when it happened inside unwatched code that the watched line
        called (a promotion inside optax): it confirms a finding there but is never "missed"."""
        (self.observe if inside_other_code else self.event)(place, kind, mechanism, detail)

    def new_functions_compiled(self):
        """place -> (new functions jax.jit wrapped there, how many of them JAX compiled)."""
        return {place: (len(wraps), sum(1 for _, jitted in wraps.values() if jitted._cache_size() > 0))
                for place, wraps in self.jit_wraps.items()}

    def same_results(self, other, name):
        """Whether this run's calls of jitted ``name`` returned what ``other``'s did (values that
        cannot be compared do)."""
        first, second = self.results.get(name, []), other.results.get(name, [])
        if len(first) != len(second):
            return False
        for x, y in zip(first, second):
            leaves_x, leaves_y = jax.tree.leaves(x), jax.tree.leaves(y)
            if len(leaves_x) != len(leaves_y):
                return False
            try:
                if not all(np.allclose(np.asarray(a), np.asarray(b), equal_nan=True)
                           for a, b in zip(leaves_x, leaves_y)):
                    return False
            except (TypeError, ValueError, RuntimeError):  # RuntimeError: a result donated to a later call
                continue
        return True


def _transfer_guard(direction):
    return jax.transfer_guard_device_to_host if direction == "d2h" else jax.transfer_guard_host_to_device


def _call_guarded(direction, call):
    """Run ``call``; on an accelerator, first under a disallowing transfer guard.

    Returns (result, moved): moved is None on the CPU backend (no guard fires
    there), else whether the guard saw a transfer.
    """
    with probes_off():
        if BACKEND == "cpu":
            return call(), None
        try:
            # "disallow" stops implicit transfers only; jax.device_get/device_put are explicit
            with _transfer_guard(direction)("disallow_explicit"):
                return call(), False
        except Exception as exc:  # noqa: BLE001 - the guard's error type differs between versions
            if "Disallowed" not in str(exc):
                raise
            return call(), True


@contextlib.contextmanager
def probes_off():
    """The probes' own conversions (a guarded call, hashing key data) are not the user's."""
    global BUSY
    before, BUSY = BUSY, True
    try:
        yield
    finally:
        BUSY = before


def _record_d2h(place, kind, what, call, moved_if=None, inside_other_code=False, arrays=()):
    """Run a conversion; count it when a guard saw a transfer, or (CPU) when ``moved_if(result)``,
    unless ``arrays``, the device arrays it converts, were all fetched at this place before.
    One made inside unwatched code counts only for the watched call that reached it (``d2h_via``)."""
    if _on_host_already(arrays) or _fetched_before(place, arrays):
        return call()
    timer = RECORDER.timer
    if timer is None:
        result, moved = _call_guarded("d2h", call)
    else:  # no guard: only the wait and the copy are in the time
        with probes_off():
            result, sample = timer.conversion(arrays, call)
        moved = None
    guarded = moved is True
    if moved is None and moved_if is not None:
        moved = moved_if(result)
    if moved is not False:
        counts = RECORDER.d2h_via if inside_other_code else RECORDER.d2h
        counts[place][kind] += 1
        RECORDER.d2h_what.setdefault((place, kind), f"{what} (in code called here)" if inside_other_code else what)
        RECORDER.guarded |= guarded
        callers = _watched_callers(place)
        for caller in callers:
            RECORDER.d2h_via[caller][kind] += 1
            RECORDER.d2h_what.setdefault((caller, kind), f"{what} (in a function called here)")
        if timer is not None:
            timer.add([place, *callers], kind, sample)
    return result


def _on_host_already(arrays):
    """True when every one of ``arrays`` holds the host copy an earlier conversion made, anywhere
    (JAX keeps it in ``_npy_value``): converting again copies nothing and waits for nothing. A
    TPU's transfer guard showed it: ``f"{loss}"`` right after ``float(loss)`` transfers nothing."""
    return bool(arrays) and all(getattr(array, "_npy_value", None) is not None for array in arrays)


def _fetched_before(place, arrays):
    """True when ``arrays`` are among the last FETCHED_KEPT arrays converted at ``place``: they are
    computed, so converting them again waits for nothing (``float(loss)`` in a loop over splits,
    loss unchanged). A few per place, so a long run keeps no more than that."""
    kept = [array for array in (ref() for ref in RECORDER.fetched.get(place, ())) if array is not None]
    before = bool(arrays) and all(any(array is seen for seen in kept) for array in arrays)
    kept += [array for array in arrays if not any(array is seen for seen in kept)]
    RECORDER.fetched[place] = [weakref.ref(array) for array in kept[-FETCHED_KEPT:]]
    return before


def _watched_callers(place):
    """Places in watched files that called, further out, the code transferring at ``place``
    (a helper in model.py converting its argument, called in train.py's loop)."""
    callers, frame, seen_inner = [], sys._getframe(2), False
    while frame is not None:
        if frame.f_code.co_filename in RECORDER.watched:
            if seen_inner:
                callers.append(place_of(frame))
            seen_inner = seen_inner or place_of(frame) == place
        frame = frame.f_back
    return callers


def _arguments(args, kwargs):
    for value in (*args, *kwargs.values()):  # (and the items of a list, a tuple or a dict: jit uploads them too)
        yield value
        if isinstance(value, (list, tuple, dict)):
            yield from value.values() if isinstance(value, dict) else value


def _is_wide_host(value):
    return isinstance(value, (np.ndarray, np.generic)) and value.dtype.name in WIDE_DTYPES


def fingerprint(data):
    """dtype[shape]:content hash; identity instead of content for arrays too big to hash each time."""
    digest = f"id{id(data)}" if data.nbytes > HASH_LIMIT else \
        hashlib.blake2b(np.ascontiguousarray(data).tobytes(), digest_size=8).hexdigest()
    return f"{data.dtype}{list(data.shape)}:{digest}"


# -- call-site probes for the module's NumPy and jax.numpy names --------------------------

class CallProbe:
    """A stand-in for one library function that reports each call from a watched file."""

    __slots__ = ("_func", "_name", "_on_call", "__weakref__")  # jax caches functions by weak reference

    def __init__(self, func, name, on_call):
        self._func, self._name, self._on_call = func, name, on_call

    def __call__(self, *args, **kwargs):
        rec = RECORDER
        if rec is None or BUSY:
            return self._func(*args, **kwargs)
        frame = sys._getframe(1)
        if frame.f_code.co_filename not in rec.watched:
            return self._func(*args, **kwargs)
        return self._on_call(place_of(frame), self._func, self._name, args, kwargs)

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
            is_device_array(value) for value in _arguments(args, kwargs)):
        return func(*args, **kwargs)
    return _record_d2h(place, ev.TO_NUMPY, f"{name}()", lambda: func(*args, **kwargs), moved_if=_is_host_value,
                       arrays=[value for value in _arguments(args, kwargs) if is_device_array(value)])


def _is_host_value(result):
    """NumPy data or Python numbers came back: the device data was read (np.sum(x) instead
    dispatches to x.sum() and returns a JAX array)."""
    if isinstance(result, (list, tuple)):
        return any(_is_host_value(item) for item in result)
    return isinstance(result, (np.ndarray, np.generic, bool, int, float, complex))


def _jax_call(place, func, name, args, kwargs):
    """A call of jax.numpy or jax.lax: a jnp.where or lax.select run while jax.grad & co. compute
    (a place a nan gradient may come from), NumPy data narrowed, an upload."""
    if name in SELECTS.values() and len(args) == 3 and RECORDER.differentiating:
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


def jitted_call(place, func, name, args, kwargs):
    rec = RECORDER
    _check_narrowing(place, f"jitted {name}()", _arguments(args, kwargs))
    rec.jit_calls[name] += 1
    for data in _arguments(args, kwargs):
        if isinstance(data, np.ndarray):  # jit copies NumPy arguments to the device on every call
            rec.uploads[place][fingerprint(data)] += 1
    code = getattr(getattr(wrapped := getattr(func, "__wrapped__", None), "traced_function", wrapped), "__code__", None)
    for value in _arguments(args, kwargs):
        if watched_class(rec, type(value)) and jax.tree_util.treedef_is_leaf(jax.tree.structure(value)):
            # a leaf jit takes is static: its attributes are the compiled code's constants (noted ahead of the call)
            rec.static_selves[id(value)] = (value, name, frozenset(code.co_names if code is not None else ()))
            watch_attributes(type(value))
    if rec.timer is not None:
        args, kwargs = _uploaded_ahead(place, args, kwargs)
    rec.jit_stack.append(name)
    try:
        result = func(*args, **kwargs)
    finally:
        rec.jit_stack.pop()
    rec.results[name].append(result)
    rec.dispatched[place] = result
    for check in JITTED_CALL_CHECKS:
        check(place, func, args, kwargs)
    return result


def _operator_probe(method, symbol):
    def probe(self, other):
        rec = RECORDER
        if rec is not None and not BUSY:
            frame, inside = user_frame(sys._getframe(1))
            if frame is not None:
                if _is_wide_host(other):
                    _check_narrowing(place_of(frame), f"the {symbol} operator", [other], inside)
                if rec.operand_dtypes:
                    _check_promotion(place_of(frame), symbol, self, other, inside)
        return method(self, other)
    return probe


def _check_promotion(place, symbol, left, right, inside_other_code):
    """An operator mixing dtypes of two arrays (watched without strict promotion, which would
    change what the code does): the same definition as the linter's, on the dtypes JAX computes
    with (NumPy float64 data is float32 to JAX while x64 is off: a narrowing, not a promotion)."""
    operands = [(str(jax.dtypes.canonicalize_dtype(value.dtype, allow_extended_dtype=True)),
                 bool(getattr(value, "weak_type", False)))
                for value in (left, right) if isinstance(value, (jax.Array, np.ndarray, np.generic))]
    if len(operands) == 2 and operands[0][0] != operands[1][0] and is_promotion(operands):
        RECORDER.event_or_observation(inside_other_code, place, ev.STRICT_PROMOTION, "operand dtypes",
                                      f"{operands[0][0]} {symbol} {operands[1][0]} promoted implicitly")


def _upload(place, name, func, args, kwargs):
    data = args[0] if args else None
    if not isinstance(data, np.ndarray):
        return func(*args, **kwargs)
    if RECORDER.timer is not None:
        return _timed_upload(place, data, lambda: func(*args, **kwargs))
    result, moved = _call_guarded("h2d", lambda: func(*args, **kwargs))
    if moved is not False:
        RECORDER.uploads[place][fingerprint(data)] += 1
        RECORDER.guarded |= moved is True
    return result


def _timed_upload(place, data, put):
    """A timing run's upload of host ``data``, timed until it is on the device."""
    with probes_off():
        result, sample = RECORDER.timer.upload(data, put)
    RECORDER.timer.add([place], ev.SAME_UPLOAD, dict(sample, data=fingerprint(data)))
    return result


def _uploaded_ahead(place, args, kwargs):
    """A timing run's jitted call: (args, kwargs) with the arrays ``_arguments`` finds uploaded ahead, timed."""
    def put(value):
        return _timed_upload(place, value, lambda: jax.device_put(value)) if isinstance(value, np.ndarray) else value

    def put_items(value):
        return {key: put(item) for key, item in value.items()} if type(value) is dict \
            else type(value)(map(put, value)) if type(value) in (list, tuple) else put(value)
    return [put_items(value) for value in args], {key: put_items(value) for key, value in kwargs.items()}


def _device_get_call(place, func, name, args, kwargs):
    return _record_d2h(place, ev.TO_NUMPY, f"{name}()", lambda: func(*args, **kwargs),
                       arrays=[leaf for leaf in jax.tree.leaves((args, kwargs)) if is_device_array(leaf)])


NUMPY_PROBE = ModuleProbe(np, "np", _numpy_call)
JAX_NUMPY_PROBE = ModuleProbe(jnp, "jnp", _jax_call)
LAX_PROBE = ModuleProbe(jax.lax, "lax", _jax_call)
MODULE_PROBES = ((np, NUMPY_PROBE), (jnp, JAX_NUMPY_PROBE), (jax.lax, LAX_PROBE))


_WATCHED_CLASSES = weakref.WeakSet()  # classes whose __setattr__ watch_attributes already wraps


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

        def bound(*args, **kwargs):  # (a call from a watched file is a jitted call: its uploads count)
            if rec is not None:
                rec.static_selves[id(obj)] = (obj, self._name, self._reads)
            if rec is None or BUSY or sys._getframe(1).f_code.co_filename not in rec.watched:
                return jitted(obj, *args, **kwargs)
            return jitted_call(place_of(sys._getframe(1)), jitted, self._name, (obj, *args), kwargs)
        return bound

    def __call__(self, *args, **kwargs):
        return self._jitted(*args, **kwargs)


def watched_class(rec, cls):
    """Whether ``cls`` is a class of a watched file."""
    path = getattr(sys.modules.get(cls.__module__), "__file__", None)
    return isinstance(path, str) and real_path(path) in rec.watched


def watch_attributes(cls):
    """Stale static self: report an assignment from the file to an attribute that a jitted method read
    after the method was called on the object (it is the method's static cache key), or a jitted
    function that was given the object as a static argument; at the assignment's line and at the
    lines of the file that called down to it (``obj.set_factor(3.0)``)."""
    if cls in _WATCHED_CLASSES:
        return
    _WATCHED_CLASSES.add(cls)
    original = cls.__setattr__

    def setattr_probe(obj, key, value):
        rec = RECORDER
        seen = rec.static_selves.get(id(obj)) if rec is not None else None
        if seen is not None and seen[0] is obj and key in seen[2]:
            frame = sys._getframe(1)
            while frame is not None and frame.f_code.co_filename in rec.watched:  # a setter method's caller too
                rec.observe(place_of(frame), ev.STALE_STATIC_SELF, "static self",
                            f"'{key}' changed on an object that jitted {seen[1]}() was already called on; "
                            f"JAX keeps the code compiled for it")
                frame = frame.f_back
        original(obj, key, value)
    cls.__setattr__ = setattr_probe


def _probe_jitted_methods(cls):
    jitted = {name: value for name, value in vars(cls).items() if type(value).__name__ == "PjitFunction"}
    for name, value in jitted.items():
        setattr(cls, name, JittedMethodProbe(value, f"{cls.__name__}.{name}"))
    if jitted:
        watch_attributes(cls)


def install_module_probes(namespace):
    """Swap a module's NumPy / jax.numpy / jax.lax names and jitted functions for probes."""
    wrappers = jit_wrapper_types()
    for name, value in list(namespace.items()):
        if isinstance(value, type) and value.__module__ == namespace.get("__name__"):
            _probe_jitted_methods(value)
        probe = next((probe for module, probe in MODULE_PROBES if value is module), None)
        if probe is not None:
            namespace[name] = probe
        elif is_jitted(getattr(value, "_func", value), wrappers):  # (or the jax.jit probe's)
            namespace[name] = CallProbe(getattr(value, "_func", value), name, jitted_call)
        elif _probe_worthy(value) and not isinstance(value, CallProbe):
            for module, probe in MODULE_PROBES:
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


# -- jax.Array's conversions, operators and copying methods (install_array_probes) -------

def _array_method_probe(method, kind, what):
    def probe(self, *args, **kwargs):
        if RECORDER is None or BUSY:
            return method(self, *args, **kwargs)
        frame, inside = user_frame(sys._getframe(1))
        if frame is None:
            return method(self, *args, **kwargs)
        how = kind, what
        if not inside and _is_formatting(_current_instruction(frame)):
            how = ev.FORMATTING, "string formatting"
        return _record_d2h(place_of(frame), *how, lambda: method(self, *args, **kwargs), inside_other_code=inside,
                           arrays=[self] if is_device_array(self) else [])
    return probe


def user_frame(frame, libraries_ask=True):
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
                rec.event(place_of(frame), ev.DISCARDED_RESULT, "discarded result",
                          f"{what} returns a new array and its result was thrown away")
        return method(*args, **kwargs)
    return probe


def install_array_probes():
    """Patch jax.Array's conversions, operators and copying methods, and jax.device_get/put."""
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
    for owner in (array_type, jax.core.Tracer):  # a tracer's sort() also returns a new array
        owner.sort = _copying_method_probe(owner.sort, "x.sort()")
    update_ref = type(jnp.zeros(1).at[0])
    for name in AT_UPDATES:
        setattr(update_ref, name, _copying_method_probe(getattr(update_ref, name), f"x.at[...].{name}()"))
    jax.device_get = CallProbe(jax.device_get, "jax.device_get", _device_get_call)
    jax.device_put = CallProbe(jax.device_put, "jax.device_put", _jax_call)
