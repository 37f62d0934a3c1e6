"""Dtype names: reading them from expressions and JAX's 32-bit default.

Dtypes are canonical NumPy names (``"float32"``, ``"bfloat16"``, ``"bool"``).
"""
import ast

from .. import api
from ..facts import DTYPE_NAMES, NARROW
from .kinds import PYTHON
from .names import BindingKind
from .syntax import argument_for

ALIASES = {
    "bool_": "bool", "float_": "float64", "double": "float64", "single": "float32",
    "half": "float16", "int_": "int64", "intp": "int64", "uint": "uint64", "uintp": "uint64",
    "complex_": "complex128", "cdouble": "complex128", "csingle": "complex64",
    "longlong": "int64", "ulonglong": "uint64", "longdouble": None,
}
# Python's own types as dtypes: NumPy reads them as 64-bit, JAX as its default width.
PYTHON_TYPES = {"builtins.float": "float64", "builtins.int": "int64",
                "builtins.bool": "bool", "builtins.complex": "complex128"}
DTYPE_MODULES = ("jax.numpy.", "numpy.")


def canonical(name):
    """The canonical dtype for a spelling such as 'float32', 'f8' (None if unknown)."""
    if name in DTYPE_NAMES:
        return name
    if name in ALIASES:
        return ALIASES[name]
    short = {"f2": "float16", "f4": "float32", "f8": "float64", "i1": "int8", "i2": "int16",
             "i4": "int32", "i8": "int64", "u1": "uint8", "u2": "uint16", "u4": "uint32",
             "u8": "uint64", "c8": "complex64", "c16": "complex128", "?": "bool"}
    return short.get(name.lstrip("<>=|"))


def dtype_of(expr, names, imported=None, held=None):
    """(dtype, spelled_as_python_type) for a dtype expression, or (None, False).
    ``imported`` answers for names that other modules of the project bind; ``held`` (expression ->
    its Value, or None) for what the forward pass saw the expression hold: a dtype object (a config
    field, a name the code bound to one), whatever the spelling."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return canonical(expr.value), False
    qualname = names.qualname(expr)
    constant = names.one_binding(expr, BindingKind.ASSIGN, module_level=True) if qualname is None else None
    if constant is not None and isinstance(constant.value, ast.Constant) and isinstance(constant.value.value, str):
        return canonical(constant.value.value), False  # a module constant such as DT = "float64"
    found = dtype_of_qualname(qualname)
    if found[0] is None and imported is not None and isinstance(expr, (ast.Name, ast.Attribute)):
        found = imported(expr) or found  # util.f64, bound in another module of the project
    value = held(expr) if found[0] is None and held is not None else None
    if value is not None and value.kind is PYTHON and value.dtype and not value.weak:
        return value.dtype, False  # cfg.dtype, a field that the forward pass knows holds a dtype object
    return found


def argument_dtype(call, params, names, imported, at):
    """The dtype that the argument ``call`` passes for the parameter at position ``at`` of a function
    whose positional parameters are ``params`` names (``cast(p, jnp.bfloat16)``), or None."""
    given = argument_for(call, params, params[at]) if at < len(params) else None
    return dtype_of(given, names, imported)[0] if given is not None else None


def dtype_of_qualname(qualname):
    """(dtype, spelled_as_python_type) for a dotted name such as ``jax.numpy.float32``."""
    if qualname is None:
        return None, False
    if qualname in PYTHON_TYPES:
        return PYTHON_TYPES[qualname], True
    if qualname.startswith("ml_dtypes.") and qualname.endswith("bfloat16"):
        return "bfloat16", False
    return dtype_constructor(qualname), False


def dtype_constructor(qualname):
    """The dtype a call like ``jnp.float32(x)`` or ``np.float64(x)`` produces."""
    if qualname:
        for prefix in DTYPE_MODULES:
            if qualname.startswith(prefix) and qualname.count(".") == prefix.count("."):
                return canonical(qualname[len(prefix):])
    return None


def literal_dtype(expr):
    """NumPy's dtype for a literal number or (nested) list/tuple of literals."""
    kinds = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.List, ast.Tuple)):
            stack.extend(node.elts)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            stack.append(node.operand)
        elif isinstance(node, ast.Constant) and type(node.value) in (bool, int, float, complex):
            kinds.add(type(node.value))
        else:
            return None
    if not kinds:
        return None
    for python_type, dtype in ((complex, "complex128"), (float, "float64"), (int, "int64"), (bool, "bool")):
        if python_type in kinds:
            return dtype
    return None


def on_jax(dtype, x64=False):
    """What JAX makes of a requested dtype (64-bit narrows unless x64 is on)."""
    return dtype if x64 else NARROW.get(dtype, dtype)


def kind_rank(dtype):
    """0 bool, 1 integer, 2 floating, 3 complex: Python scalars of a lower kind keep an array's dtype."""
    if dtype == "bool":
        return 0
    if dtype.startswith(("int", "uint")):
        return 1
    return 3 if dtype.startswith("complex") else 2


def promote(a, b, numpy=False):
    """The dtype a binary operation on arrays of dtypes ``a`` and ``b`` gives, as generated
    from jnp.promote_types / np.promote_types (None where NumPy refuses the pair)."""
    return api.data()["dtype_promotion"]["numpy" if numpy else "jax"].get(a, {}).get(b)


def dtype_slot(qualname):
    """The position of the dtype parameter of a JAX function, or of the NumPy function
    that jax.numpy mirrors (generated from the signatures), or None."""
    if qualname and qualname.startswith("numpy."):
        qualname = "jax." + qualname
    return api.data()["jax_dtype_positions"].get(qualname)


def requested_dtype(call, qualname, names, imported=None, held=None):
    """(given, dtype, spelled_as_python_type) for the dtype a call passes: dtype= (or
    new_dtype=), the function's positional dtype slot, or a later positional argument
    spelled as a dtype (read as ``dtype_of`` reads them). A dtype that is given but unreadable has dtype None."""
    if any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
        return True, None, False  # *args / **kwargs may carry one
    for keyword in call.keywords:
        if keyword.arg in ("dtype", "new_dtype"):
            return (True, *dtype_of(keyword.value, names, imported, held))
    slot = dtype_slot(qualname)
    if slot is not None and slot < len(call.args):
        return (True, *dtype_of(call.args[slot], names, imported, held))
    for arg in call.args[1:]:
        dtype, python_type = dtype_of(arg, names, imported, held)
        if dtype is not None:
            return True, dtype, python_type
    return False, None, False
