"""Which imported class the object a parameter holds is an instance of, as far as its module's
calls say (``instances.Instances``, with the classes of other modules): ``step(model, x)``
with ``model = Model(...)`` and ``Model`` imported, so that ``model(x)`` in a root runs
``Model.__call__`` in the class's module, and ``model.loss(x)`` runs ``Model.loss``. And
which parameters a transform that keeps Python scalars static (``equinox.filter_jit``)
traces: those known to hold arrays.
"""
import ast
from functools import partial

from ..instances import Instances
from ..kinds import ARRAY_ANNOTATIONS
from ..library import non_array_functions
from ..names import BindingKind, Names
from ..syntax import FUNCTION_NODES, argument_for, module_imports, parameters, positional_names, split_attributes, \
    transform_spec, walk_own
from .flows import ARRAY_MODULES, call_target

_NAMED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def parameter_classes(source, unit, transforms, indexes):
    """{parameter: (import binding, attribute path)} for the parameters of the def ``unit``
    (a qualified name, ``Trainer.step``) of a module whose methods it calls, where every
    call in the module passes them an instance of one imported class (``object_parameters``):
    what ``model.loss(x)`` runs. The reach asks it only when tracers reach such a call, so
    a module is parsed whole for it only then, and once for the units it asks in a row:
    ``indexes`` keeps the last module's tree, imports and Names by its bytes (None: it does
    not parse)."""
    if source not in indexes:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            tree = None
        indexes.clear()
        indexes[source] = (tree, module_imports(tree), Names(tree)) if tree is not None else None
    indexed = indexes[source]
    func = _unit_def(indexed[0], unit) if indexed is not None else None
    if func is None:
        return {}
    tree, imports, names = indexed
    return object_parameters(tree, imports, transforms, {unit: func}, _calls_a_parameter_method, names).get(unit, {})


def _unit_def(tree, unit):
    """The def a unit's qualified name names (``Trainer.step``, ``outer.inner``: each part
    defined once in the body of the one before), or None."""
    node = tree
    for part in unit.split("."):
        found = [n for n in walk_own(node.body, FUNCTION_NODES + (ast.ClassDef,))
                 if type(n) in _NAMED_SCOPES and n.name == part]
        if len(found) != 1:
            return None
        node = found[0]
    return node if type(node) is not ast.ClassDef else None


def object_parameters(tree, imports, transforms, units, calling=None, names=None):
    """{unit: {parameter: (import binding, attribute path)}} for the parameters of the units
    that ``calling`` says use them (by default: call them), when every call in the module
    passes them an instance of one imported class (``instances.Instances``: ``step(model, x)``
    with ``model = Model(...)``, ``Model`` imported), and for those of the defs nested in them
    that every call passes such a parameter (``nnx.value_and_grad(loss_fn)(model)``), where
    the unit binds that name nowhere else: the module's own model reaches a same-file class,
    this the others. ``names``: the module's Names, when already built."""
    calling = {unit: func for unit, func in units.items() if (calling or calls_a_parameter)(func)}
    if not calling:
        return {}
    names = names or Names(tree)
    instances = Instances(names, partial(transform_spec, qualname=names.qualname, transforms=transforms),
                          partial(_imported_class, names, imports))
    found = {}
    for unit, func in calling.items():
        classes, bound = {}, _bound_names(func)
        for inner in walk_own([func], ()):
            if type(inner) in FUNCTION_NODES:
                for arg in parameters(inner):
                    known = instances.parameter_class(inner, arg)
                    if known is not None and (inner is func or bound[arg.arg] == 1):
                        classes[arg.arg] = known
        if classes:
            found[unit] = classes
    return found


def _bound_names(func):
    """{name: how many times ``func`` and the defs nested in it bind it} (an import, a
    ``global`` or an ``except ... as`` counts twice: it binds what the text cannot place)."""
    counts = {}
    for node in walk_own([func], ()):
        kind = type(node)
        if kind is ast.arg:
            bound = [(node.arg, 1)]
        elif kind is ast.Name:
            bound = [(node.id, 1)] if type(node.ctx) is not ast.Load else []
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            bound = [(node.name, 1)]
        elif kind in (ast.Import, ast.ImportFrom):
            bound = [((alias.asname or alias.name).split(".")[0], 2) for alias in node.names]
        elif kind in (ast.Global, ast.Nonlocal):
            bound = [(name, 2) for name in node.names]
        elif kind in (ast.ExceptHandler, ast.MatchAs, ast.MatchStar) and getattr(node, "name", None):
            bound = [(node.name, 2)]
        else:
            continue
        for name, times in bound:
            counts[name] = counts.get(name, 0) + times
    return counts


def static_scalars_kept(tree, imports, transforms, scalars_static, roots, applied, units):
    """(roots, applied, units) where a transform that keeps Python scalars static
    (``equinox.filter_jit``) traces only the parameters known to hold arrays: annotated so
    (``x: jax.Array``), or given an array by every call in the module (``step(model,
    jnp.ones(3))``, ``x = jnp.ones(3); step(model, x)``). What it is applied to in another
    module, whose calls this module does not see, is left out."""
    applied = [entry for entry in applied if entry[3] not in scalars_static]
    if not any(transform in scalars_static for _, transform, _, _ in roots):
        return roots, applied, units
    names = Names(tree)
    instances = Instances(names, partial(transform_spec, qualname=names.qualname, transforms=transforms))
    kept = []
    for unit, transform, params, line in roots:
        if transform in scalars_static:
            params = sorted(_array_parameters(names, instances, units[unit], params))
        if params:
            kept.append([unit, transform, params, line])
    rooted = {unit for unit, _, _, _ in kept}
    return kept, applied, {unit: func for unit, func in units.items() if unit in rooted}


def _array_parameters(names, instances, func, params):
    """The ``params`` of ``func`` annotated as JAX arrays or given an array by every call of
    ``func`` in the module (none when it has no call, or is referenced otherwise)."""
    annotated = {arg.arg for arg in parameters(func)
                 if arg.annotation is not None and names.qualname(arg.annotation) in ARRAY_ANNOTATIONS} & set(params)
    rest = [param for param in params if param not in annotated]
    calls = instances.calls_of(func) if rest else None
    if not calls:
        return annotated
    positional = positional_names(func)
    return annotated | {param for param in rest if all(
        _gives_array(names, argument_for(call, positional, param)) for call in calls)}


def _gives_array(names, expr):
    """Whether ``expr`` is an array made by JAX (``jnp.ones(3)``), or a name bound once to one."""
    if type(expr) is ast.Name:
        found = names.resolve_name(expr)
        if not found or len(found[1]) != 1 or found[1][0].kind is not BindingKind.ASSIGN:
            return False
        expr = found[1][0].value
    if type(expr) is not ast.Call:
        return False
    name = names.qualname(expr.func) or ""
    return name.startswith(ARRAY_MODULES) and name.rsplit(".", 1)[1] not in non_array_functions()


def _calls_a_parameter_method(func):
    """Whether ``func``'s body (nested functions included) calls a method of one of its own
    parameters (``model.loss(x)``)."""
    own = {arg.arg for arg in parameters(func)}
    return any(type(node) is ast.Call and type(node.func) is ast.Attribute and type(node.func.value) is ast.Name
               and node.func.value.id in own for node in walk_own([func], ()))


def calls_a_parameter(func):
    """Whether ``func``'s body (nested functions included) calls one of its parameters or of
    the defs nested in it (``model(x)``, ``def loss_fn(model): return model(x)``). One walk."""
    own, called = set(), set()
    for node in walk_own([func], ()):
        kind = type(node)
        if kind is ast.Call:
            if type(node.func) is ast.Name:
                called.add(node.func.id)
        elif kind in FUNCTION_NODES:
            own.update(arg.arg for arg in parameters(node))
    return not own.isdisjoint(called)


def _imported_class(names, imports, expr):
    """(import binding, attribute path) for a module-level import that ``expr`` names
    (``Model``, ``layers.Model``) from outside JAX, NumPy and the frameworks, else None."""
    name = split_attributes(expr)[0]
    found = names.resolve_name(name) if name is not None else None
    if not found or found[0] is not names.module_scope or len(found[1]) != 1 \
            or found[1][0].kind is not BindingKind.IMPORT:
        return None
    target = call_target(expr, imports, ())
    return (tuple(target[0]), tuple(target[1])) if target is not None else None
