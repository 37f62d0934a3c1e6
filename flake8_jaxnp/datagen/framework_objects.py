"""Framework objects measured by running them, for the generator's framework keys
(``frameworks.framework_entries``): what a pytree dataclass holds under a trace (``framework_records``:
``TrainState``), which objects a jit keeps static and traces again for when new
(``framework_static_holders``, ``framework_static_objects``), which methods give an array
(``framework_array_methods``), which classes hold what they are built around (``framework_containers``),
rebuild an object from its parts (``framework_rebuilders``) or build one through a transform
(``framework_class_transforms``), which functions give a Module's own arrays (``framework_module_arrays``),
and which fields an optimiser's state holds its subtrees in (``framework_state_fields``).
"""
import importlib.metadata
import inspect

from .framework_functions import FRAMEWORK_NAMESPACES, measured_functions, recorded

RECORDS_KEY = "framework_records"
# The frameworks' pytree dataclasses that training code passes to jitted steps, each with how an
# example is built: {dotted name: (the builder's name on the class or "", its keyword arguments)}.
RECORD_CANDIDATES = {"flax.training.train_state.TrainState": "create"}


def framework_records(data_file, resolve):
    """{dotted name: {"builders", "fields", "arrays", "returning", "updating", "measured_with"}} for
    ``RECORD_CANDIDATES``:
    a pytree dataclass built by ``builders`` and given to ``jax.jit`` reads back, by attribute, tracers in each
    of ``fields`` (one tracer for each of ``arrays``) and no tracer in its other fields (``TrainState.step``
    an array, ``params`` a tree, ``apply_fn`` static); its methods ``returning`` give an object of its class
    (``state.apply_gradients(grads=grads)``, ``_methods_returning``), and those ``updating`` run the ``update``
    of the gradient transformation the builder was given, by the builder's keyword (``_methods_updating``);
    a framework not installed keeps its entries from ``data_file``."""
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
        params = {"w": jnp.ones(3)}
        record = getattr(cls, builder)(apply_fn=lambda *a: a, params=params, tx=adam(0.1))
        reading(record)
        package = name.split(".")[0]
        returning = _methods_returning(record, params)
        found[name] = {"builders": [name, f"{name}.{builder}"], "fields": [f for f, (_, tree) in read.items() if tree],
                       "arrays": [f for f, (array, _) in read.items() if array],
                       "returning": returning,
                       "updating": _methods_updating(getattr(cls, builder), adam, params, returning),
                       "measured_with": f"{package} {importlib.metadata.version(package)}"}
    return found


def _methods_returning(record, tree):
    """The public methods of ``record`` (not its class's) that, given ``tree`` in every required parameter,
    give an object of its class: the step a training loop rebinds its state to (``apply_gradients``, ``replace``)."""
    found = []
    for name in sorted(n for n in dir(type(record)) if not n.startswith("_")):
        method = getattr(record, name)
        if not inspect.ismethod(method) or method.__self__ is not record:
            continue  # a field, or a classmethod (``TrainState.create``)
        try:
            result = _called_with(method, tree)
        except Exception:  # noqa: BLE001 - arguments that do not fit say nothing
            continue
        if type(result) is type(record):
            found.append(name)
    return found


def _methods_updating(build, adam, tree, methods):
    """{method: "tx"} for the ``methods`` of a record that ``build`` makes around a gradient transformation
    given as ``tx=`` (as ``framework_records`` builds one) that run its ``update`` when given ``tree`` in every
    required parameter: the step that calls the functions the transformation was built with
    (``state.apply_gradients``: the schedule)."""
    import optax

    found = {}
    for name in methods:
        ran, inner = [], adam(0.1)
        watched = optax.GradientTransformation(inner.init, lambda *a, **k: ran.append(True) or inner.update(*a, **k))
        try:
            _called_with(getattr(build(apply_fn=lambda *a: a, params=tree, tx=watched), name), tree)
        except Exception:  # noqa: BLE001 - arguments that do not fit say nothing
            continue
        if ran:
            found[name] = "tx"
    return found


def _called_with(method, tree):
    """What ``method`` gives when given ``tree`` in every required parameter (its warnings silenced)."""
    import warnings

    required = [p for p in inspect.signature(method).parameters.values()
                if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return method(*[tree for p in required if p.kind is p.POSITIONAL_ONLY],
                      **{p.name: tree for p in required if p.kind is not p.POSITIONAL_ONLY})


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


MODULE_ARRAYS_KEY = "framework_module_arrays"
# The namespaces whose functions may give a Module's own arrays (``nnx.state(model)``).
MODULE_ARRAY_NAMESPACES = ("flax.nnx",)


def framework_module_arrays(data_file, resolve):
    """{dotted name: measured_with} for the public functions of ``MODULE_ARRAY_NAMESPACES`` that, given a
    probe Module alone, give a pytree (no Module) whose every leaf is one of the Module's own arrays, and
    leave it holding them (``nnx.state``, ``nnx.split``): device arrays where the Module's are; a framework
    not installed keeps its entries from ``data_file``."""
    return measured_functions(data_file, resolve, MODULE_ARRAYS_KEY, _gives_module_arrays, MODULE_ARRAY_NAMESPACES,
                              kind=lambda obj: callable(obj) and not isinstance(obj, type))


def _gives_module_arrays(func):
    """Whether ``func`` of an ``nnx.Linear`` gives a pytree of its own arrays alone, and leaves it whole."""
    import warnings
    import jax
    from flax import nnx

    probe = nnx.Linear(2, 3, rngs=nnx.Rngs(0))
    own = {id(leaf) for leaf in jax.tree_util.tree_leaves(probe)}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            given = func(probe)
    except Exception:  # noqa: BLE001 - a function that refuses a Module alone gives none of its arrays
        return False
    leaves = jax.tree_util.tree_leaves(given, is_leaf=lambda node: isinstance(node, nnx.Module))
    return bool(leaves) and all(isinstance(leaf, jax.Array) and id(leaf) in own for leaf in leaves) \
        and {id(leaf) for leaf in jax.tree_util.tree_leaves(probe)} == own


STATE_FIELDS_KEY = "framework_state_fields"
# The optimiser libraries whose public functions build gradient transformations (``optax.adam(lr)``).
OPTIMIZER_NAMESPACES = ("optax",)


def framework_state_fields(data_file, resolve):
    """{namespace: {"fields", "measured_with"}} for ``OPTIMIZER_NAMESPACES``: the fields of the named tuples
    found in the states that its transformations' ``init`` gives (``optax.adam(0.1)``, ``optax.chain(...)`` of
    one, ``optax.inject_hyperparams(optax.adam)(0.1)``): every field of a named tuple is a pytree child, so
    of a state's tree, each holds a subtree of it (``opt_state.inner_state``, ``.mu``, ``.hyperparams``); a
    name that a tuple answers itself (``count``) is left out. A library not installed keeps its entry."""
    import jax.numpy as jnp

    previous, found = recorded(data_file, STATE_FIELDS_KEY), {}
    for namespace in OPTIMIZER_NAMESPACES:
        module = resolve(namespace)
        if module is None:
            found.update({namespace: previous[namespace]} if namespace in previous else {})
            continue
        base = module.sgd(0.1)
        fields = set()
        for name in sorted(n for n in dir(module) if not n.startswith("_")):
            for build in (lambda f: f(0.1), lambda f: f(), lambda f: f(base), lambda f: f(module.sgd)(0.1)):
                try:
                    state = build(getattr(module, name)).init({"w": jnp.ones(3)})
                except Exception:  # noqa: BLE001 - arguments that do not fit build nothing
                    continue
                fields |= _named_tuple_fields(state)
                break
        found[namespace] = {"fields": sorted(fields - set(dir(tuple))),
                            "measured_with": f"{namespace} {importlib.metadata.version(namespace)}"}
    return found


def _named_tuple_fields(node):
    """The fields of the named tuples in a state's tree (containers and named tuples walked)."""
    if isinstance(node, dict):
        return set().union(*map(_named_tuple_fields, node.values()))
    if not isinstance(node, (tuple, list)):
        return set()
    own = set(node._fields) if isinstance(node, tuple) and hasattr(node, "_fields") else set()
    return own.union(*map(_named_tuple_fields, node))


# Every key measured here and the function that measures it (``frameworks.framework_entries``).
MEASURES = {RECORDS_KEY: framework_records, HOLDERS_KEY: framework_static_holders,
            ARRAY_METHODS_KEY: framework_array_methods, STATIC_OBJECTS_KEY: framework_static_objects,
            CONTAINERS_KEY: framework_containers, REBUILDERS_KEY: framework_rebuilders,
            CLASS_TRANSFORMS_KEY: framework_class_transforms, MODULE_ARRAYS_KEY: framework_module_arrays,
            STATE_FIELDS_KEY: framework_state_fields}
