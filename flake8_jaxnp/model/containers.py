"""What a literal container holds: the kind of each item, so that a subscript of it
(``TABLES["a"]``, ``pair[0]``) and an iteration over it know what they give.

A container's items are known only until the scope changes them: an item store
(``TABLES["a"] = ...``) or a mutating method on the name that holds it keeps the kind of
container and forgets its items (``changed``), except what the change itself says: a list's
``append`` adds an item (a list built by appending keeps what every item holds), a record's
attribute store sets that field (``cfg.dtype = jnp.float64``).

A call of another project module's function gives what its summary says it returns (a tuple or
dict of arrays, a jitted function, an object handing out jitted functions: ``summarised``).
"""
import ast

from .kinds import (ARRAYS, EACH, EMPTY, JAX, JAX_TREE, NUMPY, PYTHON, PYTHON_VALUE, TRACED_ARRAY, TRACER, TRACER_TREE,
                    UNKNOWN, UNKNOWN_VALUE, Shaped, Value, builder_result, data_value, join, shaped)

# Literal node type -> the container it builds.
LITERALS = {ast.List: "list", ast.Tuple: "tuple", ast.Set: "set", ast.Dict: "dict",
            ast.ListComp: "list", ast.SetComp: "set", ast.GeneratorExp: "generator", ast.DictComp: "dict"}
SEQUENCES = frozenset({"list", "tuple"})  # indexed by position: an index must be a Python int
# A builtin container type given as a default factory (``defaultdict(list)``) -> the container it makes.
FACTORIES = {"builtins.list": "list", "builtins.dict": "dict", "builtins.set": "set", "builtins.tuple": "tuple"}
DEFAULT_DICT = "collections.defaultdict"
_EMPTY = ((EMPTY, PYTHON_VALUE),)
JITTED_FUNCTION = Value(JAX_TREE)  # what a name bound to jax.jit(f) holds: its calls give device arrays


def literal(expr, values):
    """The Value of a list, tuple, set or dict display whose parts ``values`` has evaluated."""
    container = LITERALS[type(expr)]
    if type(expr) is ast.Dict:
        keys = [key.value for key in expr.keys if type(key) is ast.Constant]
        if len(keys) != len(expr.keys):  # a ``**spread``, or a key known only at runtime
            return Shaped(PYTHON, container=container)
        members = tuple((("key", key), values[value]) for key, value in zip(keys, expr.values))
        return Shaped(PYTHON, container=container, members=members + _views(values[value] for value in expr.values))
    if any(type(element) is ast.Starred for element in expr.elts):
        return Shaped(PYTHON, container=container)
    items = [values[element] for element in expr.elts]
    members = [(("item", i), item) for i, item in enumerate(items)] if container in SEQUENCES else []
    return Shaped(PYTHON, container=container, members=tuple(members + _each(items)) if items else _EMPTY)


def comprehension(expr, element):
    """A comprehension whose every element has the Value ``element`` (a dict's: its values, which
    its views give; iterating over it gives its keys)."""
    return holding(LITERALS[type(expr)], element)


def holding(container, element):
    """A ``container`` ("dict", "list", ...) whose every element (a dict's: value) is ``element``."""
    members = () if element is None else _views([element]) if container == "dict" else _each([element])
    return Shaped(PYTHON, container=container, members=tuple(members))


def defaulting(factory):
    """``collections.defaultdict(list)`` (``factory``: the factory's qualname): a dict whose every key, one
    it lacks too, gives the factory's container; None for another factory."""
    made = FACTORIES.get(factory)
    return holding("dict", Shaped(PYTHON, container=made)) if made else None


def item(container, index):
    """What subscripting ``container`` (a literal container's Value) with ``index`` gives, or None."""
    if type(index) is ast.Constant:
        found = container.member(("item" if container.container in SEQUENCES else "key", index.value))
        if found is None and container.container in SEQUENCES:
            return container.member(EACH)  # x.shape[0]: what every item holds
        return found if found is not None or container.container != "dict" else _any_value(container)
    if type(index) is ast.Slice:
        return Shaped(PYTHON, container=container.container, members=tuple(_each([container.member(EACH)])))
    # (a dict's: what any key gives, when its values share one kind)
    return container.member(EACH) if container.container in SEQUENCES else _any_value(container)


def element(value):
    """What iterating over ``value`` yields."""
    if value.kind in ARRAYS:
        return Value(value.kind, value.dtype)
    return value.member(EACH) or UNKNOWN_VALUE


def _any_value(mapping):
    """What any key of a dict gives when its values share one kind (a key it lacks raises KeyError)."""
    values = mapping.member(("call", "values"))
    return values.member(EACH) if values is not None else None


def changed(value, change=None, given=None):
    """``value`` after its scope changed it in place: ``change``, the store target (``given``: the Value
    stored) or the method call (``given``: its arguments' Values), or None (a callee given it).
    The same container, its items unknown but for what the change says."""
    if type(change) is ast.Attribute and value.container == "object" and value.member(("item", 0)) is None:
        members = tuple(m for m in value.members if m[0] != ("attr", change.attr))  # (a NamedTuple's raises)
        return Shaped(PYTHON, container="object", members=members + ((("attr", change.attr), given),))
    if type(change) is ast.Call and change.func.attr == "append" and value.container == "list" and len(given) == 1:
        each = given[0] if value.member(EMPTY) is not None else value.member(EACH)
        each = each if each is None or each is given[0] else join(each, given[0])
        if each is not None and (each.kind is not UNKNOWN or each.dtype):
            return Shaped(PYTHON, container="list", members=((EACH, each),))
    return Shaped(PYTHON, container=value.container)


def sequence_dtype(value):
    """The dtype of the array data ``value`` holds: an array's, or the one every item of a list or tuple
    of arrays has (``jnp.stack(rows)``), else None."""
    item = value if value.kind in ARRAYS else value.member(EACH) if value.container in SEQUENCES else None
    return item.dtype if item is not None and item.kind in ARRAYS and not item.weak else None


def _views(items):
    """The members ``d.values()`` and ``d.items()`` give for a dict display with constant keys whose
    every value (``items``) holds the same kind: a list of those values, a list of (key, value)."""
    each = _each(items)
    if not each:
        return ()
    pair = Shaped(PYTHON, container="tuple", members=((("item", 0), PYTHON_VALUE), (("item", 1), each[0][1])))
    return ((("call", "values"), Shaped(PYTHON, container="list", members=tuple(each))),
            (("call", "items"), Shaped(PYTHON, container="list", members=((EACH, pair),))))


def _each(items):
    """The EACH member when every item holds the same kind (or, of unknown kind, the same dtype)."""
    each = None
    for value in items:
        each = value if each is None else join(each, value)
    return [(EACH, each)] if each is not None and (each.kind is not UNKNOWN or each.dtype) else []


def handing_out_jitted(facts):
    """What an object holds whose attributes ``facts["jitted_calls"]`` are jitted functions; under
    ``("kept", name)``, the attributes of the object each one's compiled code keeps (``wrappers``)."""
    kept = facts.get("kept") or {}
    return Shaped(UNKNOWN, members=tuple((("attr", name), JITTED_FUNCTION) for name in facts["jitted_calls"]) + tuple(
        (("kept", name), Shaped(UNKNOWN, members=tuple((("attr", a), UNKNOWN_VALUE) for a in attrs)))
        for name, attrs in kept.items()))


def summary_value(returns, traced, held=None, named=None):
    """The Value of what a summary says a function returns (``returned_kind``): a jax.numpy array
    (a tracer when given one), NumPy data, a dict whose values are one of those, an object whose
    attributes and methods hold what its class's module's forward pass says (``project.returned_objects``:
    ``kinds.data_value``), a tuple of those;
    with the dtypes the summary's ``dtypes`` give them (``held``: ``returned_dtype``'s), a parameter's
    position read as the dtype that the call's argument for it names (``named``). A value whose kind
    is unknown but whose dtype is known (``v.astype(dtype)`` of a parameter's ``v``) keeps the dtype."""
    if type(returns) is list or type(held) is list:
        size = len(returns if type(returns) is list else held)
        kinds = returns if type(returns) is list and len(returns) == size else [None] * size
        items = held if type(held) is list and len(held) == size else [None] * size
        return Shaped(UNKNOWN, members=tuple((("item", i), summary_value(kind, traced, dtype, named))
                                             for i, (kind, dtype) in enumerate(zip(kinds, items))))
    if type(returns) is dict and "object" in returns:  # an object: what its class's module's pass says it holds
        return data_value(returns["object"], traced)
    if type(returns) is dict or type(held) is dict:
        return holding("dict", summary_value(returns["each"] if type(returns) is dict else None, traced,
                                             held["each"] if type(held) is dict else None, named))
    dtype = named(held) if type(held) is int and named else held if type(held) is str else None
    if returns is None:
        return Value(UNKNOWN, dtype) if dtype else UNKNOWN_VALUE
    return Value(NUMPY, dtype) if returns == "numpy" else Value(TRACER if traced else JAX, dtype)


def summarised(facts, call, args, keywords, named):
    """What a call of another project module's function gives by its summary ``facts``: device
    arrays from a jitted one (tracers when given any), a jitted function from one that builds it, an
    array from one that returns jax.numpy calls, NumPy data (or a tuple holding some) from one that
    returns it whatever it is given, a tracer when a tracer goes to a parameter that every return
    follows (``return x @ w``: ``follows``), with the dtypes the summary knows (``named``: the dtype
    a parameter's argument names); else None."""
    traced = any(value.traced for value in (*args, *keywords.values()))
    if facts.get("jitted_calls") and not traced:  # trainer = Trainer(cfg): trainer.train_step(...) gives arrays
        return handing_out_jitted(facts)
    if facts.get("jitted"):
        return shaped(facts.get("result"), TRACER_TREE if traced else JAX_TREE)
    if facts.get("builds_jitted"):
        return builder_result(facts["builds_jitted"])
    held = facts.get("dtypes")
    if facts.get("returns"):
        return summary_value(facts["returns"], traced, held, named)
    given = dict(zip(facts["params"], args), **keywords) if not any(type(a) is ast.Starred for a in call.args) \
        and None not in keywords else {}
    follows = any(given.get(facts["params"][i], UNKNOWN_VALUE).traced for i in facts.get("follows", ()))
    return TRACED_ARRAY if follows else summary_value(None, traced, held, named) if held is not None else None
