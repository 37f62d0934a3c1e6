"""Checks: one module per rule family, each a ``check(model)`` generator of Findings."""
import ast

from ..model.names import BindingKind
from ..model.syntax import positional_names, selected_arguments


def describe(node):
    """Short source text of ``node`` for messages, e.g. ``np.asarray(loss)``."""
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."


def iterates_twice(iterable):
    """False for iterables written out with fewer than two items (``(x,)``, ``range(1)``)."""
    if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
        return len(iterable.elts) >= 2 and not any(isinstance(e, ast.Starred) for e in iterable.elts)
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range":
        bounds = [a.value for a in iterable.args if isinstance(a, ast.Constant) and isinstance(a.value, int)]
        if bounds and len(bounds) == len(iterable.args) <= 3 and 0 not in bounds[2:]:
            return len(range(*bounds)) >= 2
    return True


def jitted_parameters(model, func_expr, numbers_option, names_option):
    """(positions, names) that a jitted function's ``numbers_option``/``names_option`` (static_argnums/
    static_argnames, donate_argnums/donate_argnames) select, or None when it has none we can read."""
    if not isinstance(func_expr, ast.Name):
        return None
    found = model.resolve(func_expr)
    if not found or len(found[1]) != 1:
        return None
    binding = found[1][0]
    if binding.kind is BindingKind.DEF:
        target = binding.node
        specs = [model.transform_spec(d) for d in target.decorator_list]
        keywords = next((spec[1] for spec in specs if spec and spec[0] in model.staging_transforms), None)
    elif binding.kind is BindingKind.ASSIGN and isinstance(binding.value, ast.Call) \
            and model.qualname(binding.value.func) in model.staging_transforms and binding.value.args:
        target = model.callee(binding.value.args[0])
        keywords = binding.value.keywords
    else:
        return None
    if keywords is None:
        return None
    selected = selected_arguments({k.arg: k.value for k in keywords if k.arg}, (numbers_option,), names_option)
    if selected is None or not (selected[0] or selected[1]):
        return None
    numbers, names = selected
    params = positional_names(target) if target is not None else []
    positions = {n for n in numbers if n >= 0} | {params.index(n) for n in names if n in params}
    names = set(names) | {params[n] for n in numbers if 0 <= n < len(params)}
    return positions, names


def blocks(body, repeats):
    """(statements, innermost enclosing loop for which ``repeats(loop)`` holds, or None) for
    ``body`` and every statement list nested in it, not entering nested functions or classes.
    Iterative: an elif chain thousands of arms long nests that deep."""
    stack = [(body, None)]
    while stack:
        stmts, loop = stack.pop()
        yield stmts, loop
        for stmt in stmts:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            is_loop = isinstance(stmt, (ast.For, ast.AsyncFor, ast.While))
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if inner:
                    stack.append((inner, stmt if is_loop and field == "body" and repeats(stmt) else loop))
            for child in [*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]:
                stack.append((child.body, loop))


def repeats(loop):
    """False for a loop written to run at most once (``for x in (a,)``, ``while False``)."""
    if isinstance(loop, ast.While):
        return not (isinstance(loop.test, ast.Constant) and not loop.test.value)
    return iterates_twice(loop.iter)
