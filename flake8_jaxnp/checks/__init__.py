"""Checks: one module per rule family, each a ``check(model)`` generator of Findings."""
import ast


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
