"""Which of a function's parameters each of its calls passes on, from its text alone.

The project's reach (``modules.Project.callers``) follows traces from module to
module through these records: a call passes a parameter's values on when an
argument is that parameter or is computed from it by array operations
(``y = jnp.dot(p, x); log_stats(y)``: ``y`` derives from ``p`` and ``x``), so when
the parameter is a tracer, so is the argument. Whatever the text cannot settle
derives from nothing (precision first): a name bound by anything but an
assignment of a derived value, a call of anything but an array function or a
derived value's method, a static attribute (``x.shape``), a conditional
expression.
"""
import ast

from ... import api
from ..library import non_array_functions
from ..syntax import NESTED_SCOPES, imported_qualname, parameters, split_attributes

# Modules whose functions give a tracer when any argument is one.
ARRAY_MODULES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.")
# Methods of an array or pytree that give a Python value (or fail under a trace).
HOST_METHODS = frozenset({"item", "tolist", "tobytes", "__len__", "__bool__", "__index__", "__int__", "__float__"})
# Statements and expressions whose parts may not run on a given call.
CONDITIONAL_STATEMENTS = frozenset({ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith,
                                    ast.Match, ast.IfExp, ast.BoolOp, getattr(ast, "TryStar", ast.Try)})
NESTED_SCOPE_TYPES = frozenset(NESTED_SCOPES)  # (tested by type: the walks are hot)
_OPAQUE = object()  # a binding whose value derives from nothing the text can name
# Packages that are never the project's: calls into them pass nothing on to its functions.
_LIBRARIES = frozenset({"jax", "jaxlib", "numpy", *(name.split(".")[0] for name in api.framework_transforms())})


def parameter_calls(func, imports, local_functions):
    """[[import binding or None, attribute path, [[position, parameters, bare]], [[keyword,
    parameters, bare]], line, always]] for each call in ``func`` (nested functions
    included, as a trace runs them) of an imported name or of a top-level function of
    the module (binding None, path [its name]) that passes on some of ``func``'s
    parameters: each argument with the parameters its value derives from, and whether
    it is one parameter as it was passed in (bare); always: whether the call runs on
    every call of ``func``. Calls into JAX, NumPy and the frameworks are left out:
    they are never the project's."""
    candidates = []
    for node in ast.walk(func):
        if type(node) is ast.Call and not any(type(a) is ast.Starred for a in node.args):
            target = _target(node.func, imports, local_functions)
            if target is not None:
                candidates.append((node, target))
    if not candidates:
        return []
    derived, unbound = _derivations(func, imports)
    always = _run_on_every_call(func)
    found = []
    for node, target in candidates:
        if split_attributes(node.func)[0].id in derived:  # a local or a parameter shadows the module's name
            continue
        arguments = [*enumerate(node.args), *((k.arg, k.value) for k in node.keywords if k.arg)]
        passed = [[where, sorted(params), type(value) is ast.Name and value.id in unbound]
                  for where, value, params in ((where, value, _derived_from(value, derived, imports))
                                               for where, value in arguments) if params]
        positions = [entry for entry in passed if type(entry[0]) is int]
        keywords = [entry for entry in passed if type(entry[0]) is str]
        if positions or keywords:
            found.append([target[0], target[1], positions, keywords, node.lineno, id(node) in always])
    return found


def _run_on_every_call(func):
    """The ids of the calls in ``func`` outside any conditional statement or expression and
    any nested scope: they run whenever ``func`` does."""
    found = set()
    stack = list(func.body)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in CONDITIONAL_STATEMENTS or kind in NESTED_SCOPE_TYPES:
            continue
        if kind is ast.Call:
            found.add(id(node))
        stack.extend(ast.iter_child_nodes(node))
    return found


def _target(expr, imports, local_functions):
    name, parts = split_attributes(expr)
    if name is None:
        return None
    if name.id in imports:
        binding = imports[name.id]
        return None if binding[0].split(".")[0] in _LIBRARIES and not binding[1] else (binding, parts)
    if name.id in local_functions and not parts:
        return None, [name.id]
    return None


def _derivations(func, imports):
    """({name bound in ``func``: the parameters its value derives from} (an empty set for a
    name bound to something the text cannot settle), the parameters never bound again)."""
    own = {arg.arg for arg in parameters(func)}
    bindings = {name: [] for name in own}
    assigned = set()
    for node in ast.walk(func):
        kind = type(node)
        if kind is ast.Assign and all(type(t) is ast.Name for t in node.targets):
            for target in node.targets:
                bindings.setdefault(target.id, []).append(node.value)
                assigned.add(id(target))
        elif kind in (ast.AugAssign, ast.AnnAssign) and type(node.target) is ast.Name and node.value is not None:
            value = node.value if kind is ast.AnnAssign else ast.BinOp(node.target, node.op, node.value)
            bindings.setdefault(node.target.id, []).append(value)
            assigned.add(id(node.target))
        elif kind is ast.Name and type(node.ctx) is not ast.Load and id(node) not in assigned:
            bindings.setdefault(node.id, []).append(_OPAQUE)
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) and node is not func:
            bindings.setdefault(node.name, []).append(_OPAQUE)
        elif kind is ast.arg and node.arg not in own:
            bindings.setdefault(node.arg, []).append(_OPAQUE)
        elif kind in (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ExceptHandler):
            for name in _bound_by(node):
                bindings.setdefault(name, []).append(_OPAQUE)
    derived = {name: ({name} if name in own else set()) for name in bindings}
    settled = {name for name, values in bindings.items() if _OPAQUE in values}
    for name in settled:
        derived[name] = set()
    changed = True
    while changed:  # grows monotonically: at most (names x parameters) rounds
        changed = False
        for name, values in bindings.items():
            if name in settled:
                continue
            found = set(derived[name])
            for value in values:
                found |= _derived_from(value, derived, imports)
            if found != derived[name]:
                derived[name], changed = found, True
    # A name with a binding derived from nothing may hold a Python value there: nothing.
    empty = {name for name, values in bindings.items() if name not in settled
             and any(not _derived_from(v, derived, imports) for v in values)}
    unbound = {name for name in own if not bindings[name]}
    return {name: set() if name in empty else found for name, found in derived.items()}, unbound


def _bound_by(node):
    if isinstance(node, ast.ExceptHandler):
        return [node.name] if node.name else []
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return node.names
    return [(alias.asname or alias.name).split(".")[0] for alias in node.names]


def _derived_from(expr, derived, imports):
    """The parameters whose tracers would make ``expr`` a tracer (see the module's docstring)."""
    kind = type(expr)
    if kind is ast.Name:
        return derived.get(expr.id, set())
    if kind is ast.BinOp:
        return _derived_from(expr.left, derived, imports) | _derived_from(expr.right, derived, imports)
    if kind is ast.UnaryOp and type(expr.op) is not ast.Not:
        return _derived_from(expr.operand, derived, imports)
    if kind is ast.Compare and not any(type(op) in (ast.Is, ast.IsNot, ast.In, ast.NotIn) for op in expr.ops):
        return set().union(*(_derived_from(e, derived, imports) for e in [expr.left, *expr.comparators]))
    if kind is ast.Subscript:
        return _derived_from(expr.value, derived, imports)
    if kind is ast.Attribute:
        static = expr.attr in api.static_attributes() and expr.attr != "at"  # x.at[i].set(v) is an array
        return set() if static else _derived_from(expr.value, derived, imports)
    if kind in (ast.Tuple, ast.List):
        return set().union(*(_derived_from(e, derived, imports) for e in expr.elts))
    if kind is ast.Call:
        arguments = [*expr.args, *(k.value for k in expr.keywords)]
        name = imported_qualname(expr.func, imports)
        if name is not None:
            array = name.startswith(ARRAY_MODULES) and name.rsplit(".", 1)[1] not in non_array_functions()
        else:  # a method of a derived value: x.sum(), x.at[i].set(v)
            array = type(expr.func) is ast.Attribute and expr.func.attr not in HOST_METHODS \
                and bool(_derived_from(expr.func.value, derived, imports))
        if not array or any(type(a) is ast.Starred for a in expr.args):
            return set()
        found = _derived_from(expr.func.value, derived, imports) if name is None else set()
        return found.union(*(_derived_from(a, derived, imports) for a in arguments))
    return set()
