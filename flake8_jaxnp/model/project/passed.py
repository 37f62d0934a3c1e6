"""Which project functions the calls of a def pass to one of its parameters: a def that
nested traced code calls through that parameter (``def make_step(forward): ... return
jax.jit(step)`` with ``step`` calling ``forward(p, x)``) runs each of them traced, with the
tracers that call gives (``make_step(forward=apply_checked)`` in another module traces
``apply_checked``). Each function passed runs, whatever the other calls pass."""
import ast

from ..syntax import argument_for, module_imports
from . import cache
from .flows import call_target


def passed_functions(project, files, path, factory, params, param):
    """[(module path, name)] of the functions that the calls in ``files`` of the top-level def
    ``factory`` of the module at ``path`` (positional parameters ``params``) pass as ``param``,
    by name: a def of the calling module or an import of a project function."""
    found, word = [], factory.encode("utf-8")
    for other in files:
        project.reach_inputs.read(other)
        parsed = _parsed(other)
        if parsed is None or word not in parsed[0]:
            continue
        _, tree, imports, local_functions = parsed
        for call in (node for node in ast.walk(tree) if type(node) is ast.Call):
            target = call_target(call.func, imports, local_functions)
            if target is None or project.target_of(other, *target) != (path, factory):
                continue
            argument = argument_for(call, params, param)
            given = call_target(argument, imports, local_functions) if argument is not None else None
            function = project.target_of(other, *given) if given is not None else None
            if function is not None and function not in found:
                found.append(function)
    return found


_PARSED = {}  # module path -> (its identity, (its text, its tree, its imports, its top-level defs))


def _parsed(path):
    """(text, tree, imports, top-level def names) of a module, parsed once while it stays the file it was."""
    identity = cache.identity(path)
    kept = _PARSED.get(path)
    if kept is None or kept[0] != identity:
        try:
            text = path.read_bytes()
        except OSError:
            return None
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            tree = ast.Module(body=[], type_ignores=[])
        local_functions = {stmt.name for stmt in tree.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))}
        kept = _PARSED[path] = (identity, (text, tree, module_imports(tree), local_functions))
    return kept[1]
