"""Pytree classes of a module and the shape of what its jitted functions return.

A jitted function that returns a NamedTuple or a registered dataclass of its own
module gives device arrays in that record's fields, and a device bool from its
comparing methods (``timestep.last()``): the caller's loop reads them on the host.
"""
import ast
import json

from ..kinds import ARRAY_ANNOTATIONS
from ..syntax import NESTED_SCOPES, imported_qualname, split_attributes, walk_own

NAMED_TUPLES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
REGISTER_CLASS = "jax.tree_util.register_pytree_node_class"
ORDERINGS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
# Decorators that return what the function returns, computed once per arguments.
CACHING_DECORATORS = frozenset({"functools.cache", "functools.lru_cache"})


def module_records(tree, imports):
    """{class name: {"fields": [...], "methods": [...], "arrays": [...]}} for the module's
    top-level pytree classes whose children are known: NamedTuples, flax.struct dataclasses and
    ``jax.tree_util.register_dataclass`` dataclasses, and classes whose registered flatten function
    names its children (``_flattened_children``). ``fields`` leaves out static ones
    (``pytree_node=False``, ``metadata={"static": True}``); ``methods`` are those that
    return a comparison of a field (``timestep.last()``); ``arrays`` the fields annotated
    as arrays (``jax.Array``), the others may hold pytrees. A class whose static fields
    cannot be read is left out."""
    found, flattened = {}, _flattened_children(tree, imports)
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef):
            style = _record_style(stmt, imports)
            fields = _record_fields(stmt, imports, style) if style else flattened.get(stmt.name)
            if fields is not None:
                found[stmt.name] = {"fields": sorted(fields), "methods": sorted(_comparing_methods(stmt, fields)),
                                    "arrays": sorted(name for name, annotation in fields.items()
                                                     if annotation in ARRAY_ANNOTATIONS)}
    return found


def _flattened_children(tree, imports):
    """{class name: {field: ""}} for the top-level classes registered with a flatten function whose
    every return gives ``((obj.a, obj.b), aux)`` of its one parameter: ``register_pytree_node(C,
    flatten, unflatten)`` at the top level (a lambda or a top-level def), or a
    ``register_pytree_node_class`` class's ``tree_flatten``; those fields are the pytree's children."""
    defs = {stmt.name: stmt for stmt in tree.body if isinstance(stmt, ast.FunctionDef)}
    found = {}
    for stmt in tree.body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if isinstance(call, ast.Call) and len(call.args) >= 2 and isinstance(call.args[0], ast.Name) \
                and imported_qualname(call.func, imports) == "jax.tree_util.register_pytree_node":
            flatten = call.args[1]
            children = _children(defs.get(flatten.id) if isinstance(flatten, ast.Name) else flatten)
            if children is not None:
                found[call.args[0].id] = children
        elif isinstance(stmt, ast.ClassDef) and REGISTER_CLASS in {imported_qualname(d, imports)
                                                                   for d in stmt.decorator_list}:
            flatten = next((item for item in stmt.body if isinstance(item, ast.FunctionDef)
                            and item.name == "tree_flatten" and not item.decorator_list), None)
            children = _children(flatten)
            if children is not None:
                found[stmt.name] = children
    return found


def _children(flatten):
    """{field: ""} that every return of the flatten function ``flatten`` gives as its children, or None."""
    if not isinstance(flatten, (ast.Lambda, ast.FunctionDef)) or len(flatten.args.args) != 1:
        return None
    owner = flatten.args.args[0].arg
    returns = [flatten.body] if isinstance(flatten, ast.Lambda) else \
        [node.value for node in walk_own(flatten.body, NESTED_SCOPES) if isinstance(node, ast.Return)]
    fields = set()
    for value in returns:
        children = value.elts[0] if isinstance(value, ast.Tuple) and len(value.elts) == 2 else None
        if not isinstance(children, (ast.Tuple, ast.List)) or not all(
                isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == owner
                for e in children.elts):
            return None
        fields.add(frozenset(e.attr for e in children.elts))
    return dict.fromkeys(next(iter(fields)), "") if len(fields) == 1 else None


def _record_style(cls, imports):
    """"named" for a NamedTuple, the static-field keyword of a registered dataclass, else None."""
    bases = {imported_qualname(b, imports) for b in cls.bases}
    if bases & NAMED_TUPLES:
        return "named"
    decorators = {imported_qualname(d, imports) for d in cls.decorator_list}
    if "flax.struct.dataclass" in decorators or "flax.struct.PyTreeNode" in bases:
        return "pytree_node"
    if "jax.tree_util.register_dataclass" in decorators and "dataclasses.dataclass" in decorators:
        return "static"
    return None


def _record_fields(cls, imports, style):
    """{field: its annotation's dotted name} for the fields that are pytree children, or None
    when one is unreadable."""
    fields = {}
    for stmt in cls.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        annotation = imported_qualname(stmt.annotation.value if isinstance(stmt.annotation, ast.Subscript)
                                       else stmt.annotation, imports) or ""
        if annotation.endswith((".ClassVar", ".InitVar")):
            continue
        static = _static_field(stmt.value, imports, style) if style != "named" else False
        if static is None:
            return None
        if not static:
            fields[stmt.target.id] = annotation
    return fields


def _static_field(value, imports, style):
    """True/False for a dataclass field's default, None when its metadata cannot be read."""
    if not isinstance(value, ast.Call):
        return False
    for keyword in value.keywords:
        if keyword.arg is None:
            return None
        if style == "pytree_node" and keyword.arg == "pytree_node":
            pytree_node = _constant(keyword.value, bool, None)
            return None if pytree_node is None else not pytree_node
        if style == "static" and keyword.arg == "metadata":
            metadata = keyword.value
            if isinstance(metadata, ast.Call) and isinstance(metadata.func, ast.Name) and metadata.func.id == "dict" \
                    and "dict" not in imports and not metadata.args:
                entries = {k.arg: k.value for k in metadata.keywords}
            elif isinstance(metadata, ast.Dict) and None not in metadata.keys:
                entries = {_constant(k, str, None): v for k, v in zip(metadata.keys, metadata.values)}
            else:
                return None
            if None in entries:
                return None
            return _constant(entries["static"], bool, None) if "static" in entries else False
    return False


def _constant(node, kind, default):
    return node.value if isinstance(node, ast.Constant) and type(node.value) is kind else default


def _comparing_methods(cls, fields):
    """Methods whose whole body is ``return self.field == CONSTANT`` (or another ordering
    against constants and dotted names): on a jitted result they give a device bool."""
    found = []
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef) and not stmt.decorator_list and len(stmt.body) == 1 \
                and isinstance(stmt.body[0], ast.Return) and isinstance(stmt.body[0].value, ast.Compare):
            test, params = stmt.body[0].value, stmt.args.args
            left = test.left
            if len(params) == 1 and all(isinstance(op, ORDERINGS) for op in test.ops) \
                    and isinstance(left, ast.Attribute) and isinstance(left.value, ast.Name) \
                    and left.value.id == params[0].arg and left.attr in fields \
                    and all(_dotted_or_constant(c) for c in test.comparators):
                found.append(stmt.name)
    return found


def _dotted_or_constant(expr):
    name, _ = split_attributes(expr)
    return isinstance(expr, ast.Constant) or name is not None


def jitted_result_shape(func, records, returns):
    """The shape of what a jitted function's calls give: a pytree class of its module
    (``result_shape``), else one array when every return is a jax.numpy array (``returns``
    from ``summaries.function_facts``: a jit gives an array for an array), else None."""
    shape = result_shape(func, records) if records else None
    return shape if shape is not None or returns != "jax" else ARRAY_RESULT


ARRAY_RESULT = {"array": True}


def result_shape(func, records):
    """What a jitted function returns when every ``return`` agrees and a pytree class of
    this module is part of it: {"record": facts} or {"tuple": [shape or None, ...]}."""
    if not func.body or type(func.body[-1]) is not ast.Return:
        return None
    constructed, stored, returned = {}, {}, []
    for node in walk_own(func.body, NESTED_SCOPES):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stored[node.id] = stored.get(node.id, 0) + 1
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            constructed[node.targets[0].id] = node.value
        elif isinstance(node, (ast.Yield, ast.YieldFrom)):
            return None
        elif isinstance(node, ast.Return):
            returned.append(node.value)
    shapes = {json.dumps(_shape(value, records, constructed, stored), sort_keys=True) for value in returned}
    shape = json.loads(shapes.pop()) if len(shapes) == 1 else None
    return shape if shape and "record" in json.dumps(shape) else None


def _shape(expr, records, constructed, stored):
    if isinstance(expr, ast.Name) and stored.get(expr.id) == 1 and expr.id in constructed:
        expr = constructed[expr.id]  # new_state = State(...); return new_state
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in records \
            and stored.get(expr.func.id) is None:
        return {"record": records[expr.func.id]}
    if isinstance(expr, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in expr.elts):
        return {"tuple": [_shape(e, records, constructed, stored) for e in expr.elts]}
    return None


def built_jitted(returns, is_jitted):
    """What calling a builder gives, from its ``return`` expressions: True when each returns a jitted
    function (``return jax.jit(step)``); a list, True at each position of a tuple that every return
    fills with one (``return step, tx``, so that ``step, tx = make(lr)`` unpacks a jitted step); else None."""
    if not returns or None in returns:
        return None
    if all(is_jitted(value) for value in returns):
        return True
    if any(type(value) is not ast.Tuple or any(type(e) is ast.Starred for e in value.elts) for value in returns) \
            or len({len(value.elts) for value in returns}) != 1:
        return None
    positions = [all(is_jitted(value.elts[i]) for value in returns) for i in range(len(returns[0].elts))]
    return positions if any(positions) else None
