"""Checks: one module per rule family, each a ``check(model)`` generator of Findings."""
import ast


def describe(node):
    """Short source text of ``node`` for messages, e.g. ``np.asarray(loss)``."""
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."
