"""Which project functions the calls of a def pass to one of its parameters: a def that
nested traced code calls through that parameter (``def make_step(forward): ... return
jax.jit(step)`` with ``step`` calling ``forward(p, x)``) runs each of them traced, with the
tracers that call gives (``make_step(forward=apply_checked)`` in another module traces
``apply_checked``). Each function passed runs, whatever the other calls pass."""
import ast

from ..syntax import argument_for, module_imports
from .defaults import has_word, module_words
from .flows import call_target


def passed_functions(project, files, path, factory, params, param):
    """[(module path, name)] of the functions that the calls in ``files`` of the top-level def
    ``factory`` of the module at ``path`` (positional parameters ``params``) pass as ``param``,
    by name: a def of the calling module or an import of a project function. Only the modules
    that have the factory's name among their words are parsed, and no tree is kept."""
    found, word = [], factory.encode("utf-8")
    for other in files:
        project.reach_inputs.read(other)
        words = module_words(other)
        parsed = _parsed(other) if words is not None and has_word(other, words[1], word) else None
        if parsed is None:
            continue
        tree, imports, local_functions = parsed
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


def _parsed(path):
    """(tree, imports, top-level def names) of a module, or None when it cannot be read."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    local_functions = {stmt.name for stmt in tree.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return tree, module_imports(tree), local_functions
