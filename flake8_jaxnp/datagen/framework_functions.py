"""Framework functions and classes measured by running them, for the generator's framework keys
(``frameworks.framework_entries``): which are JAX's own (``framework_aliases``: ``flax.linen.relu`` is ``jax.nn.relu``),
which trace the functions given to them (``framework_lax_bodies``: ``nnx.cond``), which give the keys a key decides
(``framework_key_builders``: ``nnx.Rngs``), which give one array of arrays (``framework_array_functions``:
``optax.global_norm``), which a new object on every call and which keep one static (``framework_static_holders``).
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
    return _measured_functions(data_file, resolve, KEY_BUILDERS_KEY, _builds_keys_its_key_decides,
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
    return _measured_functions(data_file, resolve, ARRAY_FUNCTIONS_KEY, _gives_one_array_of_arrays)


def _measured_functions(data_file, resolve, key, measure, namespaces=ARRAY_FUNCTION_NAMESPACES,
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
    return _measured_functions(data_file, resolve, FRESH_OBJECTS_KEY, _new_on_every_call)


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


RECORDS_KEY = "framework_records"
# The frameworks' pytree dataclasses that training code passes to jitted steps, each with how an
# example is built: {dotted name: (the builder's name on the class or "", its keyword arguments)}.
RECORD_CANDIDATES = {"flax.training.train_state.TrainState": "create"}


def framework_records(data_file, resolve):
    """{dotted name: {"builders", "fields", "arrays", "measured_with"}} for ``RECORD_CANDIDATES``: a pytree
    dataclass built by ``builders`` and given to ``jax.jit`` reads back, by attribute, tracers in each of
    ``fields`` (one tracer for each of ``arrays``) and no tracer in its other fields (``TrainState.step``
    an array, ``params`` a tree, ``apply_fn`` static); a framework not installed keeps its entries from
    ``data_file``."""
    import dataclasses
    import jax
    import jax.numpy as jnp

    read = {}

    def body(record):
        for field in dataclasses.fields(record):
            value = getattr(record, field.name)
            read[field.name] = (isinstance(value, jax.core.Tracer),
                                any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree_util.tree_leaves(value)))
        return 0
    reading = jax.jit(body)
    previous, found = recorded(data_file, RECORDS_KEY), {}
    adam = resolve("optax.adam")
    for name, builder in RECORD_CANDIDATES.items():
        cls = resolve(name)
        if cls is None or adam is None:
            found.update({name: previous[name]} if name in previous else {})
            continue
        read.clear()
        reading(getattr(cls, builder)(apply_fn=lambda *a: a, params={"w": jnp.ones(3)}, tx=adam(0.1)))
        package = name.split(".")[0]
        found[name] = {"builders": [name, f"{name}.{builder}"], "fields": [f for f, (_, tree) in read.items() if tree],
                       "arrays": [f for f, (array, _) in read.items() if array],
                       "measured_with": f"{package} {importlib.metadata.version(package)}"}
    return found


HOLDERS_KEY = "framework_static_holders"
# Framework classes (or their builders) that may keep an argument as static data, that argument and the
# jit they are given to: candidates; whether a new one makes that jit trace a step again is measured
# (``framework_static_holders``).
HOLDER_CANDIDATES = {"flax.nnx.Optimizer": ("tx", "flax.nnx.jit"), "flax.nnx.ModelAndOptimizer": ("tx", "flax.nnx.jit"),
                     "flax.training.train_state.TrainState.create": ("tx", "jax.jit")}


def framework_static_holders(data_file, resolve):
    """{class or builder: the argument it keeps static, its position in a call (None: keyword-only),
    the jit measured} for the ``HOLDER_CANDIDATES`` that, built anew each call around a new
    ``optax.adam`` (a fresh object, ``framework_fresh_objects``), make their jit trace a step again on
    every call, and, built anew around one shared ``optax.adam``, do not; a framework not installed
    keeps its entries from ``data_file``."""
    previous = recorded(data_file, HOLDERS_KEY)
    found = {}
    for name, (argument, transform) in HOLDER_CANDIDATES.items():
        holder, adam, jit = resolve(name), resolve("optax.adam"), resolve(transform)
        if holder is None or adam is None or jit is None:
            found.update({name: previous[name]} if name in previous else {})
            continue
        parameters = inspect.signature(holder.__init__ if isinstance(holder, type) else holder).parameters
        position = list(parameters).index(argument) - isinstance(holder, type)  # after self
        if parameters[argument].kind is inspect.Parameter.KEYWORD_ONLY:
            position = None
        shared = adam(1e-3)
        if _traces_per_holder(name, holder, lambda: adam(1e-3), jit) == 3 \
                and _traces_per_holder(name, holder, lambda: shared, jit) == 1:
            package = name.partition(".")[0]
            found[name] = {"argument": argument, "position": position, "transform": transform,
                           "measured_with": f"{package} {importlib.metadata.version(package)}"}
    return found


def _traces_per_holder(name, holder, make_tx, jit):
    """How often a ``jit`` step traces over three calls, each given a new holder around ``make_tx()``: an
    NNX one of a new module (``holder(module, tx, wrt=nnx.Param)``), else a new train state of new
    parameters (``holder(apply_fn=..., params=..., tx=tx)``)."""
    import jax.numpy as jnp
    from flax import nnx

    traces = []

    @jit
    def step(model, held, x):
        traces.append(1)
        return model(x) if name.startswith("flax.nnx") else held.apply_fn(held.params, x)
    for seed in range(3):
        if name.startswith("flax.nnx"):
            model = nnx.Linear(2, 1, rngs=nnx.Rngs(seed))
            step(model, holder(model, make_tx(), wrt=nnx.Param), jnp.ones((1, 2)))
        else:
            params = jnp.full((2, 1), float(seed))
            step(None, holder(apply_fn=jnp.dot, params=params, tx=make_tx()), jnp.ones((1, 2)))
    return len(traces)


def rejected_by_jax_jit(instance):
    """Whether ``jax.jit`` refuses ``instance`` as an argument: not a pytree of JAX types (a
    linen Module; an Equinox Module holding functions, such as ``eqx.nn.MLP``'s activation)."""
    import jax

    try:
        jax.jit(lambda module: 0)(instance)
    except TypeError:
        return True
    return False


ARRAY_METHODS_KEY = "framework_array_methods"
# Framework classes whose objects training code keeps in the host loop, each with how a probe is built:
# {dotted name: (the function that builds the probe object from the class, given ``resolve``)}.
METHOD_CANDIDATES = {"optax.MultiSteps": lambda cls, resolve: cls(resolve("optax.sgd")(0.1), every_k_schedule=2)}


def framework_array_methods(data_file, resolve):
    """{dotted class name: {"methods": {method: dtype of its result}, "measured_with"}} for ``METHOD_CANDIDATES``:
    the public methods of a probe object that, called eagerly with the object's own ``init`` state
    (or with nothing), give one JAX array (``optax.MultiSteps(...).has_updated(state)``: a device
    bool); a framework not installed keeps its entries from ``data_file``."""
    import jax
    import jax.numpy as jnp

    previous, found = recorded(data_file, ARRAY_METHODS_KEY), {}
    for name, build in METHOD_CANDIDATES.items():
        cls = resolve(name)
        if cls is None:
            found.update({name: previous[name]} if name in previous else {})
            continue
        probe = build(cls, resolve)
        state = probe.init({"w": jnp.ones(3)})
        methods = {}
        for method in sorted(n for n in dir(probe) if not n.startswith("_")):
            for args in ((state,), ()):
                try:
                    result = getattr(probe, method)(*args)
                except Exception:  # noqa: BLE001 - arguments that do not fit say nothing
                    continue
                if isinstance(result, jax.Array):
                    methods[method] = str(result.dtype)
                break
        package = name.split(".")[0]
        found[name] = {"methods": methods, "measured_with": f"{package} {importlib.metadata.version(package)}"}
    return found


STATIC_OBJECTS_KEY = "framework_static_objects"
# The jits that may keep an object given to them as static data (``eqx.filter_jit`` keeps every leaf
# that is not an array): candidates; whether a new one on each call traces the step again is measured.
STATIC_OBJECT_JITS = ("equinox.filter_jit", "flax.nnx.jit", "jax.jit")


def framework_static_objects(data_file, resolve):
    """{jit: measured_with} for the ``STATIC_OBJECT_JITS`` that, given a new ``optax.adam`` (a fresh
    object, ``framework_fresh_objects``) on each call, trace their function again on every call and,
    given one shared, do not (``jax.jit`` refuses one); a framework not installed keeps its entry."""
    previous, found = recorded(data_file, STATIC_OBJECTS_KEY), {}
    adam = resolve("optax.adam")
    for name in STATIC_OBJECT_JITS:
        jit = resolve(name)
        if jit is None or adam is None:
            found.update({name: previous[name]} if name in previous else {})
            continue
        shared = adam(1e-3)
        if _traces_per_object(jit, lambda: adam(1e-3)) == 3 and _traces_per_object(jit, lambda: shared) == 1:
            package = name.partition(".")[0]
            found[name] = {"measured_with": f"{package} {importlib.metadata.version(package)}"}
    return found


def _traces_per_object(jit, make_tx):
    """How often ``jit`` traces a step over three calls, each given ``make_tx()``; None when it refuses it."""
    import jax.numpy as jnp

    traces = []

    @jit
    def step(tx, x):
        traces.append(1)
        return tx.init(x)
    try:
        for _ in range(3):
            step(make_tx(), jnp.ones(2))
    except TypeError:
        return None
    return len(traces)


CONTAINERS_KEY = "framework_containers"


def framework_containers(data_file, resolve):
    """{dotted name: {"holds": "list" or "dict", measured_with}} for the public classes of
    ``FRAMEWORK_NAMESPACES`` that, built around a list (a dict) of objects alone, give each object
    back, the same one, by its index and in iteration (by its key): ``nnx.List``, ``nnx.Dict``, so
    that ``self.heads["cls"]`` holds what the dict display given to ``nnx.Dict`` holds there; a
    framework not installed keeps its entries from ``data_file``."""
    import warnings

    previous, found = recorded(data_file, CONTAINERS_KEY), {}
    for namespace in FRAMEWORK_NAMESPACES:
        module = resolve(namespace)
        if module is None:
            found.update({k: v for k, v in previous.items() if k.rpartition(".")[0] == namespace})
            continue
        package = namespace.partition(".")[0]
        for name in sorted(n for n in dir(module) if not n.startswith("_")):
            cls = getattr(module, name)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                holds = isinstance(cls, type) and _gives_items_back(cls)
            if holds:
                found[f"{namespace}.{name}"] = {"holds": holds,
                                                "measured_with": f"{package} {importlib.metadata.version(package)}"}
    return found


def _gives_items_back(cls):
    """"list" or "dict" when ``cls`` built around a list (a dict) of two objects gives each back, else None."""
    first, second = object(), object()
    try:
        held = cls([first, second])
        if held[0] is first and held[1] is second and [*held][:2] == [first, second]:
            return "list"
    except Exception:  # noqa: BLE001 - a class that refuses a list holds none
        pass
    try:
        held = cls({"a": first, "b": second})
        return "dict" if held["a"] is first and held["b"] is second else None
    except Exception:  # noqa: BLE001 - nor one that refuses a dict
        return None


REBUILDERS_KEY = "framework_rebuilders"
# (module, the call that takes an object apart, its other arguments' names there, the call that
# rebuilds it, the Module class a probe subclasses): candidates, measured by ``framework_rebuilders``.
REBUILDER_CANDIDATES = (("flax.nnx", "split", (), "merge", "Module"),
                        ("equinox", "partition", ("is_array",), "combine", "Module"))


def framework_rebuilders(data_file, resolve):
    """{rebuilder: {"parts_of": the call whose parts it takes, measured_with}} for the
    ``REBUILDER_CANDIDATES`` whose rebuilt object, given the parts of an instance of a Module
    subclass, is of that subclass (``nnx.merge(*nnx.split(m))``, ``eqx.combine(*eqx.partition(m,
    eqx.is_array))``); a framework not installed keeps its entry."""
    previous, found = recorded(data_file, REBUILDERS_KEY), {}
    for namespace, split, extra, rebuild, base in REBUILDER_CANDIDATES:
        module, name = resolve(namespace), f"{namespace}.{rebuild}"
        if module is None:
            found.update({name: previous[name]} if name in previous else {})
            continue
        probe = type("Probe", (getattr(module, base),), {})()
        try:
            rebuilt = getattr(module, rebuild)(*getattr(module, split)(probe, *[getattr(module, e) for e in extra]))
        except Exception:  # noqa: BLE001 - a pair that does not fit rebuilds nothing
            continue
        if type(rebuilt) is type(probe):
            package = namespace.partition(".")[0]
            found[name] = {"parts_of": f"{namespace}.{split}",
                           "measured_with": f"{package} {importlib.metadata.version(package)}"}
    return found


CLASS_TRANSFORMS_KEY = "framework_class_transforms"
CLASS_TRANSFORMS = ("equinox.filter_vmap", "equinox.filter_jit", "jax.vmap", "jax.jit", "jax.grad")


def framework_class_transforms(data_file, resolve):
    """{transform: measured_with} for the ``CLASS_TRANSFORMS`` that, applied to an ``eqx.Module`` class
    and called (with split keys, for a vmap), give an instance of it (``eqx.filter_vmap(Layer)(keys)``)."""
    previous, found, eqx, jax = recorded(data_file, CLASS_TRANSFORMS_KEY), {}, resolve("equinox"), resolve("jax")
    for name in CLASS_TRANSFORMS:
        if eqx is None or resolve(name) is None:
            found.update({name: previous[name]} if name in previous else {})
            continue
        probe = type("Probe", (eqx.Module,), {"__annotations__": {"w": jax.Array},  # one array field, from the key
                                              "__init__": lambda self, key: setattr(self, "w", key[:1] * 1.0)})
        keys = jax.random.split(jax.random.PRNGKey(0), 3) if "vmap" in name else jax.random.PRNGKey(0)
        try:
            built = resolve(name)(probe)(keys)
        except Exception:  # noqa: BLE001 - a transform that refuses a class builds none
            continue
        if type(built) is probe:
            found[name] = {"measured_with": f"equinox {importlib.metadata.version('equinox')}"}
    return found


# Every key measured here and the function that measures it (``frameworks.framework_entries``).
MEASURES = {ALIASES_KEY: framework_aliases, ARRAY_FUNCTIONS_KEY: framework_array_functions,
            FRESH_OBJECTS_KEY: framework_fresh_objects, HOLDERS_KEY: framework_static_holders,
            UPDATE_CALLBACKS_KEY: framework_update_callbacks, RECORDS_KEY: framework_records,
            BODIES_KEY: framework_lax_bodies, KEY_BUILDERS_KEY: framework_key_builders,
            ARRAY_METHODS_KEY: framework_array_methods, STATIC_OBJECTS_KEY: framework_static_objects,
            CONTAINERS_KEY: framework_containers, REBUILDERS_KEY: framework_rebuilders,
            CLASS_TRANSFORMS_KEY: framework_class_transforms}
