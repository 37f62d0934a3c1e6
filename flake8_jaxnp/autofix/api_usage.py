"""Fixes for NumPy APIs and idioms JAX does not take: in-place updates rebind (JNP501),
removed names get their replacement (JNP504)."""
import ast

import libcst as cst

from .. import api
from ..checks.api_usage import AUGMENTED_AT
from .engine import Edit, described, fixer, rebinding_is_local, with_last_comma, wrapped

# Expressions that bind tighter than any binary operator: they need no parentheses as its operand.
ATOMS = (cst.Name, cst.Attribute, cst.Subscript, cst.Call, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)


@fixer("JNP501")
def in_place_update(finding, context):
    """``x[i] = v`` -> ``x = x.at[i].set(v)``; ``x[i] += v`` -> ``x = x.at[i].add(v)`` (the
    method of the operator, else ``.set(x[i] op v)``); ``x.sort()`` and ``x.at[i].set(v)`` as
    statements -> ``x = ...``, an unsafe shape: those statements run and keep the old array, so
    rebinding changes what the program computes (the others replace a TypeError). Only an
    array held by a plain name the scope binds itself is rebound: a field or an entry would
    need the new array written back where it came from, and a function that only reads a
    global would make it a local (UnboundLocalError)."""
    for target in context.nodes_at(finding, cst.Subscript):
        if isinstance(target.value, cst.Name) and rebinding_is_local(context, target, target.value.value):
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
            if isinstance(array, cst.Name) and rebinding_is_local(context, call, array.value):
                return Edit(statement, lambda node, name=array.value: cst.Assign(
                    targets=[cst.AssignTarget(cst.Name(name))], value=node.value, semicolon=node.semicolon),
                    unsafe=True)
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


@fixer("JNP504")
def removed_name(finding, context):
    """``jax.tree_map`` -> ``jax.tree.map``, ``jnp.product`` -> ``jnp.prod``: where the data
    knows a one-to-one replacement in the same module or below it. An import of the
    removed name is left alone (its uses would need renaming too)."""
    name = dict(finding.fields).get("name", "")
    replacement = api.removed_name_replacements().get(name)
    module, _, attr = name.rpartition(".")
    if replacement is None or not replacement.startswith(module + "."):
        return None
    nodes = [node for node in context.nodes_at(finding, cst.Attribute) if node.attr.value == attr]
    if not nodes:
        return None
    path = replacement[len(module) + 1:].split(".")

    def rewrite(node):
        value = node.value
        for part in path[:-1]:
            value = cst.Attribute(value=value, attr=cst.Name(part))
        return node.with_changes(value=value, attr=cst.Name(path[-1]))
    return Edit(nodes[-1], rewrite)


@fixer("JNP503")
def refused_argument(finding, context):
    """``jnp.add(a, b, out=c)`` as a statement -> ``c = jnp.add(a, b)``; ``kind="stable"``
    (or ``"mergesort"``) of a sort -> ``stable=True``, another kind dropped (JAX's sort is
    stable: a valid result of any kind). Other refused arguments have no mechanical fix."""
    arg = dict(finding.fields).get("arg", "")
    for keyword in context.nodes_at(finding, cst.Arg):
        call = context.parents[keyword]
        if arg == "out=" and isinstance(keyword.value, cst.Name) and isinstance(context.parents[call], cst.Expr) \
                and rebinding_is_local(context, call, keyword.value.value):
            return Edit(context.parents[call], lambda statement, target=keyword.value.value: cst.Assign(
                targets=[cst.AssignTarget(cst.Name(target))], value=_without(statement.value, "out"),
                semicolon=statement.semicolon))
        method = call.func.attr.value if isinstance(call.func, cst.Attribute) else getattr(call.func, "value", "")
        if arg.startswith("kind=") and method in ("sort", "argsort") and isinstance(keyword.value, cst.SimpleString):
            if keyword.value.evaluated_value in ("stable", "mergesort"):
                return Edit(keyword, lambda node: node.with_changes(keyword=cst.Name("stable"), value=cst.Name("True")))
            return Edit(call, lambda node: _without(node, "kind"))
    return None


def _without(call, keyword):
    """``call`` without its ``keyword=`` argument."""
    args = [arg for arg in call.args if not (arg.keyword is not None and arg.keyword.value == keyword)]
    return call.with_changes(args=with_last_comma(args, call))


@fixer("JNP505")
def sequence_argument(finding, context):
    """``jnp.mean([a, b])`` -> ``jnp.mean(jnp.asarray([a, b]))``: the argument the finding names."""
    fields = dict(finding.fields)
    for call in context.calls_at(finding, fields.get("func")):
        for arg in call.args:
            if arg.keyword is None and isinstance(arg.value, (cst.List, cst.Tuple, cst.ListComp)) \
                    and described(arg.value) == fields.get("arg"):
                return wrapped(context, arg.value, "jax.numpy", "jnp", "asarray")
    return None
