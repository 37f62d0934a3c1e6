"""JNP201-JNP203: operations that need concrete data, applied to tracers."""
import ast

from .. import api
from ..findings import Finding
from ..model.containers import SEQUENCES
from ..model.kinds import NUMPY, PYTHON, TRACER, TRACER_TREE, UNKNOWN
from ..model.library import traced_bodies
from ..model.syntax import argument_for, defaults, positional_names
from . import describe, rule

CONVERSIONS = {"builtins.float", "builtins.int", "builtins.complex"}
SHAPE_KEYWORDS = {"shape", "num", "N", "M", "slice_sizes", "slice_size"}
# lax slicers -> positions of their slice sizes, which must be static like shapes.
SLICE_SIZES = {"jax.lax.dynamic_slice": (2,), "jax.lax.dynamic_slice_in_dim": (2,)}
ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
TRUTH_TESTED = frozenset({ast.If, ast.While, ast.IfExp, ast.Assert})  # nodes with a ``test``
# Builtins that order the values they are given (``max(a, b)`` asks the truth value of ``b > a``),
# and JAX's elementwise counterparts.
ORDERING_BUILTINS = {"builtins.max": "jnp.maximum", "builtins.min": "jnp.minimum"}
NUMPY_NAMESPACES = {"numpy": "jnp", "numpy.linalg": "jnp.linalg", "numpy.fft": "jnp.fft"}
# Cached transforms that map a leading axis of each argument (in_axes, default 0): a Python int at
# a mapped position has no axis and fails for it (ValueError) before any shape is read.
AXIS_MAPPING = {"jax.pmap"}


@rule("JNP201", "JNP202", "JNP203")
def concrete_data_from_tracers(model):
    traced = [(func, traced.transform, traced.abstract, traced.cached_by is not None)
              for func, traced in model.traced.items()]
    # a def that cached traced code calls with no tracer runs in that trace: its JAX operations stage
    traced += [(func, transform.shown, transform.abstract, transform.cached)
               for func, transform in model.trace_time.items()]
    for func, transform, abstract, staged in traced:
        base = {"scope": getattr(func, "name", "<lambda>"), "transform": transform}
        for node in model.own_nodes(func):
            kind = type(node)
            if kind is ast.Call:
                yield from _call(model, node, abstract, staged, base)
            elif not abstract:
                continue  # what follows fails on abstract tracers only
            elif kind in TRUTH_TESTED:
                yield from _truth_test(model, node.test, base)
            elif kind is ast.BoolOp:
                for operand in node.values[:-1]:
                    yield from _truth_value(model, operand, base)
            elif kind is ast.UnaryOp and type(node.op) is ast.Not:
                yield from _truth_value(model, node.operand, base)
            elif kind is ast.Subscript and type(node.ctx) is ast.Load:
                yield from _subscript(model, node, base)
            elif kind is ast.Compare and _chain_tests_tracer(model, node):
                yield _truth_finding(node, base)
    for call in model.nodes(ast.Call):
        if type(call.func) is ast.Call and len(call.func.args) == 1:
            yield from _library_function_staged(model, call)
        elif call.args:
            yield from _library_function_as_body(model, call)


def _library_function_staged(model, call):
    """``jax.jit(one_hot)(3, 5)``: a JAX function staged whole gets a tracer for every argument
    the call gives it (none made static), so one in a shape position fails as in a def's body."""
    staged = call.func
    spec = model.transform_spec(staged.func)
    facts = api.transforms().get(spec[0]) if spec is not None else None
    qualname = model.qualname(staged.args[0])
    positions = api.shape_arguments().get(qualname, ()) if facts and facts["abstract"] and facts["cached"] else ()
    options = [*spec[1], *staged.keywords] if spec is not None else []
    if spec is not None and spec[0] in AXIS_MAPPING:
        positions = [p for p in positions if _unmapped(options, p)]
    if not positions or any(k.arg is None or k.arg.startswith("static") for k in options) \
            or any(type(a) is ast.Starred for a in call.args) or not any(p < len(call.args) for p in positions):
        return
    name = describe(staged.args[0])
    yield Finding.at(call, "JNP202", {"scope": name, "transform": spec[0],
                                      "what": f"the shape or static parameter in {describe(call)}",
                                      "fix": "it must be static: mark the argument static (static_argnums)"})


def _library_function_as_body(model, call):
    """``jnp.apply_along_axis(jnp.where, 1, x)``: a JAX function given to one that traces the functions
    it is given runs on as many abstract tracers as measured (``where(row)``, under vmap), so a size
    that depends on them fails as in a def's body."""
    qualname = model.qualname(call.func)
    for position, count in traced_bodies(call, qualname).items() if qualname else ():
        body = call.args[position] if count and position < len(call.args) else None
        name = model.qualname(body) if body is not None else None
        if name in api.size_functions() and _data_dependent(
                model, ast.Call(func=body, args=[ast.Constant(None)] * count, keywords=[]), name, staged=True):
            yield Finding.at(call, "JNP203", {"scope": describe(body), "transform": qualname,
                                              "what": f"{describe(body)}() on what {describe(call.func)}() gives it",
                                              "fix": f"give a function that passes {_size_keyword(name)}="})


def _unmapped(options, position):
    """Whether ``in_axes`` leaves the argument at ``position`` unmapped (None there): only such an
    argument reaches the function whole, as a tracer."""
    in_axes = next((k.value for k in options if k.arg == "in_axes"), None)
    if type(in_axes) in (ast.Tuple, ast.List) and position < len(in_axes.elts) \
            and not any(type(axis) is ast.Starred for axis in in_axes.elts[:position + 1]):
        in_axes = in_axes.elts[position]
    return type(in_axes) is ast.Constant and in_axes.value is None


def _subscript(model, node, base):
    """Boolean masks (also in ``x.at[mask]``, and as one part of ``x[:, mask]``), slice bounds that are
    tracers, and tracers indexing what needs a concrete index: a NumPy array (it converts the index) or
    a Python list or tuple."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    array = node.value.value if isinstance(node.value, ast.Attribute) and node.value.attr == "at" else node.value
    if any(_traced_mask(model.value(part)) for part in parts) and model.value(array).traced:  # (x[:, mask] too)
        yield Finding.at(node, "JNP203", dict(base, what=f"boolean-mask indexing {describe(node)}",
                                              fix="use jnp.where(mask, x, 0) to keep the shape"))
    container = model.value(array)
    if container.kind is NUMPY and _traced(model, node.slice):
        name = describe(array)
        yield Finding.at(node, "JNP201", dict(base, func=f"{name}.__getitem__", error="TracerArrayConversionError",
                                              fix=f"jnp.asarray({name})"))
    elif container.container in SEQUENCES and _traced(model, node.slice):
        yield Finding.at(node, "JNP202", dict(base, what=f"the index into a Python {container.container} in "
                                              f"{describe(node)}", fix="index a jnp.array of the items instead"))
    bounds = [b for part in parts if isinstance(part, ast.Slice) for b in (part.lower, part.upper, part.step) if b]
    if any(_traced(model, bound) for bound in bounds):
        yield Finding.at(node, "JNP202", dict(base, what=f"a slice bound in {describe(node)}",
                                              fix="use lax.dynamic_slice with a static size"))


def _traced_mask(index):
    """A traced boolean array: as an index, or one part of a tuple index, its shape depends on the values."""
    return index.traced and index.dtype == "bool"


def _traced(model, expr):
    """True when ``expr`` holds a tracer, also as an item of a list or tuple: a display, a
    comprehension or a name bound to one (``[params[k] for k in names]``)."""
    if isinstance(expr, (ast.List, ast.Tuple)):
        return any(_traced(model, e) for e in expr.elts)
    if isinstance(expr, ast.Starred):
        return _traced(model, expr.value)
    return _holds_tracer(model.value(expr))


def _returns_closed_tracer(model, expr):
    """A function given to NumPy or SciPy (``minimize(lambda p: (p - target) ** 2, x0)``) that returns
    a tracer it closes over, or one computed from it: the library converts what it returns to a
    NumPy array, as it converts a tracer given directly."""
    func = expr if type(expr) is ast.Lambda else model.callee(expr) if type(expr) is ast.Name else None
    if func is None:
        return False
    own = set(positional_names(func)) | {a.arg for a in func.args.kwonlyargs}
    returned = [func.body] if type(func) is ast.Lambda else \
        [node.value for node in model.own_nodes(func) if type(node) is ast.Return and node.value is not None]
    return any(type(node) is ast.Name and node.id not in own and model.value(_read_whole(model, node)).traced
               for value in returned for node in ast.walk(value))


def _read_whole(model, name):
    """The attribute or subscript chain that reads ``name``, and a call given it alone that gives a
    Python value (``target.shape[0]``, ``len(target)``: Python ints of a tracer, no tracer), or ``name``."""
    node = name
    while type(model.parent(node)) in (ast.Attribute, ast.Subscript) and model.parent(node).value is node:
        node = model.parent(node)
    call = model.parent(node)
    alone = type(call) is ast.Call and call.args == [node] and not call.keywords
    return call if alone and model.value(call).kind is PYTHON else node


def _holds_tracer(value):
    return value.traced or value.container in SEQUENCES and any(_holds_tracer(item) for _, item in value.members)


def _jax_counterpart(qualname):
    """``jnp.tanh`` for ``numpy.tanh``; SciPy's counterparts are not in the data, so they are named by module."""
    module, _, name = qualname.rpartition(".")
    if module.startswith("scipy"):
        return "SciPy's counterpart in jax.scipy where JAX has one, else jax.pure_callback"
    jax_name = f"jax.numpy{module[len('numpy'):]}.{name}"
    return f"{NUMPY_NAMESPACES[module]}.{name}" if jax_name in api.jnp_names() else "a jax.numpy function"


def _call(model, call, abstract, staged, base):
    qualname = model.qualname(call.func) or _through_defaulted_module(model, call.func)
    arguments = [*call.args, *(k.value for k in call.keywords)]
    error = qualname and api.fails_on_tracer(qualname)
    if not (error and any(_traced(model, a) for a in arguments)):
        error = qualname and api.fails_on_traced_result(qualname)
        error = error if error and any(_returns_closed_tracer(model, a) for a in arguments) else None
    if error:
        yield Finding.at(call, "JNP201", dict(base, func=describe(call.func), error=error,
                                              fix=_jax_counterpart(qualname)))
        return
    if qualname in CONVERSIONS and call.args and _traced(model, call.args[0]):
        yield Finding.at(call, "JNP202", dict(base, what=f"{describe(call)}",
                                              fix="keep it as an array (or mark the argument static)"))
        return
    if not abstract:
        return
    if qualname == "builtins.bool" and call.args and model.value(call.args[0]).kind is TRACER:
        yield Finding.at(call, "JNP202", dict(base, what=describe(call), fix="use jnp.where or lax.cond"))
    elif qualname in ORDERING_BUILTINS and _orders_a_tracer(model, call):
        yield Finding.at(call, "JNP202", dict(base, what=f"the comparison inside {describe(call)}",
                                              fix=f"use {ORDERING_BUILTINS[qualname]}"))
    elif qualname == "builtins.range" and any(_traced(model, a) for a in call.args):
        yield Finding.at(call, "JNP202", dict(base, what=describe(call),
                                              fix="use lax.fori_loop, or mark the bound static"))
    elif isinstance(call.func, ast.Attribute) and call.func.attr in ("item", "tolist") and not call.args \
            and model.value(call.func.value).traced:  # a tree of tracers: no container has these methods
        yield Finding.at(call, "JNP202", dict(base, what=describe(call), fix="keep it as an array"))
    elif qualname in api.shape_arguments() and qualname not in api.size_functions() \
            and _shape_is_traced(model, call, api.shape_arguments()[qualname]) \
            or qualname in SLICE_SIZES and _shape_is_traced(model, call, SLICE_SIZES[qualname]):
        yield Finding.at(call, "JNP202", dict(base, what=f"the shape or static parameter in {describe(call)}",
                                              fix="it must be static: use .shape or a static argument"))
    elif isinstance(call.func, ast.Attribute) and call.func.attr == "reshape" \
            and model.value(call.func.value).kind is TRACER and any(_traced(model, a) for a in call.args) \
            or qualname == "jax.numpy.reshape" and _shape_is_traced(model, call, (1,)):
        yield Finding.at(call, "JNP202", dict(base, what=f"the shape in {describe(call)}",
                                              fix="shapes must be static: use .shape or a static argument"))
    elif qualname in api.size_functions() and _data_dependent(model, call, qualname, staged):
        yield Finding.at(call, "JNP203", dict(base, what=f"{describe(call.func)}()",
                                              fix=f"pass {_size_keyword(qualname)}="))


def _through_defaulted_module(model, func_expr):
    """``xnp.stack`` where ``xnp`` is a parameter defaulting to a module (``xnp=np``) that a call of
    its def from traced code leaves to the default (or gives that module): under that trace it is
    the module's function (another caller may pass ``xnp=jnp``; that trace's default still runs NumPy)."""
    if type(func_expr) is not ast.Attribute or type(func_expr.value) is not ast.Name:
        return None
    func, name = model.parameter_of(func_expr.value), func_expr.value.id
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    default = defaults(func).get(name)
    module = model.qualname(default) if default is not None else None
    names = positional_names(func)
    defaulted = module is not None and any(
        model.enclosing_function(call) in model.traced and not any(type(a) is ast.Starred for a in call.args)
        and not any(k.arg is None for k in call.keywords)
        and _given_or_default(model, argument_for(call, names, name), module)
        for call in model.calls_of(func) or ())
    return f"{module}.{func_expr.attr}" if defaulted else None


def _given_or_default(model, passed, module):
    """Whether a call leaves the parameter to its default module, or gives it that module."""
    return passed is None or model.qualname(passed) == module


def _shape_is_traced(model, call, positions):
    shapes = [call.args[i] for i in positions if i < len(call.args)]
    shapes += [k.value for k in call.keywords if k.arg in SHAPE_KEYWORDS]
    return any(_traced(model, s) for s in shapes)


def _size_keyword(qualname):
    return api.size_functions()[qualname]["keyword"]


def _data_dependent(model, call, qualname, staged):
    """Whether the call's result size depends on traced data: the keyword that fixes it is not given,
    and an argument at a measured position is traced, or in a staging trace the function fails on NumPy
    constants too (omnistaging stages the call: measured, ``jnp.unique`` but not ``jnp.repeat``)."""
    facts = api.size_functions()[qualname]
    keywords = {k.arg for k in call.keywords}
    index = facts["keyword_index"]
    if facts["keyword"] in keywords or None in keywords or index is not None and len(call.args) > index \
            or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    if qualname == "jax.numpy.where" and (len(call.args) != 1 or keywords & {"x", "y"}):
        return False
    sizing = [call.args[p] for p in facts["positions"] if p < len(call.args)]
    sizing += [k.value for k in call.keywords if k.arg in facts["names"]]
    return staged and facts["staged"] or any(_traced(model, arg) for arg in sizing)


def _truth_test(model, test, base):
    if isinstance(test, ast.BoolOp):
        for operand in test.values:
            yield from _truth_value(model, operand, base)
    elif not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)):
        yield from _truth_value(model, test, base)


def _truth_value(model, expr, base):
    if model.value(expr).kind is TRACER or isinstance(expr, ast.Compare) \
            and _orders_traced(model, [expr.left, *expr.comparators], expr.ops, model.value(expr)):
        yield _truth_finding(expr, base)


def _truth_finding(expr, base):
    return Finding.at(expr, "JNP202", dict(base, what=f"the truth value of {describe(expr)}",
                                           fix="use jnp.where or lax.cond instead of Python control flow"))


def _orders_a_tracer(model, call):
    """``max(norm, 1e-6)``, ``min([loss_a, loss_b])``: the values compared (the arguments, or the
    items of a single list or tuple display) hold a tracer, so Python asks a tracer's truth value.
    A ``key=`` function orders what it returns instead, and ``*args`` is not read."""
    values = call.args[0].elts if len(call.args) == 1 and type(call.args[0]) in (ast.List, ast.Tuple) \
        else call.args
    if len(values) < 2 or call.keywords or any(type(v) is ast.Starred for v in values):
        return False
    return any(model.value(v).kind is TRACER for v in values)


def _chain_tests_tracer(model, compare):
    """``0 < x < 1`` is ``(0 < x) and (x < 1)``: Python takes the truth value of every link but
    the last, wherever the chain stands (a list item, an argument)."""
    operands = [compare.left, *compare.comparators]
    whole = model.value(compare)
    links = [(operands[i:i + 2], compare.ops[i:i + 1]) for i in range(len(compare.ops) - 1)]
    return any(_orders_traced(model, link, op, whole)
               or whole.kind is TRACER and any(model.value(side).kind is TRACER for side in link)
               for link, op in links)


def _orders_traced(model, operands, ops, whole):
    """``i < n`` with ``n`` traced: only an array can be ordered against a number, so the result is
    a tracer even where the other side's kind is unknown (a loop counter rebound in the loop). Two
    traced trees ordered (``x > y``, both jit arguments) are arrays, or containers whose ordering
    asks the truth value of their leaves' ``==``: either way a tracer's truth value."""
    if whole.kind not in (TRACER, UNKNOWN) or not all(isinstance(op, ORDERING) for op in ops):
        return False
    kinds = [model.value(operand).kind for operand in operands]
    return TRACER_TREE in kinds and all(kind in (TRACER_TREE, PYTHON, UNKNOWN) for kind in kinds)
