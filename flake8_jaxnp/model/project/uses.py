"""What a module of the project does with project names, from one parse of it (``module_uses``, kept
per module while it stays, and on disk): the calls of project functions with what each argument names
(``calls_of``: a project function, a parameter handed on, a class's call, a name bound to a call's result
or to an item of its tuple), the stores in a loop to an imported module's attribute, and the names it
refers to otherwise. ``defaults`` asks them for the questions of other modules' calls."""
import ast
import re

from ..syntax import child_nodes, module_imports, parameters, split_attributes
from . import cache
from .cache import MEMORY
from .targets import BINDING_NODES, call_target, count_bindings, looked_up

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_MAYBE_TRACED = ast.Pass()  # (the "loop" around code in a decorated def or a lambda: a transform may trace it)
# An argument that is a parameter of the def around the call, or an instance of a project class built in place
# (``calls_of``).
PARAMETER, INSTANCE = "<parameter>", "<instance>"
# An argument computed from what a call of a project function gives and a number (``predict(p, x) - 0.5``).
COMPUTED = "<computed>"
# An argument that is a name of the def around the call bound once to a project function's call (``p`` of
# ``p = init(key)``).
BOUND = "<bound>"
# The numbers with which an operator raises TypeError on a list or tuple (``[a, b] * 2`` repeats it).
_REFUSED_BY_SEQUENCES = {op: (int, float) for op in (ast.Add, ast.Sub, ast.Div, ast.FloorDiv, ast.Pow, ast.MatMult)}
_REFUSED_BY_SEQUENCES[ast.Mult] = (float,)


def store_pattern(name):
    """What a line that stores to the attribute ``name`` looks like (``.name = ``): only such a
    store counts, not one in a tuple target or an augmented assignment."""
    return re.compile(rb"\.[ \t]*" + re.escape(name.encode("utf-8")) + rb"[ \t]*=(?!=)")


def calls_of(project, path, version, name):
    """[(import binding or None, attributes, positional arguments, keyword names, line, line of the
    loop around it or None, ((position or keyword, (binding, attributes)), ...) of the arguments
    that name a project function, or ``(PARAMETER, def, parameter)`` a parameter of the top-level
    def around the call that it never rebinds, or ``(INSTANCE, binding, attributes, positional
    arguments, keyword names)`` a project class's call (``Config()``: ``_given``), or ``(BOUND, binding,
    attributes)`` a name bound once to a project function's call (``_made_by_call``); the name of
    that def when the call hands on its ``**kwargs``, or None)] for the calls in a module of a
    project function called ``name`` (``make(...)``, ``util.make(...)``, ``build(...)`` after
    ``import make as build``, a top-level def of the module: ``targets.call_target``; calls with
    ``*args`` or other ``**kwargs`` are left out); ``name()``: of what it returns (``step(x)`` after
    ``step = make(cfg)`` in the same top-level def, ``_made_by_call``)."""
    return module_uses(project, path, version)[0].get(name, ())


def module_uses(project, path, version, needed=None):
    """({name: its calls (``calls_of``)}, {name: [(import binding, attributes, line)] for the
    stores in a loop to an attribute ``name`` of an imported name, ``util.name = ...``, in a module
    that has such a line (``store_pattern``)}, the names it refers to other than as the function of
    a call whose arguments ``calls_of`` reads (``_uses``), each between newlines, or None) for every
    name of a module (``_uses``), kept while its version (``module_words``) stays, and on disk beside
    the module's key (``cache.module_key``: the summaries' key; as JSON: tuples read back as lists),
    so a warm run re-asking a question does not parse it again; None, without parsing, when the
    module's bytes do not match ``needed`` (or cannot be read)."""
    kept = MEMORY.module_uses.get(path)
    if kept is None or kept[0] != version:
        try:
            text = path.read_bytes()
        except OSError:
            text = None
        if needed is not None and (text is None or not needed.search(text)):
            return None
        key = cache.module_key(path, version, project.salt, text)[0] if text is not None else None
        found = cache.read(project.cache_dir, f"{key}-(uses)") if key else None  # (no def has this name)
        if found is None:
            found = _uses(text)
            if key:
                cache.write(project.cache_dir, f"{key}-(uses)", found)
        kept = MEMORY.module_uses[path] = (version, *found)
    return kept[1:]


def _uses(text):
    """``module_uses`` of a module's bytes (None: unreadable), from one parse and one walk. A store
    outside a loop may run once, before anything is traced (``config.DEBUG = args.debug`` at startup),
    so only one that a loop repeats is known to change the value. Loops in a decorated def or a lambda
    count as none: a transform may trace them. Its references: the names it refers to other than as
    the function of a call whose arguments ``calls_of`` reads (passed on, kept, renamed by an import,
    called with ``*args``), as ``calls_of`` keys calls, by the name where it is defined (``f`` of ``g``
    after ``from mod import f as g``). A module that cannot be read or parsed has no calls or stores,
    and its references are unknown (None)."""
    try:
        tree = cache.parsed(text) if text is not None else None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    if tree is None:
        return [{}, {}, None]
    imports = module_imports(tree)
    local_functions = {stmt.name for stmt in tree.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))}
    calls, stores, stack, handing, made, counts, found = {}, {}, [(tree, None, None)], {}, {}, {}, []
    references, called, assigned = set(), set(), []  # (a call's function is walked after the call)
    while stack:  # (one walk: each top-level def's ``binding_counts`` is counted on the way)
        node, loop, outer = stack.pop()  # (outer: the top-level def around the node)
        kind = type(node)
        if kind in _SCOPES and loop is not _MAYBE_TRACED:
            loop = _MAYBE_TRACED if kind is ast.Lambda or node.decorator_list else None
        elif kind in _LOOPS and loop is not _MAYBE_TRACED:
            loop = node
        if outer is None and kind in (ast.FunctionDef, ast.AsyncFunctionDef) and node in tree.body:
            outer, made[node], counts[node] = node, {}, {}
        stack.extend([(child, loop, outer) for child in child_nodes(node)])
        if outer is not None and kind in BINDING_NODES:
            count_bindings(node, counts[outer])
        if kind is ast.Call and not any(type(a) is ast.Starred for a in node.args) and all(
                k.arg for k in node.keywords):
            called.add(node.func)
        elif kind is ast.Import or kind is ast.ImportFrom:
            references.update([alias.name for alias in node.names if alias.asname])
        elif kind is ast.Attribute and node not in called:
            references.add(node.attr)
        elif kind is ast.Name and node not in called:
            binding = imports.get(node.id)
            references.add(binding[2] or node.id if binding else node.id)
        if kind is ast.Assign and outer is not None:
            assigned.append((node, outer))
        elif kind is ast.Attribute and type(node.ctx) is ast.Store and loop is not None and loop is not _MAYBE_TRACED:
            root, attributes = split_attributes(node)
            binding = imports.get(root.id) if root is not None else None
            if binding is not None:
                stores.setdefault(node.attr, []).append((binding, attributes, node.lineno))
        elif kind is ast.Call and not any(type(a) is ast.Starred for a in node.args):
            found.append((node, loop, outer))  # (read once the walk knows every name a def binds to a call)
    for func, counted in counts.items():
        handing[func] = _handed_parameters(func, counted)
    for node, outer in assigned:
        _made_by_call(node, counts[outer], made[outer], imports, local_functions)
    for node, loop, outer in found:
        looped = loop is not None and loop is not _MAYBE_TRACED
        handed = handing.get(outer, ((), None))
        spread = [k.value for k in node.keywords if k.arg is None]
        forwarding = outer.name if spread and len(spread) == 1 and type(spread[0]) is ast.Name \
            and spread[0].id == handed[1] else None
        if spread and forwarding is None:
            continue
        target, returned = made.get(outer, {}).get(getattr(node.func, "id", None)), "()"
        if target is None or len(target) > 2:  # (a name bound to an item of a call's tuple: not known to run it)
            target, returned = call_target(node.func, imports, local_functions), ""
        if target is not None:
            arguments = [*enumerate(node.args), *((k.arg, k.value) for k in node.keywords if k.arg)]
            named = [(at, _given(value, imports, local_functions, outer, handed[0], made.get(outer, {}),
                                 counts.get(outer, ()))) for at, value in arguments]
            binding, attributes = target
            calls.setdefault(f"{attributes[-1] if attributes else binding[2]}{returned}", []).append(
                (binding, attributes, len(node.args), tuple(k.arg for k in node.keywords if k.arg), node.lineno,
                 loop.lineno if looped else None, tuple((at, given) for at, given in named if given), forwarding))
    return [{name: found for name, found in calls.items() if name is not None},  # (``import m; m()``: no name)
            {name: found for name, found in stores.items() if store_pattern(name).search(text)},
            "\n%s\n" % "\n".join(sorted(references))]


def _made_by_call(assign, counts, made, imports, local_functions):
    """Record in ``made`` {name: (import binding or None, attributes)} the project function whose call
    ``assign`` binds a name of its top-level def to, once (``step = make_step(cfg)``; ``counts``: the
    def's ``binding_counts``): a call of that name runs what that function returns. A name unpacking
    binds once to an item of the call's tuple gets (binding, attributes, position) (``net, params =
    setup(cfg)``: the object at position 0 of what ``setup`` returns)."""
    target = call_target(assign.value.func, imports, local_functions) \
        if len(assign.targets) == 1 and type(assign.value) is ast.Call else None
    names = [] if target is None else [(assign.targets[0], None)] if type(assign.targets[0]) is ast.Name else [
        (element, i) for i, element in enumerate(assign.targets[0].elts) if type(element) is ast.Name] if type(
        assign.targets[0]) is ast.Tuple and not any(type(e) is ast.Starred for e in assign.targets[0].elts) else []
    for name, position in names:
        if counts.get(name.id) == 1:
            made[name.id] = target if position is None else (*target, position)


def _handed_parameters(func, counts):
    """(the parameters of ``func`` that it never rebinds (``counts``: its ``binding_counts``), its
    ``**kwargs`` if so, else None): what a call in it hands on as its callers gave it."""
    kept = {arg.arg for arg in parameters(func) if counts.get(arg.arg) == 1}
    return kept, func.args.kwarg.arg if func.args.kwarg is not None and func.args.kwarg.arg in kept else None


def _given(value, imports, local_functions, outer, handed, made=None, shadowing=()):
    """What ``calls_of`` records of an argument (see there), or None. ``made``: ``_made_by_call``'s;
    ``shadowing``: the names the def around the call binds, which a lookup in a dict of functions
    (``KERNELS[name]``, ``targets.looked_up``) cannot be of."""
    if type(value) is ast.Name and value.id in handed:
        return PARAMETER, outer.name, value.id
    if type(value) is ast.Name and made and value.id in made:
        return (BOUND, *made[value.id])
    numbers = [type(side) is ast.Constant and type(side.value) in _REFUSED_BY_SEQUENCES.get(type(value.op), ())
               for side in (value.left, value.right)] if type(value) is ast.BinOp else ()
    if any(numbers):
        result = _given(value.right if numbers[0] else value.left, imports, local_functions, outer, ())
        return (COMPUTED, *result[1:3]) if result and result[0] == INSTANCE else None
    lookup = looked_up(value, imports, shadowing)
    if lookup is not None:
        return lookup
    if type(value) is not ast.Call:
        return call_target(value, imports, local_functions)
    target = call_target(value.func, imports, local_functions) or looked_up(value.func, imports, shadowing) if not any(
        type(a) is ast.Starred for a in value.args) and all(k.arg for k in value.keywords) else None
    return (INSTANCE, *target, len(value.args), tuple(k.arg for k in value.keywords)) if target else None
