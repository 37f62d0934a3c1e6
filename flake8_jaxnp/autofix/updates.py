"""Fixes that rebind instead of mutating: JAX arrays are immutable (JNP501)."""
import ast

import libcst as cst

from ..checks.api_usage import AUGMENTED_AT
from .engine import Edit, fixer

# Expressions that bind tighter than any binary operator: they need no parentheses as its operand.
ATOMS = (cst.Name, cst.Attribute, cst.Subscript, cst.Call, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)


@fixer("JNP501")
def in_place_update(finding, context):
    """``x[i] = v`` -> ``x = x.at[i].set(v)``; ``x[i] += v`` -> ``x = x.at[i].add(v)`` (the
    method of the operator, else ``.set(x[i] op v)``); ``x.sort()`` and ``x.at[i].set(v)`` as
    statements -> ``x = ...``. Only an array held by a plain name is rebound: a field or an
    entry would need the new array written back where it came from."""
    for target in context.nodes_at(finding, cst.Subscript):
        if isinstance(target.value, cst.Name):
            statement = context.parents[context.parents[target]] if isinstance(
                context.parents[target], cst.AssignTarget) else context.parents[target]
            if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
                return Edit(statement, _set)
            if isinstance(statement, cst.AugAssign) and statement.target is target:
                return Edit(statement, _augmented)
    for call in context.nodes_at(finding, cst.Call):
        statement = context.parents[call]
        if isinstance(statement, cst.Expr) and isinstance(call.func, cst.Attribute):
            array = _updated_array(call.func)
            if isinstance(array, cst.Name):
                return Edit(statement, lambda node, name=array.value: cst.Assign(
                    targets=[cst.AssignTarget(cst.Name(name))], value=node.value, semicolon=node.semicolon))
    return None


def _updated_array(method):
    """``x`` of ``x.sort`` or of ``x.at[i].set``."""
    owner = method.value
    if method.attr.value == "sort":
        return owner
    if isinstance(owner, cst.Subscript) and isinstance(owner.value, cst.Attribute) and owner.value.attr.value == "at":
        return owner.value.value
    return None


def _at(subscript):
    """``x.at[i]`` from ``x[i]``."""
    return subscript.with_changes(value=cst.Attribute(value=subscript.value, attr=cst.Name("at")))


def _set(assign):
    target = assign.targets[0].target
    update = cst.Call(func=cst.Attribute(value=_at(target), attr=cst.Name("set")), args=[cst.Arg(assign.value)])
    return assign.with_changes(targets=[assign.targets[0].with_changes(target=target.value)], value=update)


def _augmented(statement):
    target = statement.target
    operator = cst.Module(body=[]).code_for_node(statement.operator).strip()  # "+="
    method = AUGMENTED_AT.get(type(ast.parse(f"x {operator} 1").body[0].op))
    value = statement.value
    if method is None:  # x[i] //= v -> x = x.at[i].set(x[i] // v)
        method = "set"
        if not isinstance(value, ATOMS) and not value.lpar:
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        value = cst.parse_expression(f"a {operator[:-1]} b").with_changes(left=target, right=value)
    update = cst.Call(func=cst.Attribute(value=_at(target), attr=cst.Name(method)), args=[cst.Arg(value)])
    return cst.Assign(targets=[cst.AssignTarget(target.value)], value=update, semicolon=statement.semicolon)
