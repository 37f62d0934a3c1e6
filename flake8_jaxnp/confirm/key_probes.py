"""The probes on PRNG keys, installed once per process with the others (``process_probes``):
which key data each sampler or split called from a watched file consumes, and which seed a key
made under a trace came from. Imports jax."""
import functools
import sys

import jax
import numpy as np

from .. import evidence as ev
from ..api import random_samplers
from ..checks.remade_keys import MAKERS
from ..model.keys import SPLIT
from . import array_probes
from .array_probes import fingerprint
from .frames import in_other_code, place_of, watched_places

# id of an argument leaf that jax.jit traces a user function with -> (the leaf, the positions of
# that function's argument leaves its trace consumes as keys, the leaf's position)
_TRACED_ARGUMENTS = {}
# id of a function jax.jit made of user code -> (it, the positions of its argument leaves consumed as keys)
JITTED_CONSUMERS = {}

try:  # JAX's batching trace and tracer (private): what a jax.vmap traces with
    from jax._src import core as jax_core
    from jax._src.interpreters.batching import BatchTrace as _BATCH_TRACE, BatchTracer as _BATCH_TRACER
except ImportError:
    jax_core = _BATCH_TRACE = _BATCH_TRACER = None


def _key_consumer_probe(name, func):
    """Key reuse: record the key data each sampler call from the file consumes; the same data
    consumed again gives the same random bits. The reuse is seen at the sampler's line and at
    the lines of the file that called it there (a helper's caller passed the key to consume).
    Under ``jax.vmap`` a key the batch does not map is one key for every element of the batch,
    also where a framework's layer (code of its own, called from the file) draws from it. A draw
    that such a layer makes outside any trace is the file's, at the innermost line of the file
    that called it (``self.dropout(x, key=self.key)`` of an Equinox Module)."""
    @functools.wraps(func)
    def probe(*args, **kwargs):
        rec = array_probes.RECORDER
        if rec is not None and not array_probes.BUSY:
            frame = sys._getframe(1)
            key = args[0] if args else kwargs.get("key")
            traced = _TRACED_ARGUMENTS.get(id(key)) if isinstance(key, jax.core.Tracer) else None
            if traced is not None and traced[0] is key:
                traced[1].add(traced[2])
            watched = frame.f_code.co_filename in rec.watched
            layer = not watched and in_other_code(frame.f_code.co_filename)
            size = _batch_sharing(key) if watched or layer else 0
            for caller in watched_places(rec.watched) if size > 1 else ():
                rec.observe(caller, ev.KEY_REUSE, "key data", f"{name}() drew from one key for all {size} "
                            f"elements of a jax.vmap batch")
            place = place_of(frame) if watched else next(watched_places(rec.watched), None) \
                if layer and not isinstance(key, jax.core.Tracer) else None
            if place is not None and isinstance(key, jax.Array):
                fingerprint = _key_fingerprint(key, rec)
                if fingerprint in rec.keys_consumed:
                    (_, first_line), first_name = rec.keys_consumed[fingerprint]
                    for caller in watched_places(rec.watched):
                        rec.observe(caller, ev.KEY_REUSE, "key data", f"{name}() consumed the key data that "
                                    f"{first_name}() consumed on line {first_line}")
                else:
                    rec.keys_consumed[fingerprint] = (place, name)
        return func(*args, **kwargs)
    return probe


def _batch_sharing(key):
    """The size of the batch of the ``jax.vmap`` tracing now when ``key`` is not mapped by it (each
    element draws from the same key), else 0. JAX's batching trace is private: none found, 0."""
    trace = getattr(getattr(jax_core, "trace_ctx", None), "trace", None)
    if _BATCH_TRACE is None or not isinstance(trace, _BATCH_TRACE) or not isinstance(key, jax.Array):
        return 0
    if isinstance(key, _BATCH_TRACER) and key._trace is trace and key.batch_dim is not None:
        return 0
    return getattr(getattr(trace, "axis_data", None), "size", 0) or 0


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


def tracing_keys(fun):
    """``fun`` for jax.jit to trace, telling which of its argument leaves the trace consumes as keys
    (a sampler or a split given the argument's own tracer, in any code): every call of the jitted
    function consumes the key data given there, though JAX traces it once. Returns (the function
    to jit, the set of those positions, filled while it is traced)."""
    consumed = set()

    @functools.wraps(fun)
    def traced(*args, **kwargs):
        for position, leaf in enumerate(jax.tree_util.tree_leaves((args, kwargs))):
            if isinstance(leaf, jax.core.Tracer) and (leaf.dtype == np.uint32
                                                      or jax.dtypes.issubdtype(leaf.dtype, jax.dtypes.prng_key)):
                _TRACED_ARGUMENTS[id(leaf)] = (leaf, consumed, position)
        return fun(*args, **kwargs)
    traced.traced_function = fun
    return traced, consumed


def check_jitted_keys(place, jitted, args, kwargs):
    """Key reuse through a jitted function called at ``place``: the key data given at a position
    whose tracer its trace consumed, given again, gives the same random bits."""
    rec = array_probes.RECORDER
    consumed = JITTED_CONSUMERS.get(id(jitted))
    if rec is None or consumed is None or consumed[0] is not jitted or not consumed[1]:
        return
    name = getattr(jitted, "__name__", "jitted function")
    leaves = jax.tree_util.tree_leaves((args, kwargs))
    for position in sorted(consumed[1]):
        key = leaves[position] if position < len(leaves) else None
        if not isinstance(key, jax.Array) or isinstance(key, jax.core.Tracer):
            continue
        fingerprint = _key_fingerprint(key, rec)
        if fingerprint in rec.keys_consumed:
            (_, first_line), first_name = rec.keys_consumed[fingerprint]
            rec.observe(place, ev.KEY_REUSE, "key data", f"jitted {name}() consumed the key data that "
                        f"{first_name}() consumed on line {first_line}")
        else:
            rec.keys_consumed[fingerprint] = (place, f"jitted {name}")


def install_key_probes():
    """Wrap jax.random's samplers and split (what consumes a key) and its key makers; check the keys
    given to the jitted functions of user code."""
    array_probes.JITTED_CALL_CHECKS.append(check_jitted_keys)
    for qualname in sorted(random_samplers() | {SPLIT}):
        name = qualname.rpartition(".")[2]
        setattr(jax.random, name, _key_consumer_probe(name, getattr(jax.random, name)))
    for qualname in sorted(MAKERS):
        name = qualname.rpartition(".")[2]
        setattr(jax.random, name, _key_maker_probe(name, getattr(jax.random, name)))
