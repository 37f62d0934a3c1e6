"""What calling a record class of the module gives: a NamedTuple or a dataclass whose fields
hold what the call passes (``m = Metrics(loss)``: ``m.loss`` holds ``loss``'s value, a field
annotated as a JAX array an array), so the kinds of values flow through records as through
names. Only classes whose constructor the code shows field by field: no ``__init__``,
``__post_init__`` or ``__new__`` of their own, no base but ``NamedTuple`` (or Flax's
``PyTreeNode``), no field whose ``field(...)`` takes it out of the positional order."""
import ast

from .dtypes import dtype_of
from .instances import method_in
from .kinds import PYTHON, Value
from .names import BindingKind
from .project.records import NAMED_TUPLES, REGISTER_CLASS
from .syntax import argument_for, literals, named_options, positional_names

DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "flax.struct.dataclass", "chex.dataclass"})
# Decorators that register a class as a pytree and leave its constructor as it was (the first two
# unflatten by calling the class: see unflattening_constructor).
REGISTER_DATACLASS = "jax.tree_util.register_dataclass"
REGISTERING_DECORATORS = frozenset({REGISTER_DATACLASS, REGISTER_CLASS, "jax.tree_util.register_static"})
_RECORD_BASES = NAMED_TUPLES | {"flax.struct.PyTreeNode"}
_OWN_CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__new__"})
_OUT_OF_ORDER = frozenset({"init", "kw_only"})  # field(init=False), field(kw_only=True)
_FIELDLESS = frozenset({"ClassVar", "InitVar"})


class Constructors:
    """The record classes of one module, read when a call of one is first evaluated."""

    def __init__(self, names, array_annotation):
        self.names = names
        self.array_annotation = array_annotation  # annotation -> whether it names a JAX array type
        self._records = {}  # class node -> its Record, or None

    def record(self, func_expr):
        """The Record that calling ``func_expr`` builds, when it names a record class of the module."""
        found = self.names.one_binding(func_expr, BindingKind.CLASS, module_level=True)
        if found is None:
            return None
        cls = found.stmt
        if cls not in self._records:
            self._records[cls] = self._read(cls)
        return self._records[cls]

    def _read(self, cls):
        qualname = self.names.qualname
        bases = {qualname(base) for base in cls.bases}
        named = bool(bases & NAMED_TUPLES)
        decorators = [qualname(decorated_by(d, qualname)) for d in cls.decorator_list]
        if not bases <= _RECORD_BASES or not named and not set(decorators) & DATACLASS_DECORATORS \
                or not set(decorators) <= DATACLASS_DECORATORS | REGISTERING_DECORATORS \
                or any(type(stmt) in (ast.FunctionDef, ast.AsyncFunctionDef) and stmt.name in _OWN_CONSTRUCTORS
                       for stmt in cls.body):
            return None
        fields, defaults = [], {}
        for stmt in cls.body:
            if type(stmt) is not ast.AnnAssign or type(stmt.target) is not ast.Name:
                continue
            annotation = stmt.annotation.value if type(stmt.annotation) is ast.Subscript else stmt.annotation
            special = (qualname(annotation) or "").rpartition(".")[2]
            if special == "KW_ONLY":
                return None
            if special in _FIELDLESS:
                continue
            if type(stmt.value) is ast.Call and any(k.arg in _OUT_OF_ORDER for k in stmt.value.keywords):
                return None
            fields.append((stmt.target.id, self.array_annotation(stmt.annotation)))
            dtype, python_type = dtype_of(stmt.value, self.names) if stmt.value is not None else (None, False)
            if dtype is not None and not python_type:  # (``float`` means JAX's default width: no dtype object)
                defaults[stmt.target.id] = Value(PYTHON, dtype)
        return Record(tuple(fields), named, defaults)


def decorated_by(decorator, qualname):
    """The function a decorator expression applies: ``dataclass`` of ``@dataclass(frozen=True)``,
    ``register_dataclass`` of ``@partial(register_dataclass, ...)``."""
    if type(decorator) is not ast.Call:
        return decorator
    if decorator.args and qualname(decorator.func) == "functools.partial":
        return decorator.args[0]
    return decorator.func


def init_fields(names, post_init):
    """The fields, in order, that a plain ``@dataclasses.dataclass`` (also registered as a pytree)
    with this ``__post_init__`` takes: None for a class with bases, ``InitVar``s, ``field(...)``
    options other than ``init=False`` (no parameter) or dataclass options."""
    cls = names.parent.get(post_init) if post_init is not None else None
    return dataclass_fields_of(cls, names.qualname) if isinstance(cls, ast.ClassDef) else None


def dataclass_fields_of(cls, qualname):
    """``init_fields`` of the ClassDef ``cls``, its names read by ``qualname`` (the module's, or
    its imports' alone where a project summary reads it)."""
    if cls.bases or cls.keywords:
        return None
    if [qualname(d) for d in cls.decorator_list
            if qualname(decorated_by(d, qualname)) != REGISTER_DATACLASS] != ["dataclasses.dataclass"]:
        return None
    return annotated_fields(qualname, cls)


def annotated_fields(qualname, cls):
    """The fields, in order, a dataclass-like ``cls`` takes as constructor parameters, read from
    its annotated class body: None for ``InitVar``s and ``field(...)`` options other than
    ``init=False`` (no parameter)."""
    fields = []
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            annotation = qualname(
                stmt.annotation.value if isinstance(stmt.annotation, ast.Subscript) else stmt.annotation) or ""
            if isinstance(stmt.value, ast.Call) and qualname(stmt.value.func) == "dataclasses.field" \
                    and any(k.arg == "init" and ast.unparse(k.value) == "False" for k in stmt.value.keywords):
                continue  # no parameter of the constructor
            if annotation.endswith(".InitVar") or isinstance(stmt.value, ast.Call):
                return None
            if not annotation.endswith(".ClassVar"):
                fields.append(stmt.target)
    return fields


class Record:
    """A record class's fields in constructor order, each with whether it is annotated as a JAX array;
    ``named``: a NamedTuple, whose fields are also its items; ``defaults``: the dtype objects that fields
    default to (``dtype: Any = jnp.bfloat16``), what an instance built without them holds there."""

    __slots__ = ("fields", "named", "defaults")

    def __init__(self, fields, named, defaults):
        self.fields = fields
        self.named = named
        self.defaults = defaults


def unflattening_constructor(cls, qualname, dataclass_fields):
    """(constructor def, its traced parameters, the data fields its ``self`` holds or None) that
    unflattening the pytree class ``cls`` runs (measured), or (None, None, None): ``__init__`` of a
    ``register_pytree_node_class`` whose ``tree_unflatten`` returns ``cls(*children)``, every
    parameter a tracer, or ``__post_init__`` of a ``register_dataclass`` dataclass, its data fields."""
    decorators = [qualname(decorated_by(d, qualname)) for d in cls.decorator_list]
    unflatten = method_in(cls, "tree_unflatten")
    if REGISTER_CLASS in decorators and unflatten is not None and unflatten.body \
            and ast.unparse(unflatten.body[-1]) == f"return cls(*{positional_names(unflatten)[-1]})":
        init = method_in(cls, "__init__")
        return (init, set(positional_names(init)[1:]), None) if init is not None else (None, None, None)
    post_init = method_in(cls, "__post_init__")
    fields = dataclass_fields(post_init)
    if fields is None or REGISTER_DATACLASS not in decorators:
        return None, None, None
    return post_init, {"self"}, registered_data(cls, fields)


def registered_data(cls, fields):
    """The names of ``fields`` that the ``register_dataclass`` registration of ``cls`` flattens to
    leaves: all of them, or those it names as ``data_fields=``."""
    data = {f.id for f in fields}
    for decorator in cls.decorator_list:
        options = named_options(decorator.keywords) if type(decorator) is ast.Call else {}
        data &= set(literals(options["data_fields"], str) or ()) if "data_fields" in options else data
    return data


def string_data_field(cls, call, qualname, stored):
    """The field in which ``call``, building the ``register_dataclass`` dataclass ``cls``, leaves a
    string that its registration flattens to a leaf (given, or its default: ``method: str = "linear"``),
    which jax.jit refuses as an argument (not a valid JAX type); else None. A field that ``stored()``
    (asked only then) counts stores of (``interp.method = 2``) may hold something else by then, and a
    ``__post_init__`` may store anything in any (``object.__setattr__(self, "method", CODES[self.method])``):
    those are not read."""
    registered = any(qualname(decorated_by(d, qualname)) == REGISTER_DATACLASS for d in cls.decorator_list)
    fields = dataclass_fields_of(cls, qualname) if registered and method_in(cls, "__post_init__") is None else None
    if not fields or any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    names, data = [field.id for field in fields], registered_data(cls, fields)
    defaults = {stmt.target: stmt.value for stmt in cls.body if type(stmt) is ast.AnnAssign}
    for field in fields:
        if field.id in data:
            given = argument_for(call, names, field.id)
            value = given if given is not None else defaults[field]
            if type(value) is ast.Constant and type(value.value) is str and not stored()[field.id]:
                return field.id
    return None
