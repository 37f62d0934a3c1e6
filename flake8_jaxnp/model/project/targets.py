"""What a module's text names and binds, as the project's records spell it: the project function
a call or a table lookup runs (its import binding and attribute path, and the markers a path may
carry), the names each statement binds, and the statements whose parts may not run.

The per-file model reads these of every module; ``flows``, which a module's summary alone
needs, builds its records of them (an editor's save whose summaries are kept never imports it).
"""
import ast
import builtins

from ... import api
from ..syntax import NESTED_SCOPES, PARTIAL, STAR, child_nodes, imported_qualname, lookup_key, split_attributes

# Methods of an array or pytree that give a Python value (or fail under a trace).
HOST_METHODS = frozenset({"item", "tolist", "tobytes", "__len__", "__bool__", "__index__", "__int__", "__float__"})
# Statements and expressions whose parts may not run on a given call.
CONDITIONAL_STATEMENTS = frozenset({ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith,
                                    ast.Match, ast.IfExp, ast.BoolOp, getattr(ast, "TryStar", ast.Try)})
NESTED_SCOPE_TYPES = frozenset(NESTED_SCOPES)  # (tested by type: the walks are hot)
BINDING_STATEMENTS = frozenset({ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ExceptHandler,
                                ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.MatchAs, ast.MatchStar,
                                ast.MatchMapping})
# The nodes ``count_bindings`` reads: a walk asks it of these alone.
BINDING_NODES = BINDING_STATEMENTS | {ast.Name, ast.arg}
# A call's attribute path ``[PARAMETER_METHOD, parameter, method]`` (binding None): the call runs a
# method of what a parameter holds (``model.loss(x)``), which the reach asks of the module's calls
# only when tracers reach it (``summaries.parameter_classes``); ``[..., "Model", INSTANCE_METHOD,
# "loss"]``: that method of an instance of the class, its first parameter bound. (No attribute can
# be spelled so: a class's ``Model.loss(x)`` stays a call of the function it names.)
PARAMETER_METHOD, INSTANCE_METHOD = "<parameter>", "<instance>"
# The key of ``around.enclosing``'s first answer naming the method's ``self`` for a def nested in that
# method (no parameter or ".attribute" is spelled so).
HOLDER = ""
# The end of ``around.enclosing``'s key ``".metric_fns[]"``: what each item of the dict of functions that
# ``__init__`` stores as ``self.metric_fns`` holds (``{name: METRICS[name] for name in names}``), which a
# lookup (``self.metric_fns[name](x)``) or a loop over its items (``for name, fn in ....items()``) calls.
ITEM = "[]"
# A keyword entry ``[OBJECT, [parameter], True]`` of a call of ``model(x)`` (``model`` a parameter
# holding an instance of an imported class): the object is what the parameter holds, so that
# the reach knows the ``self`` of ``__call__`` came in through the transform (no keyword is spelled so).
OBJECT = "<object>"
# A call's attribute path ``[PASSED_FUNCTION, parameter]`` (binding None): a nested def calls a
# parameter of the top-level def around it (``def make_step(forward): def step(p, x): return
# forward(p, x)``), which runs what the calls of that def pass it (``defaults.passed_values``).
PASSED_FUNCTION = "<passed>"
# A call's attribute path ``[..., "LOSSES", TABLE_ENTRY, key, bound]``: the call runs a function that
# the module-level dict display ``LOSSES`` holds (the summaries' ``tables``): the one its constant key
# names (``key``: the key's repr), or any of them (key None); ``bound``: the positions that a
# ``functools.partial`` around the lookup fills first (``partial(LOSSES[name], model)``).
TABLE_ENTRY = "<entry>"
# A call's attribute path ``[..., "make_loss", GIVEN_DEF]``: the call runs the def that a call of the project
# function ``make_loss`` returns (its summary's ``gives``), bound where the object or the factory keeps it
# (``self.loss_of = make_loss(fn)`` in ``__init__``: ``held_function``).
GIVEN_DEF = "<gives>"
# A call target ``[None, [EITHER, target, ...]]``: the call runs one of these call targets (what an
# attribute holds that ``__init__`` stores from a method of several returns: ``around.returned_functions``).
EITHER = "<either>"
# A derivation ``"key<returns>[binding, path, item]"`` in place of the parameter ``key``: the value is
# (item ``item`` of) what a call of an imported project function returns when given a value derived
# from ``key`` (``t, noise = timesteps_and_noise(key, x0)``); the reach counts it traced when that
# function's returns say a JAX array there (``Project.passes``): the text here cannot say.
RETURNED = "<returns>"
# Packages that are never the project's: calls into them pass nothing on to its functions.
_BUILTINS = frozenset(dir(builtins))
_LIBRARIES = frozenset({"jax", "jaxlib", "numpy", *(name.split(".")[0] for name in api.framework_transforms())})
# The last part of the path of a call ``model.apply(variables, x)``: it runs the ``__call__``
# of ``model``'s class after the variables when that class is a linen Module (no attribute is
# spelled so, so no function of the project is named by it).
LINEN_APPLY = "apply()"


def called_object(keywords):
    """(the parameter whose object the call runs, or None; the keyword entries without it)."""
    return next((given[0] for k, given, _ in keywords if k == OBJECT), None), [e for e in keywords if e[0] != OBJECT]


def binding_counts(node):
    """{name: how many times ``node`` binds it, nested scopes included (parameters, stores,
    imports, defs and the other ``BINDING_STATEMENTS``)}: a name bound once has one value. One
    loop over the nodes, which calls nothing for a name read (the reach counts whole factories)."""
    counts, stack = {}, [node]
    pop, extend = stack.pop, stack.extend
    while stack:
        inner = pop()
        kind = type(inner)
        if kind is ast.Name:  # (a leaf)
            if type(inner.ctx) is not ast.Load:
                count_bindings(inner, counts)
            continue
        if kind in BINDING_NODES:
            count_bindings(inner, counts)
        extend(child_nodes(inner))
    return counts


def count_bindings(node, counts):
    """Add the names ``node`` itself binds to ``counts`` (one step of ``binding_counts``, for a walk
    that reads more than bindings)."""
    kind = type(node)
    if kind is ast.Name and type(node.ctx) is not ast.Load:
        counts[node.id] = counts.get(node.id, 0) + 1
    elif kind is ast.arg:
        counts[node.arg] = counts.get(node.arg, 0) + 1
    elif kind in BINDING_STATEMENTS:
        for name in bound_by(node):
            counts[name] = counts.get(name, 0) + 1


def call_target(expr, imports, local_functions):
    """(import binding, attribute path) for a project name that ``expr`` names through a
    module-level import (or the module's one star import of a project module, whose module then
    says whether it defines the name), (None, [name]) for one of ``local_functions``, else None."""
    name, parts = split_attributes(expr)
    if name is None:
        return None
    if name.id in imports:
        binding = imports[name.id]
        return None if binding[0].split(".")[0] in _LIBRARIES and not binding[1] else (binding, parts)
    if name.id in local_functions and not parts:
        return None, [name.id]
    star = imports.get(STAR)
    if star is not None and name.id not in _BUILTINS and star[0].split(".")[0] not in _LIBRARIES:
        return star, [name.id, *parts]  # from .utils import *: a name bound nowhere here may be utils'
    return None


def looked_up(expr, imports, shadowing=()):
    """The call target (path ``[..., TABLE_ENTRY, key, bound]``) of the functions that ``LOSSES[key]``
    or ``functools.partial(LOSSES[key], ...)`` may run, ``LOSSES`` an imported project name or a name
    of the module that ``shadowing`` (the local names) leaves alone; else None."""
    bound = 0
    if type(expr) is ast.Call and expr.args and imported_qualname(expr.func, imports) in PARTIAL \
            and not any(type(a) is ast.Starred for a in expr.args):
        expr, bound = expr.args[0], len(expr.args) - 1
    name = split_attributes(expr.value)[0] if type(expr) is ast.Subscript else None
    if name is None or name.id in shadowing:
        return None
    target = call_target(expr.value, imports, {name.id})
    return table_entry(target, expr, bound) if target is not None else None


def held_function(value, imports, shadowing, local_functions):
    """The call target of the function that a name or attribute bound once to ``value`` holds: the
    entries of a lookup in a dict of functions (``LOSSES[name]``, ``looked_up``), or the def that a call
    of a project function returns (``make_loss(fn)``: path ``[..., "make_loss", GIVEN_DEF]``), or of each
    entry of such a lookup (``MAKERS[name](cfg)``: ``[..., "MAKERS", TABLE_ENTRY, key, 0, GIVEN_DEF]``); else None."""
    target = looked_up(value, imports, shadowing)
    if target is None and type(value) is ast.Call:  # (MAKERS[name](cfg): what each entry's factory makes)
        made = call_target(value.func, imports, local_functions) or looked_up(value.func, imports, shadowing)
        target = (made[0], [*made[1], GIVEN_DEF]) if made is not None else None
    return target


def table_entry(table, subscript, bound=0):
    """The call target of the entries that ``subscript`` (``LOSSES[key]``) may read of the dict that the
    call target ``table`` names, called with ``bound`` arguments given before (``functools.partial``)."""
    return table[0], [*table[1], TABLE_ENTRY, lookup_key(subscript), bound]


def bound_by(node):
    """The names that ``node``, of ``BINDING_STATEMENTS``, binds."""
    if isinstance(node, ast.ExceptHandler):
        return [node.name] if node.name else []
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return node.names
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.MatchAs, ast.MatchStar)):
        return [node.name] if node.name else []
    if isinstance(node, ast.MatchMapping):
        return [node.rest] if node.rest else []
    return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
