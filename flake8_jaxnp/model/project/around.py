"""What the def or class around a nested def or a method gives it, from the module's text alone.

A factory's parameters hold what every call of the factory passes (``def make_step(forward):
def step(p, x): return forward(p, x)``); an attribute that a class's ``__init__`` stores once
holds what it stored there, a parameter (``self.loss = loss``) or a lookup in a dict of
functions (``self.loss_fn = LOSSES[name]``), or the def a factory's call returns (``self.loss_of =
make_loss(fn)``; ``targets.held_function``), also as each item of a dict (``{n: METRICS[n] for n in names}``).
"""
import ast

from ...patterns import Pattern
from ..syntax import method_in, parameters, positional_names
from .stores import ClassStores, top_level_classes
from .targets import EITHER, HOLDER, INSTANCE_METHOD, ITEM, binding_counts, held_function
from .units import own_body

_DEFS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef})
_OUTER_DEFS = _DEFS | {ast.ClassDef}  # (a factory or a class)
_STORES = "."  # (where ``enclosing``'s answers keep the module's ``attribute_stores``: no def has this name)


def enclosing(tree, unit, kept, imports):
    """({name or ".attribute": parameter} for the parameters of the top-level def around the nested
    def ``unit`` (``make_step.step``) that nothing in it rebinds ({name: call target} for its locals bound
    once to a function value: ``_local_functions``), and for the attributes that the
    ``__init__`` of the class of the method ``unit`` (``Trainer._train_step``) stores one of its
    parameters in, at its top level and nowhere else in the module (``self.loss = loss``; for a
    function value, ``self.loss_fn = LOSSES[name]``, its call target: ``stored_functions``), {name:
    unit} of the defs bound once directly in the def's body (``make_step.loss_fn``)): what the
    parameters hold is what every call of that def or class passes, and a call of such a def from
    a nested one runs it. ``kept``: {outer def's name: its answer} for one tree, as the defs nested
    in one factory share it (each answer walks the factory). A def nested in an undecorated method
    (``Model.forces.total``) gets the class's answers, the method's ``self`` (never rebound there)
    under ``HOLDER``: ``self.energy(x)`` in it runs the method as the method's own call would."""
    outer_name, _, inner = unit.partition(".")
    if "." in inner:
        return _in_method(tree, unit, kept, imports)
    if not inner:
        return {}, {}
    if outer_name not in kept:
        kept[outer_name] = _enclosing(tree, outer_name, imports, kept)
    return kept[outer_name]


def _in_method(tree, unit, kept, imports):
    outer_name, method_name, inner = unit.split(".", 2)
    cls = next((stmt for stmt in reversed(tree.body) if type(stmt) in _OUTER_DEFS and stmt.name == outer_name), None)
    methods = [stmt for stmt in cls.body if type(stmt) in _DEFS and stmt.name == method_name] \
        if type(cls) is ast.ClassDef else []
    if "." in inner or len(methods) != 1 or methods[0].decorator_list or not positional_names(methods[0]):
        return {}, {}
    holder = positional_names(methods[0])[0]
    if binding_counts(methods[0]).get(holder) != 1:
        return {}, {}
    if outer_name not in kept:
        kept[outer_name] = _enclosing(tree, outer_name, imports, kept)
    return {**kept[outer_name][0], HOLDER: holder}, {}


def _enclosing(tree, outer_name, imports, kept):
    outer = next((stmt for stmt in reversed(tree.body) if type(stmt) in _OUTER_DEFS and stmt.name == outer_name),
                 None)
    if outer is None:
        return {}, {}
    if type(outer) is ast.ClassDef:
        return _stored(tree, outer, imports, kept), {}
    counts = binding_counts(outer)  # (one walk: the factory may be long)
    defined = [stmt.name for stmt in outer.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))]
    siblings = {name: f"{outer_name}.{name}" for name in defined if counts[name] == 1}
    given = {arg.arg: arg.arg for arg in parameters(outer) if counts[arg.arg] == 1}
    return {**_local_functions(outer, imports, counts, _module_functions(tree)), **given}, siblings


def _module_functions(tree):
    return {stmt.name for stmt in tree.body if type(stmt) in _DEFS}


def _local_functions(outer, imports, counts, functions):
    """{name: call target} for the names the top-level def ``outer`` binds once, at its top level, to a
    function value (``loss_fn = LOSSES[cfg.loss]``, ``loss_of = make_loss(fn)``, also an item of a tuple
    assigned item by item, ``render, loss_fn = RENDERERS[name], LOSSES[cfg.loss]``; ``targets.held_function``,
    ``functions``: the module's top-level defs): what a nested def's call of the name may run."""
    found = {}
    for stmt in outer.body:
        if type(stmt) is not ast.Assign or len(stmt.targets) != 1:
            continue
        target, value = stmt.targets[0], stmt.value
        pairs = zip(target.elts, value.elts) if type(target) is ast.Tuple and type(value) is ast.Tuple \
            and len(target.elts) == len(value.elts) else [(target, value)]
        for name, item in pairs:
            looked = held_function(item, imports, counts, functions) \
                if type(name) is ast.Name and counts[name.id] == 1 else None
            if looked is not None:
                found[name.id] = [looked[0], looked[1]]
    return found


def _stored(tree, cls, imports, kept):
    """{".attribute": parameter} of ``stored_parameters``, {".attribute": call target} of
    ``stored_functions``, and {".method": call target} of the class's undecorated methods defined
    once (``self.loss(x)`` runs ``[cls, INSTANCE_METHOD, "loss"]``), for the ClassDef ``cls``, the
    attribute stored nowhere else in the module (a method's name: nowhere; ``kept`` keeps the
    module's ``ClassStores``: a store on another class's own ``self`` aside)."""
    init = next((stmt for stmt in cls.body if type(stmt) is ast.FunctionDef and stmt.name == "__init__"), None)
    found = {**stored_functions(init, imports, _module_functions(tree), cls), **stored_parameters(init)} \
        if init is not None else {}
    defs = [stmt.name for stmt in cls.body if type(stmt) in _DEFS]
    methods = {stmt.name: [None, [cls.name, INSTANCE_METHOD, stmt.name]] for stmt in cls.body
               if type(stmt) is ast.FunctionDef and not stmt.decorator_list and defs.count(stmt.name) == 1}
    if (found or methods) and _STORES not in kept:
        kept[_STORES] = ClassStores(tree, top_level_classes(tree))  # (a walk of the module: once, when asked)
    stores = kept[_STORES].stores(cls.name) if _STORES in kept else {}
    return {**{f".{name}": held for name, held in methods.items() if not stores.get(name)},
            **{f".{attribute}": held for attribute, held in found.items()
               if stores.get(attribute.removesuffix(ITEM)) == 1}}


def stored_functions(init, imports, functions, cls):
    """{attribute: call target} for ``self.attribute = LOSSES[name]`` (also in a ``functools.partial``;
    ``LOSSES`` bound nowhere in it) or ``self.attribute = make_loss(fn)`` at the top level of the def
    ``init`` (an ``__init__``): the functions the object may hold there (``targets.held_function``;
    ``functions``: the module's top-level defs), or what the class ``cls``'s own method returns for
    ``self.attribute = self.make_step(cfg)`` (``returned_functions``); {attribute + ITEM: call target}
    for a dict of such values (``self.metric_fns = {name: METRICS[name] for name in names}``): what its items hold."""
    names, counts = positional_names(init), binding_counts(init)
    found = {}
    for stmt in init.body if names else ():
        if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Attribute \
                and type(stmt.targets[0].value) is ast.Name and stmt.targets[0].value.id == names[0]:
            value, attribute = stmt.value, stmt.targets[0].attr
            if type(value) is ast.DictComp:
                value, attribute = value.value, attribute + ITEM
            func = value.func if type(value) is ast.Call else None
            own = type(func) is ast.Attribute and type(func.value) is ast.Name and func.value.id == names[0]
            target = returned_functions(method_in(cls, func.attr), imports, functions) if own \
                else held_function(value, imports, counts, functions)
            if target is not None:
                found[attribute] = [target[0], target[1]]
    return found


def returned_functions(method, imports, functions):
    """The call target of the functions that each return of the undecorated ``method`` gives
    (``targets.held_function``: ``return MAKERS[cfg.name](self.force_fn, cfg)``), as ``EITHER``'s
    path when the returns give more than one; None when one gives none the text can name."""
    body = own_body(method) if method is not None and not method.decorator_list else None
    counts = binding_counts(method) if body else None
    held = [held_function(value, imports, counts, functions) for value in body[0]] if body else []
    if not held or None in held:  # (a bare return gives None: held_function reads no call there)
        return None
    return held[0] if len(held) == 1 else (None, [EITHER, *([binding, path] for binding, path in held)])


def stored_parameters(init, stores=None):
    """{attribute: parameter} for ``self.attribute = parameter`` at the top level of the def ``init``
    (an ``__init__``), the parameter never rebound there and the attribute stored nowhere else in the
    module (``stores``: ``attribute_stores``; None: not asked): what the object holds there is what its
    calls gave."""
    names, counts = positional_names(init), binding_counts(init)
    return {stmt.targets[0].attr: stmt.value.id for stmt in init.body
            if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Attribute
            and type(stmt.targets[0].value) is ast.Name and stmt.targets[0].value.id == names[0]
            and type(stmt.value) is ast.Name and stmt.value.id in names[1:] and counts.get(stmt.value.id) == 1
            and (stores is None or stores.get(stmt.targets[0].attr) == 1)} if names else {}


class _Noted(dict):
    """``enclosing``'s first answer, adding to ``held`` each class attribute (``.loss_fn``) a flow finds in it."""

    def __init__(self, answers, held):
        super().__init__(answers)
        self.held = held

    def __contains__(self, key):
        found = super().__contains__(key)
        if found and key[:1] == ".":
            self.held.add(key[1:].removesuffix(ITEM))
        return found


def noted(answers, held):
    """``enclosing``'s ``answers`` for the roots' part of a module: the class attributes its flows
    read are added to ``held``, for ``named_outside`` to check against the whole module."""
    return _Noted(answers[0], held), answers[1]


_ATTRIBUTE = Pattern(rb"\.\s*([A-Za-z_]\w*)")


def named_outside(attributes, source, cut):
    """Whether the module's ``source`` names one of these attributes (``.loss_fn``) where its ``cut``
    does not: a store there (``learner.loss_fn = g`` in a def left out) would change what the
    class's attribute holds, which the cut alone cannot see."""
    whole, kept = _ATTRIBUTE.findall(source), _ATTRIBUTE.findall(cut)
    return any(whole.count(name.encode()) != kept.count(name.encode()) for name in attributes)
