"""The semantic model's facts about JAX and NumPy, learned by running them.

Part of the generator (``python -m flake8_jaxnp.datagen``): which functions
return tuples, bools or Python values, NumPy's constructor defaults, and which array attributes are
static. Each fact comes from calling the installed JAX or NumPy with typed
inputs.
"""
import inspect
import warnings

from ..facts import JAX_ARRAY_MODULES, NUMPY_MODULES, SEQUENCE_REFUSAL

# np.random functions never called by the probes: they replace or reseed the global
# generator (one crashed the interpreter when handed an array) or run NumPy's tests.
GLOBAL_RANDOM_STATE = frozenset({"seed", "set_state", "get_state", "set_bit_generator", "get_bit_generator", "test"})
# Errors that mean "this needs concrete data", i.e. the call fails on tracers.
TRACER_ERRORS = frozenset({"TracerArrayConversionError", "ConcretizationTypeError", "TracerIntegerConversionError",
                           "TracerBoolConversionError"})
# Errors that say a value had to be concrete (a shape, a Python bool).
CONCRETE_ERRORS = TRACER_ERRORS | {"NonConcreteBooleanIndexError"}


class _Stop(Exception):
    """Raised by a probe body to end a call once it has seen what it needed."""


def quiet(call, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call(*args, **kwargs)


def has_tracer(values):
    import jax

    return any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree_util.tree_leaves(values))


def abstract_tracer(value):
    """Whether ``value`` holds a tracer whose truth needs concrete data (a staging or mapping trace's,
    not a differentiating one's): a truth test on it fails."""
    import jax.numpy as jnp

    if not has_tracer(value):
        return False
    try:
        bool(jnp.sum(jnp.asarray(value)) > 0)
    except Exception as exc:  # noqa: BLE001 - classified below
        return type(exc).__name__ in CONCRETE_ERRORS
    return False


def functions_with_parameters(module, public):
    """(name, function, parameters) for the module's public functions that have a signature."""
    for name in public(module):
        func = getattr(module, name)
        if not callable(func) or inspect.isclass(func):
            continue
        try:
            yield name, func, list(inspect.signature(func).parameters.values())
        except (TypeError, ValueError):
            continue


def tree_results(resolve, public):
    """Bare names of jax.lax functions that give back the pytree they are given (``pmean``
    of a dict is a dict): called on a dict, alone or with a mapped axis name."""
    import jax
    import jax.numpy as jnp

    tree = {"a": jnp.ones((2, 3)), "b": jnp.zeros((2, 3))}
    found = []
    for name in public(resolve("jax.lax")):
        func = getattr(resolve("jax.lax"), name)
        for extra in ((), ("i",)):
            results = []
            try:
                quiet(jax.vmap(lambda t: results.append(func(t, *extra)) or 0, axis_name="i"), tree)
            except Exception:  # noqa: BLE001 - a call that fails says nothing
                continue
            if results and isinstance(results[0], dict):
                found.append(name)
                break
    return sorted(found)


# ---- what functions return ------------------------------------------------------------------
def function_results(resolve, public, unsafe):
    """{"non_array", "tuple", "bool"}: bare names of functions, classified by calling them.

    Each function of the namespaces the model reads is called with a set of
    typed inputs (JAX functions under a trace, so nothing compiles; eagerly
    when they need concrete data). A name is "tuple" if some call returns a
    non-empty tuple or list of arrays, "bool" if every array it returns is
    boolean, "non_array" if no call returns an array at all. Attributes that
    are not callable and not numbers (``newaxis``, ``s_``) are "non_array" too.
    A name is classified only when the namespaces that have it agree.
    """
    import jax.numpy as jnp
    import numpy as np

    outcomes = {}
    for modules, xp in ((JAX_ARRAY_MODULES, jnp), (NUMPY_MODULES, np)):
        inputs = _typed_inputs(xp)
        for modname in modules:
            module = resolve(modname)
            for name in public(module):
                if name in unsafe:
                    continue
                obj = quiet(getattr, module, name)
                found = outcomes.setdefault(name, set())
                if not callable(obj):
                    if not isinstance(obj, (int, float, complex, np.generic, np.ndarray)):
                        found.add("other")
                    continue
                found |= _call_outcomes(obj, inputs, xp is jnp) or {"unknown"}
    results = {"non_array": set(), "tuple": set(), "bool": set()}
    for name, found in outcomes.items():
        if found == {"other"}:
            results["non_array"].add(name)
        elif "tuple" in found:
            results["tuple"].add(name)
        elif found == {"bool"}:
            results["bool"].add(name)
    return {key: sorted(names) for key, names in results.items()}


def _typed_inputs(xp):
    """Argument tuples covering unary, binary, matrix, shape and dtype signatures."""
    vector = xp.asarray([0.5, 1.5, 2.5], dtype=xp.float32)
    ints = xp.asarray([0, 1, 2], dtype=xp.int32)
    matrix = xp.asarray([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], dtype=xp.float32)
    cube = xp.ones((2, 2, 2), dtype=xp.float32)
    return [(vector,), (vector, vector), (vector, 1), (vector, vector, vector), (ints,), (ints, (3,)),
            (matrix,), (matrix, matrix), (cube, 2), (3,), (3, 3), ((3,),), (0, 1), (), ("float32",),
            ("float32", "float32"), (xp.float32, "real floating")]


def _call_outcomes(func, inputs, traced):
    """The kinds of result ("array", "bool", "tuple", "other") of the calls that work,
    also with each boolean flag of the signature switched on (``return_counts=True``)."""
    found = set()
    flags = [{name: True} for name in _false_flags(func)]
    for args in inputs:
        for keywords in [{}] + (flags if args and len(args) == 1 else []):
            result = _result(func, args, keywords, traced)
            if result is not None:
                found.add(result)
    return found


def _false_flags(func):
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.default is False]


def _result(func, args, keywords, traced):
    """The kind of ``func(*args, **keywords)``'s result, or None when the call fails."""
    import jax

    kinds = []

    def call(*_):
        result = func(*args, **keywords)
        # A ufunc's second argument is ``out``: a result that is an input says nothing.
        kinds.append(None if any(result is arg for arg in args) else _kind(result))

    try:
        quiet(jax.make_jaxpr(call) if traced else call, 0)
    except Exception as exc:  # noqa: BLE001 - a call that fails says nothing
        if not (traced and type(exc).__name__ in CONCRETE_ERRORS):
            return None
        try:  # it needs concrete data (jnp.nonzero): call it eagerly
            quiet(call)
        except Exception:  # noqa: BLE001
            return None
    return kinds[-1] if kinds else None


def _kind(value):
    import jax
    import numpy as np

    if isinstance(value, (jax.Array, np.ndarray, np.generic)):
        return "bool" if value.dtype == bool else "array"
    if isinstance(value, (tuple, list)) and value and all(_kind(v) != "other" for v in value):
        return "tuple"  # of arrays, or of sequences of them (histogramdd's edges)
    return "other"


# ---- NumPy constructor defaults ------------------------------------------------------------
def constructor_defaults(resolve, public, unsafe):
    """{bare name: dtype}: NumPy functions that build one fixed dtype from Python ints
    (``zeros(3)``, ``eye(3)``) and keep it when any argument is a float, a float32
    scalar or a float32 array instead; their jax.numpy twin (if any) must build the
    same dtype narrowed to JAX's default width."""
    import jax
    import numpy as np

    wide_to_jax = {"float64": "float32", "int64": "int32", "complex128": "complex64"}
    found = {}
    for modname in NUMPY_MODULES:
        module = resolve(modname)
        twin = resolve("jax" + modname.replace("numpy", ".numpy", 1))
        for name in public(module):
            func = getattr(module, name)
            if name in unsafe or inspect.isclass(func) or not callable(func):
                continue
            working, dtypes = [], set()
            for args in ((3,), (3, 3), (0, 1), (0, 1, 3)):
                variants = [args[:i] + (other,) + args[i + 1:] for i in range(len(args))
                            for other in (float(args[i]), np.float32(args[i]), np.ones(3, np.float32))]
                for variant in [args] + variants:
                    try:
                        result = quiet(func, *variant)
                    except Exception:  # noqa: BLE001 - not this signature
                        if variant is args:
                            break
                        continue
                    if variant is args:
                        working.append(args)
                    dtypes.add(str(result.dtype) if type(result) is np.ndarray else None)
            if not working or len(dtypes) != 1 or None in dtypes:
                continue
            dtype = dtypes.pop()
            jax_func = getattr(twin, name, None)
            if jax_func is not None:
                try:
                    jax_dtypes = {str(quiet(jax.eval_shape, lambda a=args: jax_func(*a)).dtype) for args in working}
                except Exception:  # noqa: BLE001 - the twin takes other arguments: no evidence
                    continue
                if jax_dtypes != {wide_to_jax.get(dtype, dtype)}:
                    continue
            found[name] = dtype
    return found


def scalar_results(resolve, public, unsafe):
    """{bare name: {"int": dtype, "float": dtype}}: the dtype a NumPy function builds when
    every argument is a Python int, and when one is a float (``np.arange(4)`` is int64,
    ``np.linspace(0.0, 1.0, 5)`` float64), from the first argument count it accepts; with
    ``"jax"``, the same of its jax.numpy twin where it builds arrays from those arguments too
    (``jnp.arange(4)`` is int32)."""
    import jax
    import numpy as np

    found = {}
    for modname in NUMPY_MODULES:
        module = resolve(modname)
        twin = resolve("jax" + modname.replace("numpy", ".numpy", 1))
        for name in public(module):
            func = getattr(module, name)
            if name in unsafe or inspect.isclass(func) or not callable(func):
                continue
            for args in ((3,), (0, 3), (0, 1, 3)):
                results = [quiet(_or_none, func, *args), quiet(_or_none, func, *map(float, args))]
                if all(type(result) is np.ndarray for result in results):
                    found[name] = {"int": str(results[0].dtype), "float": str(results[1].dtype)}
                    jax_func = getattr(twin, name, None) if twin is not None and name not in unsafe else None
                    built = [quiet(_or_none, jax_func, *a) for a in (args, tuple(map(float, args)))] if jax_func else []
                    if built and all(isinstance(result, jax.Array) for result in built):
                        found[name]["jax"] = {"int": str(built[0].dtype), "float": str(built[1].dtype)}
                    break
    return found


def _or_none(func, *args, **kwargs):
    try:
        return func(*args, **kwargs)
    except Exception:  # noqa: BLE001 - not this signature
        return None


# ---- jax.Array methods and attributes --------------------------------------------------------
def _array_samples():
    """Fresh arrays of several ranks and dtypes (a method may delete its array)."""
    import jax.numpy as jnp

    return [jnp.arange(3.0), jnp.ones((2, 2)), jnp.float32(1.5), jnp.int32(2)]


def _array_member_names():
    """Public jax.Array members, and the special methods it shares with numpy.ndarray."""
    import jax
    import numpy as np

    names = set(dir(jax.Array)) | set(dir(_array_samples()[0]))
    special = {n for n in names & set(dir(np.ndarray)) if n.startswith("__")} - set(dir(object))
    return sorted({n for n in names if not n.startswith("_")} | special)


def types_no_tracer_is():
    """Names of the builtin classes that a traced array, of each sample dtype and shape, is never an
    instance of under jax.jit (``isinstance(x, float)`` is False for a tracer ``x``), less the pytree
    containers, which a tree of tracers may be."""
    import builtins

    import jax

    seen = []

    def probe(array):
        seen.append({name for name, kind in vars(builtins).items()
                     if isinstance(kind, type) and not issubclass(kind, BaseException) and isinstance(array, kind)})
        return array

    for sample in _array_samples():
        quiet(jax.jit(probe), sample)
    is_some = set().union(*seen)
    return sorted(name for name, kind in vars(builtins).items() if isinstance(kind, type)
                  and not issubclass(kind, BaseException) and not name.startswith("_") and name not in is_some
                  and not _container(kind))


def _container(kind):
    """Whether an empty instance of the class is a pytree node (no leaves), not a leaf: tuple, list."""
    import jax

    try:
        empty = kind()
    except Exception:  # noqa: BLE001 - a class that needs arguments is not a container JAX flattens
        return False
    return jax.tree_util.tree_structure(empty).num_leaves != 1


def python_result_methods():
    """jax.Array methods whose result, in every call that works, is not an array."""
    found = []
    for name in _array_member_names():
        kinds = set()
        for index in range(len(_array_samples())):
            for args in ((), (0,)):
                kinds.add(_method_result(name, index, args))
        if kinds - {None} == {"other"}:
            found.append(name)
    return found


def _method_result(name, index, args):
    """The kind of ``sample.name(*args)`` for the index-th sample array, or None when
    it fails; traced first (nothing compiles), eagerly if it needs concrete data."""
    import jax

    kinds = []

    def call(array):
        member = getattr(array, name)
        if callable(member) and not inspect.isclass(member):
            kinds.append(_kind(member(*args)))

    try:
        quiet(jax.make_jaxpr(call), _array_samples()[index])
    except Exception as exc:  # noqa: BLE001 - classified below
        if type(exc).__name__ not in CONCRETE_ERRORS:
            return None
        try:
            quiet(call, _array_samples()[index])
        except Exception:  # noqa: BLE001 - not this signature
            return None
    return kinds[-1] if kinds else None


def static_attributes():
    """jax.Array attributes (not methods) that hold metadata, not array data: on concrete
    arrays and on tracers, every access that works gives a non-array."""
    kinds = _attribute_kinds(lambda value: None if callable(value) else _kind(value))
    return sorted(name for name, found in kinds.items() if found == {"other"})


def integer_attributes():
    """{attribute: "int" | "ints"}: jax.Array attributes that, on concrete arrays and on tracers, give
    a Python int in every access (``ndim``, ``size``), or a tuple of them (``shape``)."""
    def integer(value):
        ints = type(value) is tuple and all(type(v) is int for v in value)
        return "int" if type(value) is int else "ints" if ints else "other"

    kinds = _attribute_kinds(integer)
    return {name: found.pop() for name, found in sorted(kinds.items()) if found in ({"int"}, {"ints"})}


def _attribute_kinds(classify):
    """{attribute: the set of what ``classify`` says of its value} over every access that works of every
    jax.Array member, on the sample arrays and on tracers of them (``classify`` None: not counted)."""
    import jax

    kinds = {}

    def inspect_members(array):
        for name in _array_member_names():
            try:
                value = getattr(array, name)
            except Exception:  # noqa: BLE001 - raises here (flat, a tracer's device)
                continue
            kind = classify(value)
            if kind is not None:
                kinds.setdefault(name, set()).add(kind)
        return array

    for array in _array_samples():
        inspect_members(array)
        quiet(jax.make_jaxpr(inspect_members), array)
    return kinds


# ---- promotion inside calls --------------------------------------------------------------------
def promoting_arguments(jnp_names, resolve):
    """{qualname: {"positions": [...], "sequences": [...]}}: the arguments of jax.numpy
    functions whose dtypes promote together into the result (``where``'s two operands,
    ``concatenate``'s list). Every argument is a float16 array (a list of them at a
    sequence position); a position counts when a bfloat16 array there, or a bfloat16
    element in its list, turns the result into float32, the promotion of the two."""
    import jax
    import jax.numpy as jnp

    half, brain = jnp.ones(3, jnp.float16), jnp.ones(3, jnp.bfloat16)

    def dtype_of(func, args):
        try:
            return str(quiet(jax.eval_shape, lambda: func(*args)).dtype)
        except Exception:  # noqa: BLE001 - not this signature
            return None

    found = {}
    for qualname in jnp_names:
        func = resolve(qualname)
        if not callable(func) or inspect.isclass(func):
            continue
        for count, lead in [(n, ()) for n in range(1, 4)] + [(3, ("i,i->i",))]:  # einsum's spec first
            for sequences in ((), (0,), (1,)):
                base = [lead[i] if i < len(lead) else [half, half] if i in sequences else half
                        for i in range(count)]
                if dtype_of(func, base) != "float16":
                    continue
                positions, lists = [], []
                for index in range(len(lead), count):
                    swapped = list(base)
                    swapped[index] = [half, brain] if index in sequences else brain
                    if dtype_of(func, swapped) == "float32":
                        (lists if index in sequences else positions).append(index)
                if len(positions) + len(lists) * 2 >= 2:
                    entry = found.setdefault(qualname, {"positions": [], "sequences": []})
                    entry["positions"] = sorted(set(entry["positions"]) | set(positions))
                    entry["sequences"] = sorted(set(entry["sequences"]) | set(lists))
    return found


# ---- NumPy random defaults ---------------------------------------------------------------------
def numpy_random_dtypes():
    """{"legacy": {name: dtype}, "generator": {method: dtype}}: the dtype of the array the
    legacy ``np.random`` functions and ``np.random.Generator`` methods return when no
    dtype is given (``rng.normal(size=3)`` is float64), found by calling each one with
    ``size=3`` and up to three plain parameters (``rand(3)`` without). A function that
    returns the dtype of array data it is given (``choice``) is left out."""
    import numpy as np

    data = np.ones(3, np.float32)

    def dtypes_of(owner, names):
        found = {}
        for name in names:
            func = getattr(owner, name)
            if not callable(func) or inspect.isclass(func):
                continue
            calls = [(args, {"size": 3}) for args in ((), (1,), (1, 1), (2, 0.5, 1))] + [((3,), {})]
            for args, keywords in calls:
                result = quiet(_or_none, func, *args, **keywords)
                if type(result) is np.ndarray:
                    given = quiet(_or_none, func, data, *args[1:], **keywords)
                    if getattr(given, "dtype", result.dtype) == result.dtype:
                        found[name] = str(result.dtype)
                    break
        return found

    legacy = dtypes_of(np.random, [n for n in dir(np.random) if not n.startswith("_") and n not in GLOBAL_RANDOM_STATE])
    generator = dtypes_of(np.random.default_rng(0), [n for n in dir(np.random.Generator) if not n.startswith("_")])
    return {"legacy": legacy, "generator": generator}


def sequence_refusals(jnp_names, resolve, items=False):
    """jax.numpy function -> required positional parameters that refuse a Python list, found by
    calling each with a list there and arrays elsewhere (NumPy accepts lists everywhere). With
    ``items``: those that take a list of arrays but refuse a list of lists (``jnp.concatenate``)."""
    import jax
    import jax.numpy as jnp

    array = jnp.ones(3)
    refusals = {}
    with jax.disable_jit(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for qualname in jnp_names:
            func = resolve(qualname)
            if not callable(func) or isinstance(func, type):
                continue
            if isinstance(func, jnp.ufunc):  # jnp.add & co. take *args
                arity = func.nin
            else:
                try:
                    arity = sum(1 for p in inspect.signature(func).parameters.values()
                                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty)
                except (TypeError, ValueError):
                    continue
            for position in range(min(arity, 3)):
                args = [array] * arity
                if items:
                    args[position] = [array, array]
                    try:
                        func(*args)
                    except Exception:  # noqa: BLE001 - takes no list of arrays there
                        continue
                args[position] = [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]] if items else [1.0, 2.0, 3.0]
                try:
                    func(*args)
                except TypeError as exc:
                    if SEQUENCE_REFUSAL in str(exc):
                        refusals.setdefault(qualname, []).append(position)
                except Exception:  # noqa: BLE001 - failing for another reason says nothing about lists
                    pass
    return refusals
