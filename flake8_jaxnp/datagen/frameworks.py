"""Measure the tracing transforms of JAX frameworks (Equinox, Flax NNX and Linen) and
``jax.shard_map`` by running them, for the generator's ``framework_transforms`` key; and
which methods of each framework's Module its standard path traces (``framework_modules``).

Each transform wraps small probe functions: does the body run once over two calls
(the trace is cached), again under a new wrapper (the cache is the wrapper's), does a
truth test, ``float()`` or ``np.asarray`` on an argument fail (its arguments are abstract
tracers), does it return a gradient
(only the differentiated argument is traced), and does a Python ``int`` argument
stay a Python value (it is static), and which option leaves an argument unmapped and concrete
(``transforms.unmapping_option``). A framework that is not installed keeps the
entries recorded where it was; the generator prints which ones it measured.
"""
import importlib.metadata
import sys

from .array_holders import array_holders, defined_as, traced_self_methods
from .framework_functions import MEASURES as FUNCTION_MEASURES, recorded
from .framework_layers import LAYERS_KEY, framework_layers
from .framework_objects import MEASURES as OBJECT_MEASURES, rejected_by_jax_jit
from .param_initializers import KEY as PARAMS_KEY, framework_param_initializers
from .tables import TRACER_ERRORS
from .transforms import unmapping_option

# Dotted name -> how it wraps a function: "function" (f first), "method" (decorates a
# Linen Module method under nn.compact), "class" (lifts a Linen Module class whose
# ``__call__(carry, x)`` it scans), "carry" (scans a function ``f(carry, x)`` over the rows of x).
CANDIDATES = {
    "equinox.filter_jit": "function", "equinox.filter_vmap": "function", "equinox.filter_pmap": "function",
    "equinox.filter_grad": "function", "equinox.filter_value_and_grad": "function",
    "equinox.filter_checkpoint": "function",
    "flax.nnx.jit": "function", "flax.nnx.vmap": "function", "flax.nnx.pmap": "function",
    "flax.nnx.grad": "function", "flax.nnx.value_and_grad": "function", "flax.nnx.remat": "function",
    "flax.nnx.shard_map": "function", "jax.shard_map": "function", "flax.nnx.scan": "carry",
    "flax.linen.jit": "method", "flax.linen.vmap": "method", "flax.linen.remat": "method",
    "flax.linen.checkpoint": "method", "flax.linen.scan": "class",
}


def framework_transforms(data_file, resolve):
    """{dotted name: behaviour and the package version measured}; a framework that is not
    installed (``resolve``, the generator's import-free lookup, finds no such name) keeps its
    entries from ``data_file``."""
    previous = recorded(data_file, KEY)
    found = {}
    for name, form in CANDIDATES.items():
        transform = resolve(name)
        if transform is None:
            if name in previous:
                found[name] = previous[name]
            continue
        package = name.split(".")[0]
        found[name] = dict(_measure(name, transform, form),
                           measured_with=f"{package} {importlib.metadata.version(package)}")
        if form == "function" and (option := unmapping_option(transform)):
            found[name]["unmapping_option"] = option
    return found


KEY = "framework_transforms"


def framework_entries(data_file, resolve):
    """{generator key: its entries} for the framework keys: transforms, Modules, layers, aliases, the
    functions that give one array, those that give a new object on every call, the classes that
    keep such an object static, the transformations whose ``update`` runs functions given to them,
    the pytree dataclasses whose fields are arrays under a trace, the control flow that traces the functions
    given to it, the classes that give the keys a key decides, the methods that give one array and the
    jits that keep a new object given to them static, and the dtype of a Linen parameter each initializer makes."""
    measures = {KEY: framework_transforms, MODULES_KEY: framework_modules, LAYERS_KEY: framework_layers,
                PARAMS_KEY: framework_param_initializers, **FUNCTION_MEASURES, **OBJECT_MEASURES}
    return {key: measure(data_file, resolve) for key, measure in measures.items()}


def measured_versions(keys):
    """{package: release} that the entries of ``keys`` (``framework_entries``) were measured with ("flax 0.12.8");
    an alias's entry is the JAX name alone."""
    return dict(entry["measured_with"].split() for entries in keys.values() for entry in entries.values()
                if type(entry) is dict)


def _measure(name, transform, form):
    import jax.numpy as jnp
    import numpy as np

    x = jnp.ones((1, 3))  # one row: vmap and pmap map over one device
    calls = []

    def count(a):
        calls.append(1)
        return jnp.sum(a * 2.0)

    def truth(a):
        return jnp.sum(a) if jnp.sum(a) > 0 else jnp.sum(a * 2.0)

    def to_float(a):
        return jnp.sum(a) * float(jnp.sum(a))

    def to_numpy(a):
        return jnp.sum(a) + np.asarray(a).sum()

    def scalar(a, n):
        return jnp.sum(a * 2.0) if n > 0 else jnp.sum(a)

    prepare = {"method": _prepare_method, "class": _prepare_class, "carry": _prepare_carry}.get(form, _prepare_function)
    counted = prepare(name, transform, count, x)
    calls.clear()  # a Linen module's init ran the body once
    first = counted(x)
    counted(x)
    cached = len(calls) == 1
    prepare(name, transform, count, x)(x)  # the same function, wrapped anew
    gradient = isinstance(first, tuple) or getattr(first, "shape", ()) == x.shape
    return {
        "cached": cached,
        "traced_per_wrapper": cached and len(calls) == 2,  # its cache is the wrapper's, not the function's
        "abstract": _outcome(prepare, name, transform, truth, x) == ABSTRACT,
        "float_fails": _outcome(prepare, name, transform, to_float, x) == ABSTRACT,
        "numpy_fails": _outcome(prepare, name, transform, to_numpy, x) == ABSTRACT,
        "differentiates": gradient,
        "python_scalars_static": form == "function" and _outcome(prepare, name, transform, scalar, x, 3) == RAN,
        "lifts_class": form == "class",  # applied to a Module class, it traces the class's __call__
        "donations": _donations(transform) if form == "function" else {},
    }


# Keyword options, and their values, by which a framework's jit may donate its arguments (Equinox's
# ``donate=``): candidates; what each value deletes is measured (``_donations``).
DONATION_CANDIDATES = {"donate": ("all", "all-except-first", "warn", "warn-except-first", "none")}


def _donations(transform):
    """{keyword: {value: the arguments it donates, ["first", "rest"] or one of them}} of the
    ``DONATION_CANDIDATES`` that ``transform(f, keyword=value)`` takes: which of three arrays,
    each returned in a new array of its shape (so that its buffer can be reused), a call deletes."""
    import warnings

    import jax.numpy as jnp

    found = {}
    for keyword, values in DONATION_CANDIDATES.items():
        for value in values:
            arrays = [jnp.ones(3) for _ in range(3)]
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    transform(lambda a, b, c: (a * 2.0, b * 3.0, c * 4.0), **{keyword: value})(*arrays)
            except Exception:  # noqa: BLE001 - a keyword the transform does not take
                continue
            first, *rest = (array.is_deleted() for array in arrays)
            if rest[0] == rest[1] and (first or rest[0]):
                found.setdefault(keyword, {})[value] = ["first"] * first + ["rest"] * rest[0]
    return found


RAN, ABSTRACT, OTHER = "ran", "abstract", "other"


def _outcome(prepare, name, transform, body, x, *more):
    """RAN, ABSTRACT (it failed because a value was an abstract tracer) or OTHER (such as
    vmap refusing to map an int: evidence of neither)."""
    try:
        prepare(name, transform, body, x)(x, *more)
    except Exception as exc:  # noqa: BLE001 - classified below
        return ABSTRACT if type(exc).__name__ in TRACER_ERRORS else OTHER
    return RAN


def _prepare_function(name, transform, body, x):
    return transform(body, **_options(name))


def _options(name):
    if not name.endswith("shard_map"):
        return {}
    import jax
    from jax.sharding import PartitionSpec

    return {"mesh": jax.make_mesh((1,), ("i",)), "in_specs": PartitionSpec(), "out_specs": PartitionSpec()}


def _prepare_carry(name, transform, body, x):
    """The transform scanning ``f(carry, row)`` over the rows of ``x``, ``f`` giving ``body(row)``; what
    ``body`` raises is raised after the scan (raised through ``nnx.scan``, it broke later ``nnx.jit`` calls)."""
    import jax.numpy as jnp

    raised = []

    def step(carry, a, *more):
        try:
            return carry, body(a, *more)
        except Exception as exc:  # noqa: BLE001 - raised again below, outside the scan
            raised.append(exc)
            return carry, jnp.zeros(())

    def run(a, *more, scanned=transform(step)):
        out = scanned(jnp.zeros(()), a, *more)[1]
        if raised:
            raise raised.pop()
        return out
    return run


def _prepare_class(name, transform, body, x):
    """A Linen module class lifted by the transform (``nn.scan(Cell, ...)``), scanning its
    ``__call__`` over the rows of ``x``, initialised once."""
    import jax
    import jax.numpy as jnp
    import flax.linen as nn

    class Cell(nn.Module):
        @nn.compact
        def __call__(self, carry, a):
            return carry, body(a)

    module = transform(Cell, variable_broadcast="params", split_rngs={"params": False})()
    carry = jnp.zeros(())
    variables = module.init(jax.random.key(0), carry, x)
    return lambda a: module.apply(variables, carry, a)[1]


def _prepare_method(name, transform, body, x):
    """A Linen module whose ``__call__`` the transform decorates, initialised once."""
    import jax
    import flax.linen as nn

    wrap = (lambda f: transform(f, variable_axes={}, split_rngs={})) if name.endswith(".vmap") else transform

    class Probe(nn.Module):
        @wrap
        @nn.compact
        def __call__(self, a):
            return body(a)

    module = Probe()
    variables = module.init(jax.random.key(0), x)
    return lambda a: module.apply(variables, a)


MODULES_KEY = "framework_modules"
# Module base class -> (the decorator that marks a method traced where the framework has one,
# the framework's standard path to a module's methods). What runs traced there is measured.
MODULE_BASES = {
    "flax.linen.Module": ("flax.linen.compact", "jax.jit(model.apply)"),
    "flax.nnx.Module": (None, "flax.nnx.jit"),
    "equinox.Module": (None, "equinox.filter_jit"),
}


def framework_modules(data_file, resolve):
    """{Module base: which of a subclass's methods its framework's standard path traces, whether
    a Python scalar argument and a Python field stay static there, whether the trace is cached}
    (``_measure_module``); a framework not installed keeps its entry from ``data_file``."""
    previous = recorded(data_file, MODULES_KEY)
    found = {}
    for name, (decorator, path) in MODULE_BASES.items():
        base = resolve(name)
        if base is None:
            if name in previous:
                found[name] = previous[name]
            continue
        package = name.split(".")[0]
        found[name] = dict(_measure_module(name, base, decorator and resolve(decorator)),
                           names=sorted({name, defined_as(base)}),
                           decorators=sorted({decorator, defined_as(resolve(decorator))}) if decorator else [],
                           path=path, measured_with=f"{package} {importlib.metadata.version(package)}")
    return found


def _measure_module(name, base, decorator):
    """Run a probe subclass of ``base`` through its framework's standard path, twice, recording
    what each of its methods sees: ``__call__``, a plain method ``__call__`` calls, ``setup``
    and a method under ``decorator`` (linen's ``nn.compact``, applied with ``method=``)."""
    import jax
    import jax.numpy as jnp

    seen = {}  # method -> {"runs": n, "array": traced?, "scalar": traced?, "field": traced?}

    def record(method, array=None, scalar=None, field=None):
        entry = seen.setdefault(method, {"runs": 0})
        entry["runs"] += 1
        for role, value in (("array", array), ("scalar", scalar), ("field", field)):
            if value is not None:
                entry[role] = isinstance(value, jax.core.Tracer)

    run = {"flax.linen.Module": _run_linen, "flax.nnx.Module": _run_nnx, "equinox.Module": _run_equinox}[name]
    instance = run(base, decorator, record, seen, jnp.ones(3))
    call = seen["__call__"]
    return {
        "traced_methods": sorted(method for method, entry in seen.items() if entry["array"]),
        "cached": call["runs"] == 1,
        "python_scalars_static": not call["scalar"],
        "array_fields_traced": bool(call.get("field")),
        "rejected_by_jax_jit": rejected_by_jax_jit(instance),
        "python_fields_static": _python_fields_static(name, base),
        "list_attributes_kept": _list_attributes_kept(name, base),
        "construction_methods": _construction_methods(base),
        "array_holders": array_holders(name, base) if name == "flax.nnx.Module" else [],
        "traced_self_methods": traced_self_methods(base, decorator) if name == "flax.linen.Module" else {},
    }


def _construction_methods(base):
    """The methods that building a subclass of ``base`` with its fields as given runs on the
    built object, seeing the fields it was given (Equinox's ``__post_init__`` and
    ``__check_init__``): built inside ``jax.jit`` from a tracer, they see the tracer. None for a
    framework whose Module takes no fields so (NNX's own ``__init__``)."""
    import jax
    import jax.numpy as jnp

    seen = set()

    class Probe(base):
        w: jax.Array

        def __post_init__(self):
            if isinstance(self.w, jax.core.Tracer):
                seen.add("__post_init__")

        def __check_init__(self):
            if isinstance(self.w, jax.core.Tracer):
                seen.add("__check_init__")

    try:
        jax.jit(lambda a: Probe(a).w)(jnp.ones(3))
    except Exception as exc:  # noqa: BLE001 - the framework's Modules are not built from their fields
        print(f"{base.__module__}: no construction methods measured ({type(exc).__name__})"[:200], file=sys.stderr)
    return sorted(seen)


def _python_fields_static(name, base):
    """Whether a Python ``int`` field of a Module given to its framework's jit (``eqx.filter_jit``,
    ``nnx.jit``) is static there: an instance with another value traces the step again. A linen
    Module is not given to a jit (its ``apply`` is): False."""
    import jax.numpy as jnp

    traces = []
    if name == "equinox.Module":
        import equinox as eqx

        class Counted(base):
            n: int

            def __call__(self, a):
                traces.append(self.n)
                return a * self.n
        jit = eqx.filter_jit
    elif name == "flax.nnx.Module":
        from flax import nnx

        class Counted(base):
            def __init__(self, n):
                self.n = n

            def __call__(self, a):
                traces.append(self.n)
                return a * self.n
        jit = nnx.jit
    else:
        return False
    step = jit(lambda module, a: module(a))
    step(Counted(1), jnp.ones(3))
    step(Counted(2), jnp.ones(3))
    return len(traces) == 2


def _list_attributes_kept(name, base):
    """Whether a Python list that a Module's ``__init__`` stores on ``self`` and its ``__call__``
    appends to, called through its framework's jit, still holds the tracer appended after the call:
    NNX hands the method the object's own list; Equinox a rebuilt one (it flattens the field). A
    linen Module builds its attributes anew in each apply: False."""
    import jax
    import jax.numpy as jnp

    if name == "flax.linen.Module":
        return False
    if name == "equinox.Module":
        from equinox import filter_jit as jit
    else:
        from flax.nnx import jit

    class Appending(base):
        seen: list

        def __init__(self):
            self.seen = []

        def __call__(self, a):
            self.seen.append(a)
            return a
    module = Appending()
    jit(lambda module, a: module(a))(module, jnp.ones(3))
    return any(isinstance(value, jax.core.Tracer) for value in module.seen)


def _run_linen(base, compact, record, seen, x):
    import jax
    import jax.numpy as jnp

    class Probe(base):
        features: int = 2

        def setup(self):
            self.w = self.param("w", lambda key: jnp.ones(3))
            record("setup", array=self.w)

        def __call__(self, a, n):
            record("__call__", array=a, scalar=n, field=self.features)
            return self.helper(a)

        def helper(self, a):
            record("called", array=a)
            return a * self.w

    class Compact(base):
        @compact
        def encode(self, a):
            record("compact", array=a)
            return a

    variables = Probe().init(jax.random.key(0), x, 3)
    seen.clear()  # init ran every method once, eagerly
    apply = jax.jit(Probe().apply)
    apply(variables, x, 3)
    apply(variables, x, 3)
    jax.jit(lambda a: Compact().apply({}, a, method=Compact.encode))(x)
    return Probe()


def _run_nnx(base, _, record, seen, x):
    import jax.numpy as jnp
    from flax import nnx

    class Probe(base):
        def __init__(self):
            self.w = nnx.Param(jnp.ones(3))

        def __call__(self, a, n):
            record("__call__", array=a, scalar=n, field=self.w[...])
            return self.helper(a)

        def helper(self, a):
            record("called", array=a)
            return a * self.w[...]

    step = nnx.jit(lambda model, a, n: model(a, n))
    model = Probe()
    step(model, x, 3)
    step(model, x, 3)
    return model


def _run_equinox(base, _, record, seen, x):
    import equinox as eqx
    import jax

    class Probe(base):
        w: jax.Array

        def __call__(self, a, n):
            record("__call__", array=a, scalar=n, field=self.w)
            return self.helper(a)

        def helper(self, a):
            record("called", array=a)
            return a * self.w

    step = eqx.filter_jit(lambda model, a, n: model(a, n))
    model = Probe(x)
    step(model, x, 3)
    step(model, x, 3)
    return model
