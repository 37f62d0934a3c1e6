"""What other modules may read of a module's top-level constants, from its text alone."""
import ast
import re
from functools import lru_cache

from ...patterns import Followed, Pattern
from .. import dtypes
from ..library import GENERATOR_CONSTRUCTORS, NUMPY_ARRAY_MODULES, non_array_functions
from ..syntax import imported_qualname, module_imports, table_entries, walk_own
from .cache import parsed
from .defaults import GLOBAL_NEEDS
from .targets import binding_counts, call_target

# What a module with a NumPy constant must contain: the import that names NumPy's modules.
NUMPY_WORD = Pattern(rb"numpy")


@lru_cache(maxsize=1024)
def constant_needs(name):
    """The bytes patterns a module must match for its global ``name`` to be one of its
    ``numpy_constants``: a statement starting ``name =`` at the top level (at a line's start or after
    a ``;``), and ``numpy`` (the import its NumPy call is named through); none asked of a name that
    is not ASCII (the module's encoding may spell it otherwise)."""
    if not name.isascii():
        return None
    assigned = rb"%b[ \t\f\\\r\n]*=(?!=)" % re.escape(name.encode())
    return Followed(name.encode(), _ASSIGNMENT), Pattern(rb"(?:[\r\n;]|\xef\xbb\xbf)[ \t\f]*" + assigned), \
        NUMPY_WORD


# What follows a name that a statement assigns (``constant_needs``' first test, one pattern for every name).
_ASSIGNMENT = Pattern(rb"[ \t\f\\\r\n]*=(?!=)")


def numpy_summary(source):
    """What ``summarise`` says of the module's NumPy constants (``numpy``) alone: a parse and the
    top-level statements, without the flows, roots, records and classes that cost most of a summary."""
    try:
        tree = parsed(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {"numpy": []}
    return {"numpy": numpy_constants(tree, module_imports(tree))}


def numpy_constants(tree, imports):
    """The module constants bound once, at the top level, to a NumPy array made from literals
    (``MASK = np.ones(3)``, ``W = np.linspace(0, 1, 3).astype(np.float32)``): host data that
    another module passing it to a jitted function uploads on every call."""
    found = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and isinstance(stmt.value, ast.Call) and _makes_numpy_array(stmt.value, imports):
            found[stmt.targets[0].id] = True
    return sorted(bound_once(tree, found))


def _makes_numpy_array(call, imports):
    """Whether ``call`` makes a NumPy array (a function of NumPy's array modules that gives
    one, as the model reads it: ``library.call``) from literals and dtypes alone, or casts such
    an array (``np.linspace(0.5, 1.5, 4).astype(np.float32)``)."""
    if type(call.func) is ast.Attribute and call.func.attr == "astype":
        return type(call.func.value) is ast.Call and _makes_numpy_array(call.func.value, imports) \
            and _literal_arguments(call, imports)
    qualname = imported_qualname(call.func, imports) or ""
    module, _, name = qualname.rpartition(".")
    if module not in NUMPY_ARRAY_MODULES or name in non_array_functions() or qualname in GENERATOR_CONSTRUCTORS:
        return False
    return _literal_arguments(call, imports)


def _literal_arguments(call, imports):
    return all(_literal(value, imports) for value in [*call.args, *(k.value for k in call.keywords if k.arg)]) \
        and all(k.arg for k in call.keywords)


def _literal(expr, imports):
    """A number, string, tuple or list of them, or a dtype (``np.float32``)."""
    if isinstance(expr, ast.UnaryOp):
        expr = expr.operand
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, (ast.Tuple, ast.List)):
        return all(_literal(e, imports) for e in expr.elts)
    return dtypes.dtype_of_qualname(imported_qualname(expr, imports))[0] is not None


def rebound_globals(tree, source):
    """{global: line} for the module globals bound at the top level that a function of the module
    rebinds through ``global`` (``global LR_SCALE; LR_SCALE = LR_SCALE * 0.5``, the line of its
    first such store): another module's traced code that reads ``callbacks.LR_SCALE`` keeps the
    value it saw when traced. A module whose ``source`` (bytes) has no such statement is not walked."""
    if not all(pattern.search(source) for pattern in GLOBAL_NEEDS):
        return {}
    top = {node.id for stmt in tree.body if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign))
           for node in ast.walk(stmt) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    found = {}
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        declared = {name for node in walk_own(func.body) if isinstance(node, ast.Global) for name in node.names}
        for node in walk_own(func.body) if declared & top else ():
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id in declared & top:
                found[node.id] = min(found.get(node.id, node.lineno), node.lineno)
    return found


def bound_once(tree, found):
    """``found`` ({name: ...}) without the names bound more than once anywhere in the module."""
    counts = binding_counts(tree) if found else {}
    return {name: value for name, value in found.items() if counts.get(name) == 1}


def function_tables(tree, imports, local_functions):
    """{name: [[key (``table_entries``), import binding or None, attribute path]]} for the dict
    displays that the module binds once to a name, each value a top-level def of the module or an
    imported project name (``LOSSES = {"l2": l2, "huber": huber}``): a lookup in it runs one of them,
    wherever the lookup is (``flows.looked_up``)."""
    found = {}
    for stmt in tree.body:
        if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Name \
                and type(stmt.value) is ast.Dict:
            named = [(key, call_target(value, imports, local_functions)) for key, value in
                     table_entries(stmt.value) or ()]
            if named and all(target is not None for _, target in named):
                found[stmt.targets[0].id] = [[key, *target] for key, target in named]
    return bound_once(tree, found)


def module_objects(tree, imports, source):
    """{name: (import binding, attribute path)} for the globals a top-level statement of ``tree``
    binds to a call of an imported class (``STREAM = KeyStream(0)``) and that no other top-level
    statement or ``global`` of the module (``source``, its text) binds: calling the object, or a
    method of it, runs that class's method with ``self`` the object, which outlives any trace."""
    found = {}
    for stmt in tree.body:
        if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Name \
                and type(stmt.value) is ast.Call and stmt.targets[0].id.isascii():
            target = call_target(stmt.value.func, imports, ())
            name = re.escape(stmt.targets[0].id.encode())
            if target is not None and target[0] and len(re.findall(
                    rb"(?:^|[\r\n;])[ \t\f]*%b[ \t\f]*=(?!=)|\bglobal\b[^\r\n;]*\b%b\b" % (name, name), source)) == 1:
                found[stmt.targets[0].id] = (tuple(target[0]), tuple(target[1]))
    return found
