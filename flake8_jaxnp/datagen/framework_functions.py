"""Framework functions measured by running them, for the generator's framework keys
(``frameworks.framework_entries``): which are JAX's own (``framework_aliases``: ``flax.linen.relu`` is ``jax.nn.relu``),
which trace the functions given to them (``framework_lax_bodies``: ``nnx.cond``), which give the keys a key decides
(``framework_key_builders``: ``nnx.Rngs``), which give one array of arrays (``framework_array_functions``:
``optax.global_norm``), which a new object on every call (``framework_fresh_objects``), which run a function given
to them in ``update`` (``framework_update_callbacks``). What framework objects hold: ``framework_objects``.
"""
import importlib.metadata
import inspect
import json

from .array_holders import built_probe


def recorded(data_file, key):
    """The entries ``data_file`` holds under ``key``, kept for a framework that is not installed."""
    return json.loads(data_file.read_text(encoding="utf-8")).get(key, {}) if data_file.exists() else {}


ALIASES_KEY = "framework_aliases"
# The framework namespaces that re-export JAX functions (``nn.relu`` is ``jax.nn.relu``), and the
# JAX modules whose functions they may be.
FRAMEWORK_NAMESPACES = ("flax.linen", "flax.nnx", "equinox", "equinox.nn")
JAX_NAMESPACES = ("jax.numpy", "jax.nn", "jax.lax", "jax.random", "jax.tree_util", "jax.nn.initializers", "jax")


def framework_aliases(data_file, resolve):
    """{framework name: the JAX function it is} for the public names of ``FRAMEWORK_NAMESPACES``
    that are the very object of a JAX function (``flax.linen.relu``: ``jax.nn.relu``), so that
    what the linter knows of the function holds for the alias; a framework not installed keeps
    its entries from ``data_file``."""
    previous = recorded(data_file, ALIASES_KEY)
    functions = {}  # id of a JAX function -> its public name in the first namespace that has it
    for module_name in JAX_NAMESPACES:
        module = resolve(module_name)
        for name in sorted(dir(module)) if module is not None else ():
            obj = getattr(module, name)
            if not name.startswith("_") and callable(obj) and not isinstance(obj, type):
                functions.setdefault(id(obj), f"{module_name}.{name}")
    found = {}
    for namespace in FRAMEWORK_NAMESPACES:
        module = resolve(namespace)
        if module is None:
            found.update((k, v) for k, v in previous.items() if k.rpartition(".")[0] == namespace)
            continue
        found.update((f"{namespace}.{name}", functions[id(getattr(module, name))]) for name in dir(module)
                     if not name.startswith("_") and id(getattr(module, name)) in functions)
    return found


BODIES_KEY = "framework_lax_bodies"
# The framework namespaces whose control flow may trace the functions given to it, like jax.lax's
# (not Equinox's: what ``filter_jvp`` gives its function is a JVP tracer, whose truth is concrete).
CONTROL_FLOW_NAMESPACES = ("flax.nnx",)


def framework_lax_bodies(data_file, resolve):
    """{dotted name: {"positions", "operands", "measured_with"}} for the public functions of
    ``CONTROL_FLOW_NAMESPACES`` that, called eagerly, call a function given to them with tracers
    (``flax.nnx.cond``'s two branches), measured as ``bodies.lax_bodies`` measures jax.lax's, and
    which of their arguments reach which parameters of those functions (``operands.body_operands``);
    a framework not installed keeps its entries from ``data_file``."""
    from .operands import body_operands
    from .bodies import lax_bodies

    previous = recorded(data_file, BODIES_KEY)
    found = {}
    for namespace in CONTROL_FLOW_NAMESPACES:
        if resolve(namespace) is None:
            found.update((k, v) for k, v in previous.items() if k.rpartition(".")[0] == namespace)
            continue
        package = namespace.split(".")[0]
        bodies = lax_bodies(resolve, lambda module: sorted(n for n in dir(module) if not n.startswith("_")),
                            namespace, run=lambda thunk: thunk)
        version = f"{package} {importlib.metadata.version(package)}"
        passed = body_operands(resolve, bodies, run=lambda thunk: thunk)
        found.update((name, {"positions": positions, "operands": passed.get(name, {}), "measured_with": version})
                     for name, positions in bodies.items())
    return found


KEY_BUILDERS_KEY = "framework_key_builders"


def framework_key_builders(data_file, resolve):
    """{dotted name: measured_with} for the public classes of ``FRAMEWORK_NAMESPACES`` that, built
    around a key alone, give keys when called that the key decides: the same key, the same keys;
    another key, others (``nnx.Rngs(key)``: two built around one key draw the same numbers, as two
    samplers given it do); a framework not installed keeps its entries from ``data_file``."""
    return measured_functions(data_file, resolve, KEY_BUILDERS_KEY, _builds_keys_its_key_decides,
                              FRAMEWORK_NAMESPACES, inspect.isclass)


def _builds_keys_its_key_decides(cls):
    import jax
    import jax.numpy as jnp

    try:
        first, again, other = (jax.random.key_data(built_probe(cls, jax.random.key(seed))()) for seed in (0, 0, 1))
    except Exception:  # noqa: BLE001 - not built from a key alone, or what it gives is no key
        return False
    return bool(jnp.array_equal(first, again)) and not bool(jnp.array_equal(first, other))


ARRAY_FUNCTIONS_KEY = "framework_array_functions"
# The namespaces of a library built on JAX whose public functions may give one array (a loss,
# a norm): Optax's.
ARRAY_FUNCTION_NAMESPACES = ("optax", "optax.losses", "optax.tree", "optax.tree_utils")


def framework_array_functions(data_file, resolve):
    """{dotted name: measured_with} for the public functions of ``ARRAY_FUNCTION_NAMESPACES`` that,
    called inside ``jax.jit`` on an array in every required positional parameter (float arrays, or
    integer labels last), give one JAX array, and give no pytree when any of those arrays is a
    dict of it instead (``optax.global_norm``, ``optax.l2_loss``; not ``optax.apply_updates``,
    which maps a tree); a library not installed keeps its entries from ``data_file``."""
    return measured_functions(data_file, resolve, ARRAY_FUNCTIONS_KEY, _gives_one_array_of_arrays)


def measured_functions(data_file, resolve, key, measure, namespaces=ARRAY_FUNCTION_NAMESPACES,
                       kind=inspect.isfunction):
    """{dotted name: measured_with} for the public functions (or other ``kind``) of ``namespaces``
    that ``measure`` holds true of; a library not installed keeps its entries under ``key`` in
    ``data_file``."""
    previous = recorded(data_file, key)
    found = {}
    for namespace in namespaces:
        module = resolve(namespace)
        if module is None:
            found.update((k, v) for k, v in previous.items() if k.rpartition(".")[0] == namespace)
            continue
        package = namespace.split(".")[0]
        for name in sorted(dir(module)):
            func = getattr(module, name)
            if not name.startswith("_") and kind(func) and measure(func):
                found[f"{namespace}.{name}"] = {"measured_with": f"{package} {importlib.metadata.version(package)}"}
    return found


def _gives_one_array_of_arrays(func):
    """Whether ``func`` gives one array of arrays, and never a pytree of dicts (``framework_array_functions``)."""
    import itertools
    import jax.numpy as jnp

    required = _required_positional(func)
    if not required:
        return False
    floats = [jnp.ones((2, 3)) for _ in required]
    for args in (floats, floats[:-1] + [jnp.zeros((2,), jnp.int32)] if len(floats) > 1 else None):
        if args is None or _traced_result_is_array(func, args) is not True:
            continue
        subsets = (set(subset) for size in range(1, len(args) + 1)
                   for subset in itertools.combinations(range(len(args)), size))
        return all(_traced_result_is_array(func, [{"a": a} if i in subset else a for i, a in enumerate(args)])
                   is not False for subset in subsets)
    return False


def _traced_result_is_array(func, args):
    """Whether ``func(*args)`` inside ``jax.jit`` gives one JAX array (a tracer there: a Python number
    would become one only as the jit's output); None when the call fails."""
    import warnings
    import jax

    seen = []

    def body(*given):
        out = func(*given)
        seen.append(isinstance(out, jax.Array))
        return out
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            jax.jit(body)(*args)
    except Exception:  # noqa: BLE001 - what the function refuses says nothing about what it gives
        return None
    return seen[0]


FRESH_OBJECTS_KEY = "framework_fresh_objects"


def framework_fresh_objects(data_file, resolve):
    """{dotted name: measured_with} for the public functions of ``ARRAY_FUNCTION_NAMESPACES`` that,
    called twice with the same numbers in every required parameter, give two hashable objects that
    are not equal (``optax.adam``: a transformation of new closures), so that as a static argument
    of a jitted function each call's result is a new cache key; a library not installed keeps its
    entries from ``data_file``."""
    return measured_functions(data_file, resolve, FRESH_OBJECTS_KEY, _new_on_every_call)


# The object given twice to a function that takes only ``*args`` and refuses none (``optax.chain(*transforms)``),
# by the function's package: a probe, as 0.1 is for the others; what the function gives is measured.
VARARGS_PROBES = {"optax": "identity"}


def _new_on_every_call(func):
    """Whether two calls of ``func`` with 0.1 in every required parameter (or, for one that takes only
    ``*args`` and refuses none, its package's ``VARARGS_PROBES`` object twice) give unequal hashable objects."""
    import importlib

    required = _required_positional(func)
    if required is None:
        return False
    unequal = _unequal_results(func, [0.1 for _ in required])
    package = func.__module__.partition(".")[0]
    if unequal is None and not required and package in VARARGS_PROBES and any(
            p.kind is p.VAR_POSITIONAL for p in inspect.signature(func).parameters.values()):
        made = getattr(importlib.import_module(package), VARARGS_PROBES[package])()
        unequal = _unequal_results(func, [made, made])
    return bool(unequal)


def _unequal_results(func, args):
    """Whether two calls ``func(*args)`` give unequal hashable objects; None when they raise."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            first, second = func(*args), func(*args)
        hash(first), hash(second)
    except Exception:  # noqa: BLE001 - a function these arguments do not fit is not measured
        return None
    return first != second


def _required_positional(func):
    """The parameters of ``func`` a positional call must give; None when it has no signature to read."""
    try:
        parameters = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    return [p for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


UPDATE_CALLBACKS_KEY = "framework_update_callbacks"
# The namespace of gradient transformations, whose objects' ``update`` may run functions they were given.
TRANSFORMATION_NAMESPACE = "optax"


def framework_update_callbacks(data_file, resolve):
    """{dotted name: {"arguments": [[position, keyword, [its array positions]], ...], "measured_with"}}
    for the public functions and classes of ``TRANSFORMATION_NAMESPACE`` whose result's ``update``, run inside
    ``jax.jit``, calls with tracers a function given as one of those arguments (a schedule given
    as ``optax.adam(learning_rate=...)``, the ``f`` of ``optax.stateless``, the ``update`` of
    ``optax.GradientTransformation``): that function runs traced wherever ``update`` does, given
    one traced array at its array positions (a schedule's count). The candidates are the parameters
    annotated as functions; a library not installed keeps its entries from ``data_file``."""
    module = resolve(TRANSFORMATION_NAMESPACE)
    if module is None:
        return recorded(data_file, UPDATE_CALLBACKS_KEY)
    measured_with = f"optax {importlib.metadata.version('optax')}"
    found = {}
    for name in sorted(dir(module)):
        builder = getattr(module, name)
        if name.startswith("_") or not callable(builder):
            continue
        try:
            parameters = list(inspect.signature(builder).parameters.values())
        except (TypeError, ValueError):
            continue
        arguments = [[position if param.kind is not param.KEYWORD_ONLY else None, param.name, arrays]
                     for position, param in enumerate(parameters)
                     if any(word in str(param.annotation) for word in ("Callable", "Fn", "Function", "Schedule"))
                     for arrays in [_run_in_update(builder, parameters, param)] if arrays is not None]
        if arguments:
            found[f"{TRANSFORMATION_NAMESPACE}.{name}"] = {"arguments": arguments, "measured_with": measured_with}
    return found


def _run_in_update(builder, parameters, tested):
    """The positions where a function given to ``builder`` as ``tested`` gets one tracer on every call,
    when it is called with a tracer as the built transformation's ``update`` runs inside ``jax.jit``,
    else None; a function is tried that gives back its first
    argument, its first two, or a number, the other required parameters filled alike (or 0.1)."""
    import warnings
    import jax
    import jax.numpy as jnp

    seen = []
    gives = (lambda *a: a[0], lambda *a: (a[0], a[1]), lambda *a: 0.1)
    params = {"w": jnp.ones(3)}
    for give in gives:
        for filler in (give, 0.1):
            def recorder(*args, give=give):
                seen.append((any(isinstance(a, jax.core.Tracer) for a in jax.tree_util.tree_leaves(args)),
                             {i for i, a in enumerate(args) if isinstance(a, jax.core.Tracer)}))
                return give(*args)
            kwargs = {p.name: (recorder if p is tested else filler) for p in parameters
                      if p is tested or p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    transformation = builder(**kwargs)
                    state = transformation.init(params)
                    del seen[:]
                    jax.jit(transformation.update)(params, state, params)
            except Exception:  # noqa: BLE001 - arguments that do not fit say nothing
                continue
            if any(traced for traced, _ in seen):
                return sorted(set.intersection(*(arrays for _, arrays in seen)))
    return None


# Every key measured here and the function that measures it (``frameworks.framework_entries``).
MEASURES = {ALIASES_KEY: framework_aliases, ARRAY_FUNCTIONS_KEY: framework_array_functions,
            FRESH_OBJECTS_KEY: framework_fresh_objects, UPDATE_CALLBACKS_KEY: framework_update_callbacks,
            BODIES_KEY: framework_lax_bodies, KEY_BUILDERS_KEY: framework_key_builders}
