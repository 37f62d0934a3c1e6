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
from ..library import array_function
from ..names import BindingKind, Names
from ..syntax import FUNCTION_NODES, child_nodes, module_imports, parameters, split_attributes, transform_spec, walk_own
from .cache import parsed
from .targets import INSTANCE_METHOD, binding_counts, call_target

_NAMED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def parameter_classes(source, unit, transforms, indexes):
    """{parameter: (import binding, attribute path)} for the parameters of the def ``unit``
    (a qualified name, ``Trainer.step``) of a module whose methods it calls, where every
    call in the module passes them an instance of one imported class (``object_parameters``):
    what ``model.loss(x)`` runs, and what a parameter it passes on holds (``loss(model,
    x)``). The reach asks it only when tracers reach such a call, so a module is parsed
    whole for it only then, and once for the units it asks in a row: ``indexes`` keeps the
    last module's tree, imports and Names by its bytes (None: it does not parse)."""
    if source not in indexes:
        try:
            tree = parsed(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            tree = None
        indexes.clear()
        indexes[source] = (tree, module_imports(tree), Names(tree)) if tree is not None else None
    indexed = indexes[source]
    func = unit_def(indexed[0], unit) if indexed is not None else None
    if func is None:
        return {}
    tree, imports, names = indexed
    return object_parameters(tree, imports, transforms, {unit: func}, every_unit=True, names=names).get(unit, {})


def unit_def(tree, unit):
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


def object_parameters(tree, imports, transforms, units, every_unit=False, names=None):
    """{unit: {parameter: (import binding, attribute path)}} for the parameters of the units
    that call them (``every_unit``: of every unit), when every call in the module
    passes them an instance of one imported class (``instances.Instances``: ``step(model, x)``
    with ``model = Model(...)``, ``Model`` imported), and for those of the defs nested in them
    that every call passes such a parameter (``nnx.value_and_grad(loss_fn)(model)``), where
    the unit binds that name nowhere else: the module's own model reaches a same-file class,
    this the others. ``names``: the module's Names, when already built."""
    calling = {unit: func for unit, func in units.items() if every_unit or calls_a_parameter(func)}
    if not calling:
        return {}
    names = names or Names(tree)
    instances = Instances(names, partial(transform_spec, qualname=names.qualname, transforms=transforms),
                          partial(_imported_class, names, imports))
    found = {}
    for unit, func in calling.items():
        classes, bound = {}, binding_counts(func)
        for inner in walk_own([func], ()):
            if type(inner) in FUNCTION_NODES:
                for arg in parameters(inner):
                    known = instances.parameter_class(inner, arg)
                    if known is not None and (inner is func or bound[arg.arg] == 1):
                        classes[arg.arg] = known
        if classes:
            found[unit] = classes
    return found


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
    return annotated | {param for param in params if param not in annotated and instances.passed_to(
        func, param, lambda argument: [True] if _gives_array(names, argument) else None)}


def _gives_array(names, expr):
    """Whether ``expr`` is an array made by JAX (``jnp.ones(3)``), or a name bound once to one."""
    if type(expr) is ast.Name:
        expr = names.assigned_value(expr)
    if type(expr) is not ast.Call:
        return False
    return array_function(names.qualname(expr.func) or "")


def calls_a_parameter(func):
    """Whether ``func``'s body (nested functions included) calls one of its parameters or of
    the defs nested in it (``model(x)``, ``def loss_fn(model): return model(x)``), also
    through a call that is given it alone (``jax.vmap(model)(xs)``). One loop over the nodes, with
    no generator between it and the walk (the reach asks it of every root unit, the whole factory's
    body nested in it)."""
    own, called, stack = set(), set(), [func]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        kind = type(node)
        if kind is ast.Call:
            called.add(_called_name(node.func))
        elif kind in FUNCTION_NODES:
            own.update(arg.arg for arg in parameters(node))
        extend(child_nodes(node))
    return not own.isdisjoint(called)


def _called_name(func):
    """``model`` for ``model(...)`` and ``vmap(model)(...)``; None for anything else."""
    if type(func) is ast.Call and len(func.args) == 1:
        func = func.args[0]
    return func.id if type(func) is ast.Name else None


def _imported_class(names, imports, expr):
    """(import binding, attribute path) for a module-level import that ``expr`` names
    (``Model``, ``layers.Model``) from outside JAX, NumPy and the frameworks, else None."""
    name = split_attributes(expr)[0]
    if names.one_binding(name, BindingKind.IMPORT, module_level=True) is None:
        return None
    target = call_target(expr, imports, ())
    return (tuple(target[0]), tuple(target[1])) if target is not None else None


class PassedObjects:
    """What the project's reach learns of the objects its calls pass on as they came in
    (``losses.loss(model, x)`` in a root): the class a helper's parameter holds, so that
    ``model(x)`` there runs its ``__call__``, and whether that object is what a transform
    that keeps Python scalars static was given, whose array fields it traces."""

    def __init__(self, module_classes, named, scalars_static, starts):
        self._module_classes = module_classes  # (module path, unit) -> parameter_classes of it
        self._named = named  # (module path, import binding, attributes) -> (module path, name) or None
        self._scalars_static = scalars_static
        self._starts = starts  # (module path, unit, transform) reached -> None for a root
        self._classes = {}  # (module path, unit) -> module_classes of it
        self._passers = {}  # (module path, unit) -> {parameter: {(path, unit, parameter) passing it as it came}}

    def record(self, caller, target, params, positions, keywords):
        """Record the parameters that a call from ``caller`` (path, unit, transform) passes on
        as they came to the parameters ``params`` of ``target`` (path, unit)."""
        path, name, _ = caller
        for where, given, bare in positions + keywords:
            param = params[where] if type(where) is int and where < len(params) else where
            if bare and param in params:
                self._passers.setdefault(target, {}).setdefault(param, set()).add((path, name, given[0]))

    def method_run(self, path, unit, param, method):
        """(module path, import binding, attribute path there ``[..., "Model", INSTANCE_METHOD,
        method]``) for ``param.method(...)`` (``model(x)``: ``__call__``) in the unit, or None."""
        held = self._held_class(path, unit, param, method != "__call__")
        return (held[0], held[1], [*held[2], INSTANCE_METHOD, method]) if held is not None else None

    def traced_self(self, caller, param, bound):
        """``bound`` (the ``self`` of the method a call runs, as a set) when the parameter
        ``param`` of ``caller`` whose method it is holds what ``passed_in`` says; else none."""
        return set(bound) if param is not None and self.passed_in(caller, param) else set()

    def _held_class(self, path, unit, param, ask_module=True, seen=frozenset()):
        """(module path, import binding, attribute path there) of the class whose object the
        parameter holds: as the calls of its unit's module say (asked for a method's call,
        ``model.loss(x)``: a root's ``model(x)`` is in its flows already), else as every call
        the reach followed that passes it on as it came, when they agree."""
        if ask_module:
            if (path, unit) not in self._classes:
                self._classes[(path, unit)] = self._module_classes(path, unit)
            held = self._classes[(path, unit)].get(param)
            if held is not None:
                return path, held[0], held[1]
        found = {}
        for site in sorted(self._passers.get((path, unit), {}).get(param, ())):
            held = self._held_class(*site, seen=seen | {site}) if site not in seen else None
            named = self._named(*held) if held is not None else None
            if named is None:
                return None
            found[named] = held
        return found.popitem()[1] if len(found) == 1 else None

    def passed_in(self, caller, param, seen=frozenset()):
        """Whether the parameter ``param`` of ``caller`` holds an object given to a transform
        that keeps Python scalars static (``eqx.filter_jit``), whose array leaves it traces:
        a parameter of such a root, or one that every call the reach followed passes one."""
        path, name, transform = caller
        if transform not in self._scalars_static:
            return False
        if self._starts.get(caller, False) is None:
            return True
        sites = self._passers.get((path, name), {}).get(param)
        return bool(sites) and not sites & seen \
            and all(self.passed_in((site[0], site[1], transform), site[2], seen | sites) for site in sites)
