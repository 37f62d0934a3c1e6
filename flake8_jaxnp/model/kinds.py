"""Value kinds: is this expression a tracer, a device array, a NumPy array?"""

from ..record import Constants, Record


class Kind(Constants):
    """What an expression holds. *_TREE: an array or a pytree of them (a jit argument or result)."""

    TRACER = "tracer"
    TRACER_TREE = "tracer-tree"
    JAX = "jax"
    JAX_TREE = "jax-tree"
    NUMPY = "numpy"
    PYTHON = "python"  # a concrete Python value: a number, a shape, a string, a function
    UNKNOWN = "unknown"
    GENERATOR = "numpy-generator"  # np.random.default_rng(): its methods give NumPy data
    # A Flax NNX object that an nnx.jit step was given: the step wrote its Variables back, so
    # their ``.value`` (and ``[...]``) now hold device arrays.
    NNX_GRAPH = "nnx-graph"


TRACER, TRACER_TREE, JAX, JAX_TREE, NUMPY, PYTHON, UNKNOWN, GENERATOR, NNX_GRAPH = Kind.MEMBERS
ARRAYS = (TRACER, JAX, NUMPY)  # one array (not a pytree)
TRACED = (TRACER, TRACER_TREE)
ON_DEVICE = (JAX, JAX_TREE)  # concrete JAX arrays, outside traced code
TREES = (TRACER_TREE, JAX_TREE)
# Annotations that say a parameter or a field is a JAX array.
ARRAY_ANNOTATIONS = frozenset({"jax.Array", "jax.numpy.ndarray", "jaxtyping.Array"})


_set = object.__setattr__


class Value(Record):
    """What an expression holds: its kind, its dtype when known, whether it is weakly typed
    (a Python scalar, in JAX promotion; a Python value with a dtype that is not weak is a dtype
    object: ``jnp.bfloat16``, a config field holding it), and, for a Python value, its truth when known (a
    literal every call passes a parameter: code that a test of it skips never runs, as
    ``check and not jnp.all(x)`` with ``check=False``)."""

    __slots__ = ("kind", "dtype", "weak", "truth")

    def __init__(self, kind, dtype=None, weak=False, truth=None):  # (written out: the forward passes make many)
        _set(self, "kind", kind)
        _set(self, "dtype", dtype)
        _set(self, "weak", weak)
        _set(self, "truth", truth)

    members = None  # see Shaped
    container = None

    def member(self, key):
        """The Value of one part (``("attr", "loss")``), or None when it is not known."""
        for name, value in self.members or ():
            if name == key:
                return value
        return None

    @property
    def traced(self):
        return self.kind in TRACED

    @property
    def holds_tracers(self):
        """Traced, or a literal container with a traced part (``[k0, k1]`` of two tracers): a
        function given it gets a pytree of tracers."""
        return self.traced or any(value.holds_tracers for _, value in self.members or ())

    @property
    def on_device(self):
        """A concrete JAX array or pytree of them (outside traced code)."""
        return self.kind in ON_DEVICE

    @property
    def holds_device_arrays(self):
        """On the device, or a literal container or a record with a part there (``Result(ts, states)``
        of a jitted function's states): the JAX work that computed it may still be running. A
        generator's parts are not computed until it is read."""
        return self.kind in ON_DEVICE or self.container != "generator" \
            and any(value.holds_device_arrays for _, value in self.members or ())

    @property
    def is_array(self):
        return self.kind in ARRAYS


class Shaped(Value):
    """A jitted result whose pytree class is known, or a list of a tree's leaves: what its
    parts hold, as ((("attr", name) | ("item", index) | ("call", method) | EACH, Value), ...). A subclass, so
    that plain Values stay as small and cheap as before; a join keeps only the kind."""

    # container: "list", "tuple", "dict", "set" or "generator", a Python container (containers.py);
    # "object", a dataclass built here, whose fields the members hold (constructors.py)
    __slots__ = ("members", "container")

    def __init__(self, kind, dtype=None, weak=False, truth=None, members=(), container=None):
        Value.__init__(self, kind, dtype, weak, truth)
        _set(self, "members", members)
        _set(self, "container", container)


# The member of a Shaped list whose every element holds the same kind (``jax.tree.leaves(state)``).
EACH = ("each", None)
# The member of an empty list display (``rows = []``): what ``append`` adds is all it will hold.
EMPTY = ("empty", None)
UNKNOWN_VALUE = Value(UNKNOWN)
PYTHON_VALUE = Value(PYTHON)
TRACED_PARAMETER = Value(TRACER_TREE)  # an array or a pytree of arrays
TRACED_ARRAY = Value(TRACER)


def join(a, b):
    """The value a name holds after two paths that bound it to ``a`` and ``b`` meet."""
    if a == b:
        return a
    if a is None or b is None:  # unbound on one path
        return UNKNOWN_VALUE
    if a.kind is b.kind:
        return _joined_items(a, b) if a.container is not None and a.container == b.container else Value(a.kind)
    if a.kind in ON_DEVICE and b.kind in ON_DEVICE:
        return Value(JAX_TREE)  # on the device either way
    if a.kind in TRACED and b.kind in TRACED:
        return Value(TRACER_TREE)  # traced either way (a loop's ``a = a @ a`` on a traced parameter)
    return UNKNOWN_VALUE


def _joined_items(a, b):
    """Two containers of one type met: what every item of both holds (an empty one adds nothing), when
    that is known (a loop's ``rows.append(x)`` after ``rows = []``); else the kind alone."""
    each = [v.member(EACH) for v in (a, b) if v.member(EMPTY) is None]
    each = join(*each) if len(each) == 2 and None not in each else each[0] if len(each) == 1 else None
    if each is None or each.kind is UNKNOWN and not each.dtype:
        return Value(a.kind)
    return Shaped(a.kind, container=a.container, members=((EACH, each),))


def shaped(shape, kind):
    """The Value of a jitted result of ``kind`` whose shape (project.records.jitted_result_shape) is known:
    a record's fields are device data (arrays where annotated so), its comparing methods
    give a device bool."""
    if shape is None:
        return Value(kind)
    if "array" in shape:  # one array: iterating or reducing it gives arrays too
        return Value(TRACER if kind is TRACER_TREE else JAX)
    if "record" in shape:
        scalar = TRACER if kind is TRACER_TREE else JAX
        arrays = shape["record"]["arrays"]
        members = [(("attr", name), Value(scalar if name in arrays else kind)) for name in shape["record"]["fields"]]
        members += [(("call", name), Value(scalar, "bool")) for name in shape["record"]["methods"]]
        return Shaped(kind, members=tuple(members))
    return Shaped(kind, members=tuple((("item", i), shaped(part, kind)) for i, part in enumerate(shape["tuple"])))


def builder_result(built):
    """What calling a builder gives (``records.built_jitted``): ``step = make_step()``, or ``step, tx =
    make(lr)``; calling the jitted step gives device arrays (a JAX_TREE Value stands for it)."""
    if built is True:
        return Value(JAX_TREE)
    return Shaped(UNKNOWN, members=tuple((("item", i), Value(JAX_TREE) if jitted else UNKNOWN_VALUE)
                                         for i, jitted in enumerate(built)))


# How deep ``value_data`` keeps the parts of a value (an object's method giving a dict of tuples: 3).
_DATA_DEPTH = 4
# Kinds that a value computed in another module's own pass keeps where this module reads it: a
# tracer there belongs to another trace, and device data computed there is a tracer where a trace
# of this module runs the code (``data_value``'s ``traced``).
_KEPT_KINDS = frozenset({JAX, JAX_TREE, NUMPY, PYTHON, UNKNOWN})
_KINDS = {kind.value: kind for kind in Kind.MEMBERS}


def value_data(value, depth=0):
    """A Value as JSON data for the project summaries, [kind, dtype, weak, container, [[key, part],
    ...]], or None when nothing of it is known (its kind unknown and no part known)."""
    kind = value.kind if value.kind in _KEPT_KINDS else UNKNOWN
    members = []
    for key, part in value.members or () if depth < _DATA_DEPTH else ():
        data = value_data(part, depth + 1)
        if data is not None:
            members.append([list(key), data])
    if kind is UNKNOWN and not members:
        return None
    return [kind.value, value.dtype, value.weak, value.container, members]


def data_value(data, traced):
    """The Value that ``value_data`` wrote; ``traced``: read in traced code, where device data that the
    other module's own pass computed is computed by this trace (not known to be a tracer: unknown)."""
    kind, dtype, weak, container, members = data
    kind = _KINDS[kind]
    if traced and kind in ON_DEVICE:
        kind, dtype = UNKNOWN, None
    parts = tuple((tuple(key), data_value(part, traced)) for key, part in members)
    if not parts and container is None:
        return Value(kind, dtype, weak) if kind is not UNKNOWN or dtype else UNKNOWN_VALUE
    return Shaped(kind, dtype, weak, members=parts, container=container)
