"""JNP401-JNP403: implicit dtype promotion and silent 64-bit narrowing.

Dtypes come from the value model (constructors, dtype=, literals, astype);
where either side's dtype is unknown the checks stay silent. Promotion results
come from the generated table (jnp.promote_types / np.promote_types). Python
scalars are weakly typed and boolean masks (``x * (x > 0)``) are the usual
idiom, so neither counts as a promotion.
"""
import ast

from .. import api
from ..model import dtypes
from ..model.kinds import JAX, JAX_TREE, NUMPY, TRACER, TRACER_TREE
from ..facts import JAX_DTYPE_MODULES, NARROW, is_promotion
from ..findings import Finding
from . import describe

JAX_ARRAY_KINDS = (TRACER, TRACER_TREE, JAX, JAX_TREE)
# Modules whose calls canonicalize dtypes and data (narrow 64-bit without x64).
OPERATORS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
    ast.LShift: "<<", ast.RShift: ">>",
}


def check(model):
    for node in model.nodes(ast.BinOp, ast.AugAssign, ast.Call):
        kind = type(node)
        if kind is ast.BinOp:
            yield from _arithmetic(model, node, node.left, node.right, OPERATORS[type(node.op)])
        elif kind is ast.AugAssign:
            yield from _arithmetic(model, node, node.target, node.value, OPERATORS[type(node.op)] + "=")
        elif kind is ast.Call and not model.x64:
            yield from _call(model, node)


def _arithmetic(model, node, left, right, op):
    values = model.value(left), model.value(right)
    if not any(v.kind in (JAX, TRACER) for v in values):
        return
    if not model.x64:
        for value in values:
            if value.kind is NUMPY and value.dtype in NARROW:
                yield _narrowed(node, value.dtype)
    if any(v.dtype is None for v in values) or not is_promotion((v.dtype, v.weak) for v in values):
        return  # unknown, a weakly typed Python scalar, or a mask: nothing to report
    a, b = (dtypes.on_jax(v.dtype, model.x64) for v in values)
    if a == b:
        return
    result = dtypes.on_jax(dtypes.promote(a, b), model.x64)
    numpy_result = dtypes.promote(a, b, numpy=True)
    yield Finding.at(node, "JNP401", {
        "left": f"{describe(left)} ({a})", "op": op, "right": f"{describe(right)} ({b})",
        "result": result,
        "numpy": f" but {numpy_result} in NumPy" if numpy_result not in (None, result) else "",
    })


def _narrowed(node, dtype):
    return Finding.at(node, "JNP403", {"what": describe(node), "dtype": dtype, "narrow": NARROW[dtype]})


def _call(model, call):
    """JNP402 for 64-bit dtypes requested from JAX, JNP403 for NumPy 64-bit data handed to it."""
    qualname = model.qualname(call.func)
    module, _, name = (qualname or "").rpartition(".")
    jax_function = module.startswith(JAX_DTYPE_MODULES) and name not in api.non_array_functions()
    given, requested, python_type = (_requested_dtype(model, call, qualname)
                                     if jax_function or _is_jax_method(model, call) else (False, None, False))
    if python_type:
        requested = None  # dtype=float means JAX's default width, not a 64-bit request
    constructed = dtypes.dtype_constructor(qualname) if module == "jax.numpy" else None  # jnp.float64(x)
    for wide in (requested, constructed):
        if wide in NARROW:
            yield Finding.at(call, "JNP402", {"what": describe(call), "dtype": wide, "narrow": NARROW[wide]})
            return
    if given:
        return  # the dtype argument decides the result, whatever the data
    wide = next((v.dtype for v in map(model.value, _data_arguments(call))
                 if v.kind is NUMPY and v.dtype in NARROW), None)
    if wide and ((jax_function and module.startswith("jax.numpy")) or qualname == "jax.device_put"
                 or _is_jitted_call(model, call)):
        yield _narrowed(call, wide)


def _requested_dtype(model, call, qualname):
    """(given, dtype, spelled_as_python_type) for a JAX function or array method call."""
    if qualname is None and call.func.attr == "astype" and call.args:  # x.astype(dtype)
        return (True, *model.dtype_of(call.args[0]))
    return model.requested_dtype(call, qualname)


def _is_jax_method(model, call):
    """``x.astype(...)``, ``x.sum(dtype=...)`` on a JAX array (traced or not)."""
    return isinstance(call.func, ast.Attribute) and model.value(call.func.value).kind in JAX_ARRAY_KINDS


def _is_jitted_call(model, call):
    callee = model.callee(call.func)
    return (callee is not None and callee in model.jitted_callables) or model.value(call.func).kind is JAX_TREE


def _data_arguments(call):
    for arg in list(call.args) + [k.value for k in call.keywords]:
        if isinstance(arg, ast.Starred):
            arg = arg.value
        if isinstance(arg, (ast.List, ast.Tuple)):
            yield from arg.elts
        else:
            yield arg
