"""The methods a framework traces by its own contract, whatever calls them: a Flax linen
Module's ``__call__`` and ``@nn.compact`` methods, an NNX or Equinox Module's ``__call__``.

Which base classes and which methods run traced come from the API data (the generator runs a
probe Module of each framework through its standard path: ``datagen.frameworks``); which
parameters hold tracers is the convention's, chosen for precision: those the body uses as
arrays, not ``self``, not Python config (``train: bool``, a defaulted ``n=2``).
"""
import ast
from collections import Counter
from functools import lru_cache, partial

from .. import api
from . import dtypes
from .carried import FIELD_REPLACING
from .constructors import annotated_fields, init_fields, string_data_field
from .instances import method_in
from .kinds import (ARRAY_ANNOTATIONS, JAX, PYTHON, PYTHON_VALUE, TRACED_ARRAY, TRACED_PARAMETER, TRACER, TRACER_TREE,
                    UNKNOWN, UNKNOWN_VALUE, Shaped, Value)
from .library import array_function
from .names import DEFINITIONS, BindingKind
from .parameters import traced_parameters
from .syntax import positional

# The Module bases whose methods other parts of the model tell apart (the data's names for them).
LINEN_MODULE, NNX_MODULE = "flax.linen.Module", "flax.nnx.Module"
# Annotations of a Module method's parameters that hold Python config, not arrays.
PYTHON_ANNOTATIONS = frozenset({"bool", "int", "float", "str"})
# The methods that building a record class runs on the built object, in the order they run.
CONSTRUCTION_HOOKS = ("__post_init__", "__check_init__")
# How many same-file base classes deep a Module's framework is looked for.
_MAX_BASES = 4
# What a traced Module's field holding an NNX Variable reads back (``.value``, ``[...]``): the trace's array;
# the Variable itself is not one (``self.count[...] = x`` writes its value).
TRACED_HOLDER = Shaped(TRACER_TREE, members=((("attr", "value"), TRACED_ARRAY), (("item", Ellipsis), TRACED_ARRAY)))
# What a measured state method of a Module's ``self`` gives in a staged trace (``traced_self_methods``).
_STATE_GIVES = {"array": TRACED_ARRAY, "holder": Shaped(TRACER_TREE, members=((("attr", "value"), TRACED_ARRAY),))}


class Conventions:
    def __init__(self, names, instances):
        self.names = names
        self.instances = instances  # which class, and which call, an object comes from
        self.class_named = instances.class_named  # a base-class expression -> the same-file ClassDef, or None
        self._registered = None  # the names handed to a pytree registration call (untraceable_class), on demand

    def module_facts(self, cls, depth=0):
        """What the generator measured of the framework Module base ``cls`` derives from, directly
        or through same-file classes (``api.framework_module_bases``), or None."""
        for base in cls.bases if depth < _MAX_BASES else ():
            facts = api.framework_module_bases().get(self.names.qualname(base))
            inherited = self.class_named(base)
            if facts is None and inherited is not None and inherited is not cls:
                facts = self.module_facts(inherited, depth + 1)
            if facts is not None:
                return facts
        return None

    def runs_layer(self, func_expr):
        """What was measured of the framework's own layer that calling ``func_expr`` runs, one that
        gives one array (or, ``with_state``, an array and its new state: ``h, state = self.norm(x,
        state)`` of an ``eqx.nn.BatchNorm``), or None (``api.framework_layers``): ``nn.Dense(4)(x)``,
        ``self.linear(x)`` with ``self.linear = nnx.Linear(...)`` in ``__init__``, ``layer(x)`` with
        ``layer = eqx.nn.Linear(...)``."""
        built = self.instances.constructor(func_expr)
        return api.framework_layers().get(self.names.qualname(built.func)) if built is not None else None

    def layer_dtype(self, func_expr, inputs, x64):
        """The dtype of what calling ``func_expr``, a framework layer (``runs_layer``), gives on arrays of
        the Values ``inputs``, as measured (``result_dtype``): the dtype its construction's followed option
        names (``nn.Dense(4, dtype=jnp.bfloat16)``), or, where it is given no option whose name ends in
        ``dtype``, the layer's default whatever real input it gets (float32: ``nn.Dense(4)(x)``; not with
        x64 on, nor of a complex input); None otherwise (``dtype=self.dtype``, ``param_dtype=...``)."""
        built = self.instances.constructor(func_expr)
        measured = api.framework_layers()[self.names.qualname(built.func)].get("result_dtype")
        if measured is None or any(type(a) is ast.Starred for a in built.args) \
                or any(k.arg is None for k in built.keywords):
            return None
        options = measured["options"]
        given = [k.value for k in built.keywords if k.arg in options] \
            + [arg for at, arg in enumerate(built.args) if at in options.values()]
        if not given:
            real = all(v.dtype is None or dtypes.kind_rank(v.dtype) < 3 for v in inputs)
            return measured["default"] if real and not x64 else None
        follows = measured["follows"]
        asked = [k.value for k in built.keywords if k.arg == follows] \
            + [arg for at, arg in enumerate(built.args) if at == options.get(follows)]
        if len(given) > 1 or not asked:
            return None
        dtype = dtypes.dtype_of(asked[0], self.names)[0]
        return dtypes.on_jax(dtype, x64) if dtype else None

    def rejected_by_jax_jit(self, expr):
        """The name of the class whose instance ``expr`` holds (``instances.class_of``) when ``jax.jit``
        refuses it as an argument: a framework class measured so (a linen Module, ``eqx.nn.MLP``, whose
        activation is a function), a same-file class JAX cannot flatten (``untraceable_class``), or a
        registered dataclass built here with a string leaf (``constructors.string_data_field``)."""
        found = self.instances.class_of(expr, named=self._class_or_layer)
        if type(found) is ast.ClassDef:
            facts = self.module_facts(found)
            rejected = facts.get("rejected_by_jax_jit") if facts is not None else self.untraceable_class(found)
            built = self.instances.constructor(expr) if not rejected and found.decorator_list else None
            stored = partial(self.instances.attribute_stores, found)
            field = string_data_field(found, built, self.names.qualname, stored) if built is not None else None
            return found.name if rejected else f"{found.name} with a string in '{field}'" if field else None
        return found if found is not None and api.framework_layers()[found].get("rejected_by_jax_jit") else None

    def plain_class(self, cls):
        """A class without decorators, metaclass or bases other than object."""
        return not cls.decorator_list and not cls.keywords and all(
            self.names.qualname(base) == "builtins.object" for base in cls.bases)

    def untraceable_class(self, cls):
        """Whether JAX can flatten no instance of ``cls``: a plain class, not handed to a pytree
        registration call of the file (``jax.tree_util.register_pytree_node(C, ...)``), without
        ``__jax_array__``. A registration of what the file does not name (a helper's parameter, a loop
        variable: ``register_pytree_node(cls, ...)``) may be of any class: then of none."""
        if self._registered is None:
            self._registered = {self._registered_name(call.args[0]) for call in self.names.calls if call.args
                                and "register" in (self.names.qualname(call.func) or "").rpartition(".")[2]}
        return self.plain_class(cls) and None not in self._registered and cls.name not in self._registered \
            and method_in(cls, "__jax_array__") is None

    def _registered_name(self, registered):
        """The name a registration call's first argument gives, a Name bound only to a class, an import or
        an assignment (``C = pytree(C)``); None for anything else."""
        found = self.names.resolve_name(registered) if type(registered) is ast.Name else None
        kinds = (*DEFINITIONS, BindingKind.ASSIGN)
        return registered.id if found and all(binding.kind in kinds for binding in found[1]) else None

    def layer_field_on_device(self, expr):
        """Whether ``obj.field`` reads an array that the framework layer ``obj`` holds on the device when built
        eagerly (measured, ``built_on_device``: ``eqx.nn.Linear(...).weight``), ``obj`` a Name that holds one
        (``instances.class_of``: its construction, kept by ``eqx.apply_updates``)."""
        if type(expr.value) is not ast.Name or expr.attr not in _fields_built_on_device():
            return False
        found = self.instances.class_of(expr.value, named=self._class_or_layer)
        facts = api.framework_layers().get(found, {}) if type(found) is str else {}
        return expr.attr in facts.get("traced_fields", {}).get("built_on_device", ())

    def _class_or_layer(self, expr):
        """The same-file class, or the dotted name of the framework layer, that ``expr`` names."""
        layer = self.names.qualname(expr)
        return self.class_named(expr) or (layer if layer in api.framework_layers() else None)

    def static_fields(self, call):
        """(the (field, value expression) pairs that ``call`` gives a framework Module object, the
        transform that keeps such a field static when it holds a Python scalar: a new value traces
        again), measured (``python_fields_static``: ``eqx.filter_jit``). The call is the class's
        ``C(...)``, or ``eqx.tree_at(lambda m: m.field, obj, value)`` of an object of it (a
        replaced leaf is stored as given). None where not known: another framework, a same-file
        base, an own ``__init__`` or ``__post_init__`` (what it stores is its own), a field with
        options (a converter)."""
        if self.names.qualname(call.func) in FIELD_REPLACING:
            return self._replaced_field(call)
        cls = self.instances.class_of(call)
        facts = self.module_facts(cls) if cls is not None else None
        if facts is None or not facts.get("python_fields_static") or cls.keywords \
                or any(self.class_named(base) is not None for base in cls.bases):
            return None
        fields = [stmt for stmt in cls.body if type(stmt) is ast.AnnAssign and type(stmt.target) is ast.Name
                  and "ClassVar" not in ast.unparse(stmt.annotation)]
        if any(type(stmt) is ast.FunctionDef and stmt.name in ("__init__", "__post_init__") for stmt in cls.body) \
                or any(type(stmt.value) is ast.Call for stmt in fields):
            return None
        names = [stmt.target.id for stmt in fields]
        return list(zip(names, call.args)) + [(k.arg, k.value) for k in call.keywords if k.arg in names], facts["path"]

    def _replaced_field(self, call):
        """``static_fields`` of ``eqx.tree_at(lambda m: m.field, obj, value)``, ``obj`` an object of
        a framework Module class (the class's own fields, not a nested object's)."""
        where = call.args[0] if len(call.args) == 3 else None
        if type(where) is not ast.Lambda or len(where.args.args) != 1 or type(where.body) is not ast.Attribute \
                or type(where.body.value) is not ast.Name or where.body.value.id != where.args.args[0].arg:
            return None
        cls = self.instances.class_of(call.args[1])
        facts = self.module_facts(cls) if cls is not None else None
        if facts is None or not facts.get("python_fields_static"):
            return None
        return [(where.body.attr, call.args[2])], facts["path"]

    def called_only_here(self, cls):
        """Whether ``cls`` is a class of a def's body that the def only builds and calls
        (``m = C(); m(x)``, ``C()(x)``, ``m.encode(x)``), never hands on (to a transform, another
        call, a container, a return): its methods run as those calls run, eagerly unless a
        transform traces the def, which the reach follows. (Equinox's tests call such a Module
        eagerly and count its calls with ``nonlocal``.)"""
        if self.names.enclosing_function(cls) is None:
            return False
        built = []
        for node in self.names.reads(cls.name):
            if not self._binds(node, lambda binding: binding.node is cls):
                continue
            call = self.names.parent.get(node)
            if type(call) is not ast.Call or call.func is not node:
                return False
            holder = self.names.parent.get(call)
            if type(holder) is ast.Assign and len(holder.targets) == 1 and type(holder.targets[0]) is ast.Name:
                built.append(holder)
            elif not self._called(call):
                return False
        return all(self._called(node) for holder in built for node in self.names.reads(holder.targets[0].id)
                   if self._binds(node, lambda binding: binding.stmt is holder))

    def _binds(self, name, test):
        """Whether any binding the Name node ``name`` resolves to passes ``test``."""
        found = self.names.resolve_name(name)
        return found is not None and any(test(binding) for binding in found[1])

    def _called(self, node):
        """``node(...)`` or ``node.method(...)``."""
        parent = self.names.parent.get(node)
        if type(parent) is ast.Attribute and parent.value is node:
            node, parent = parent, self.names.parent.get(parent)
        return type(parent) is ast.Call and parent.func is node

    def construction_hook(self, cls):
        """The method that building ``cls`` from its fields (``C(lo, hi)``) runs on the built object,
        the fields as given: a plain dataclass's ``__post_init__`` (Python's rule), a framework
        Module's measured ``construction_methods`` (Equinox's ``__post_init__``, then
        ``__check_init__``); the first the class defines, or None (``dataclass_fields``)."""
        for name in CONSTRUCTION_HOOKS:
            hook = method_in(cls, name)
            if hook is not None and self.dataclass_fields(hook) is not None:
                return hook
        return None

    def dataclass_fields(self, hook):
        """The fields, in order, that building the class of ``hook`` takes, when ``hook`` runs on
        them as given: a plain ``@dataclasses.dataclass`` and its ``__post_init__``
        (``constructors.init_fields``), or a framework Module (no own ``__init__``, no decorator, no
        same-file base) whose construction runs ``hook`` (measured: ``construction_methods``);
        None otherwise."""
        cls = self.names.parent.get(hook) if hook is not None else None
        if not isinstance(cls, ast.ClassDef) or cls.keywords:
            return None
        if hook.name == "__post_init__" and not cls.bases:
            return init_fields(self.names, hook)
        facts = self.module_facts(cls)
        framework = facts is not None and hook.name in facts.get("construction_methods", ()) \
            and not cls.decorator_list and method_in(cls, "__init__") is None \
            and all(self.class_named(base) is None for base in cls.bases)
        return annotated_fields(self.names.qualname, cls) if framework else None

    def returns_result(self, func):
        """Whether calling the def or lambda ``func`` gives what its body returns: no decorator
        but a framework's method marker (``nn.compact``: measured, ``decorators``)."""
        markers = {d for facts in api.framework_module_bases().values() for d in facts["decorators"]}
        return all(self.names.qualname(d) in markers for d in getattr(func, "decorator_list", ()))

    def traced_methods(self, cls, facts):
        """[(method, its parameters that hold tracers)] for the methods of ``cls`` that its
        framework (``facts``) runs traced. Not linen's ``setup``, though measured traced: it
        takes no arguments, and what it computes is config (its prints show structure during
        an eager ``init``). Not ``self``'s fields: an object a step closes over holds constants
        (``module_self`` reads them where a transform is given the object)."""
        if facts is None:
            return []
        roles = set(facts["traced_methods"]) - {"setup"}
        found = []
        for method in cls.body:
            if type(method) is ast.FunctionDef and (method.name in roles or "compact" in roles and any(
                    self.names.qualname(d) in facts["decorators"] for d in method.decorator_list)):
                params = {arg.arg for arg in positional(method) + method.args.kwonlyargs
                          if arg.arg in traced_parameters(method) and not python_annotation(arg.annotation)}
                found.append((method, self._used_as_arrays(method, params)))
        return found

    def _used_as_arrays(self, method, params):
        """The ``params`` that ``method`` uses as arrays: an attribute or method (``x.sum()``),
        a ``@`` operand, an argument of a JAX function, of a submodule or of a layer
        (``nn.Dense(4)(x)``, ``self.block(x)``, ``layer(x)`` with ``layer = nn.Dense(4)``). A
        parameter only converted (``np.arange(qlen)``) may be a Python int its caller computes
        from shapes: the convention says nothing of it."""
        found = set()
        for node in self.names.own_nodes(method) if params else ():
            kind = type(node)
            if kind is ast.Attribute and type(node.value) is ast.Name:
                found.add(node.value.id)
            elif kind is ast.BinOp and type(node.op) is ast.MatMult:
                found.update(side.id for side in (node.left, node.right) if type(side) is ast.Name)
            elif kind is ast.Call and not params.isdisjoint([arg.id for arg in node.args if type(arg) is ast.Name]) \
                    and (type(node.func) is not ast.Name and (  # (the cheap test first: a parameter is passed)
                        type(node.func) is ast.Call or (self.names.qualname(node.func) or "").startswith("jax.")
                        or type(node.func) is ast.Attribute and type(node.func.value) is ast.Name
                        and node.func.value.id == "self") or self.runs_layer(node.func)):
                found.update(arg.id for arg in node.args if type(arg) is ast.Name)
        return params & found

    def module_self(self, method, given, staged, stored):
        """What ``self`` holds in a method of a framework Module: its Python fields (a linen
        Module's fields, any Module's ``int``, ``bool``, ``float`` or ``str`` fields) are static
        values; in a ``staged`` trace, what its measured state methods give (``traced_self_methods``:
        linen's ``self.param(...)`` a tracer, ``self.variable(...)`` a holder whose ``.value`` is one,
        the trace's variables); where the object was ``given`` to a transform whose framework traces its array
        fields (Equinox, NNX: measured; the reach puts ``self`` among the traced parameters),
        those annotated so (``w: jax.Array``) or set by ``__init__`` alone from a JAX call or a
        measured array holder (``nnx.Param(jnp.ones(3))``, read by ``.value`` or ``[...]``) are
        tracers. A field of such a framework that ``__init__`` stores an array of a known dtype keeps
        that dtype (``stored``, ``_stored_dtypes``), given or not (then traced or not: of unknown kind).
        Nothing is known of the others, nor of the ``self`` of any other class."""
        return self.module_instance(self.names.parent.get(method), given, staged, stored)

    def module_instance(self, cls, given, staged, stored):
        """What an instance of ``cls`` holds (``module_self``): ``self`` in its methods, or a traced
        parameter of the class (``layer: Block``, or a ``Block`` every call passes) given to a transform."""
        facts = self.module_facts(cls) if type(cls) is ast.ClassDef else None
        if facts is None:
            return UNKNOWN_VALUE
        fields = [stmt for stmt in cls.body if type(stmt) is ast.AnnAssign and type(stmt.target) is ast.Name]
        python = {stmt.target.id for stmt in fields if not self.array_annotation(stmt.annotation) and (
            not facts["array_fields_traced"] or python_annotation(stmt.annotation))}
        members = tuple((("attr", name), PYTHON_VALUE) for name in sorted(python))
        if staged:
            members += tuple((("call", name), _STATE_GIVES[gives])
                             for name, gives in sorted(facts["traced_self_methods"].items()))
        stored_dtypes = self._stored_dtypes(cls, stored) if facts["array_fields_traced"] else {}
        if not given or not facts["array_fields_traced"]:
            return Shaped(PYTHON, members=members + tuple((("attr", name), Value(UNKNOWN, dtype))
                                                          for name, dtype in sorted(stored_dtypes.items())))
        arrays = {stmt.target.id for stmt in fields if self.array_annotation(stmt.annotation) and stmt.value is None}
        layers = {stmt.target.id for stmt in fields if stmt.value is None and self._holds_layer(cls, stmt)}
        stores = [node for node in ast.walk(cls) if type(node) is ast.Attribute and type(node.ctx) is ast.Store
                  and type(node.value) is ast.Name and node.value.id == "self"]
        counts, init, holders = Counter(node.attr for node in stores), method_in(cls, "__init__"), set()
        built_layers = {}  # field -> the measured fields of the framework layer __init__ stores there
        for node in stores:
            stmt = self.names.parent.get(node)
            if not (counts[node.attr] == 1 and init is not None and type(stmt) is ast.Assign
                    and stmt.targets == [node] and self.names.enclosing_function(stmt) is init
                    and type(stmt.value) is ast.Call):
                continue
            qualname = self.names.qualname(stmt.value.func) or ""
            if array_function(qualname):
                arrays.add(node.attr)
            elif self._holds_array(stmt.value, facts):
                holders.add(node.attr)
            elif "traced_fields" in api.framework_layers().get(qualname, {}):
                built_layers[node.attr] = api.framework_layers()[qualname]["traced_fields"]
        arrays |= set(stored_dtypes)
        members += tuple((("attr", name), _traced_layer(built_layers[name])) for name in sorted(built_layers))
        members += tuple((("attr", name), TRACED_PARAMETER) for name in sorted(layers - arrays - set(built_layers)))
        members += tuple((("attr", name), TRACED_HOLDER) for name in sorted(holders - arrays))
        return Shaped(PYTHON, members=members + tuple((("attr", name), Value(TRACER, stored_dtypes.get(name)))
                                                      for name in sorted(arrays)))

    def _stored_dtypes(self, cls, stored):
        """{field: dtype} for the fields that the ``__init__`` building ``cls`` (its own, or its nearest
        same-file base's) stores once with ``self.<field> = ...``, where the module stores no other
        attribute of that name, as its forward pass (``stored(init, expr)``) gives an array of a known
        dtype (``self.pos = jnp.asarray(table)``): nothing else can change what the field holds. A field
        those classes declare with a value (``pos: jax.Array = eqx.field(converter=...)``) is left out."""
        init, seen = None, []
        while cls is not None and cls not in seen and init is None:
            seen.append(cls)
            init = method_in(cls, "__init__")
            cls = self.class_named(cls.bases[0]) if init is None and len(cls.bases) == 1 else None
        if init is None or not init.args.args:
            return {}
        declared = {target.id for each in seen for stmt in each.body if type(stmt) in (ast.Assign, ast.AnnAssign)
                    and stmt.value is not None
                    for target in (stmt.targets if type(stmt) is ast.Assign else [stmt.target])
                    if type(target) is ast.Name}
        found, owner, stores = {}, init.args.args[0].arg, self.instances.attribute_stores()
        for stmt in ast.walk(init):
            target = stmt.targets[0] if type(stmt) is ast.Assign and len(stmt.targets) == 1 else None
            if type(target) is ast.Attribute and type(target.value) is ast.Name and target.value.id == owner \
                    and stores[target.attr] == 1 and target.attr not in declared:
                value = stored(init, stmt.value)
                if value.kind in (JAX, TRACER) and value.dtype is not None:
                    found[target.attr] = value.dtype
        return found

    def _holds_array(self, call, facts):
        """Whether ``call`` builds, around an array (``jnp.zeros(3)``, as measured), what the framework
        reads back as an array of the trace: a class it measured so (``array_holders``: ``nnx.Param``,
        ``nnx.Variable``), or a same-file subclass of one (``class Count(nnx.Variable)``)."""
        if not call.args or type(call.args[0]) is not ast.Call \
                or not array_function(self.names.qualname(call.args[0].func) or ""):
            return False
        cls = self.instances.class_named(call.func)
        return any(self.names.qualname(named) in facts["array_holders"]
                   for named in (cls.bases if cls is not None else [call.func]))

    def _holds_layer(self, cls, field):
        """Whether the field ``field`` (an annotated statement of the Module class ``cls``) holds a
        framework layer whose construction draws its weights (``linear: eqx.nn.Linear``, or what
        ``__init__`` stores there; measured ``draws_from_key``): given to a transform, its weights are
        tracers, and calling it gives them. (A layer of no arrays, ``eqx.nn.Dropout``, gives concrete
        values of concrete ones outside a staging trace.)"""
        stored = self.instances.stored_value(cls, field.target.id)
        named = stored.func if type(stored) is ast.Call else field.annotation
        return bool(api.framework_layers().get(self.names.qualname(named), {}).get("draws_from_key"))

    def array_annotation(self, annotation):
        """Whether ``annotation`` names a JAX array type (jaxtyping's ``Float[Array, "n"]`` too)."""
        qualname = self.names.qualname
        if isinstance(annotation, ast.Subscript) and (qualname(annotation.value) or "").startswith("jaxtyping.") \
                and isinstance(annotation.slice, ast.Tuple) and annotation.slice.elts:
            annotation = annotation.slice.elts[0]  # Float[Array, "n"]: the array type comes first
        return annotation is not None and qualname(annotation) in ARRAY_ANNOTATIONS


def _traced_layer(fields):
    """A framework layer given to its framework's jit: its measured fields (``traced_fields``) are
    tracers (an Equinox ``weight``) or hold one (an NNX ``kernel``, ``BatchNorm``'s ``mean``)."""
    return Shaped(TRACER_TREE, members=tuple((("attr", name), TRACED_ARRAY) for name in fields["arrays"])
                  + tuple((("attr", name), TRACED_HOLDER) for name in fields["holders"]))


def python_annotation(annotation):
    """``train: bool``, ``n: int``, ``Optional[bool]``: a Python config value, static by convention."""
    if type(annotation) is ast.Subscript:
        annotation = annotation.slice
    if type(annotation) is ast.BinOp:  # bool | None
        return python_annotation(annotation.left)
    return type(annotation) is ast.Name and annotation.id in PYTHON_ANNOTATIONS


@lru_cache(maxsize=None)
def _fields_built_on_device():
    """The fields some framework layer built eagerly holds device arrays in (``layer_field_on_device``)."""
    return frozenset(field for facts in api.framework_layers().values()
                     for field in facts.get("traced_fields", {}).get("built_on_device", ()))
