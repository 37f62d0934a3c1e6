"""Value kinds: is this expression a tracer, a device array, a NumPy array?

A forward pass over each function body (and the module body) tracks what every
local name holds at each point; branches join, loops run twice so that values
assigned late in a body reach its top. Where paths disagree the value becomes
UNKNOWN, and the checks stay silent on UNKNOWN.
"""
import ast
from dataclasses import dataclass

from . import dtypes

# Kinds. *_TREE: an array or a pytree of them (a jit argument, a jitted result).
TRACER = "tracer"
TRACER_TREE = "tracer-tree"
JAX = "jax"
JAX_TREE = "jax-tree"
NUMPY = "numpy"
PYTHON = "python"  # a concrete Python value: a number, a shape, a string, a function
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Value:
    kind: str
    dtype: str = None
    weak: bool = False  # a Python scalar: weakly typed in JAX promotion

    @property
    def traced(self):
        return self.kind in (TRACER, TRACER_TREE)

    @property
    def on_device(self):
        """A concrete JAX array or pytree of them (outside traced code)."""
        return self.kind in (JAX, JAX_TREE)

    @property
    def is_array(self):
        return self.kind in (TRACER, JAX, NUMPY)


UNKNOWN_VALUE = Value(UNKNOWN)
PYTHON_VALUE = Value(PYTHON)
STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype", "itemsize", "nbytes",
                               "sharding", "device", "devices", "weak_type", "aval"})
SAME_KIND_ATTRIBUTES = frozenset({"T", "mT", "real", "imag", "flat"})
# Array methods whose result is a Python value, not an array.
PYTHON_RESULT_METHODS = frozenset({"item", "tolist", "tobytes", "__len__", "devices",
                                   "is_fully_addressable", "is_fully_replicated"})
# jax.numpy / numpy names that return metadata rather than arrays.
NON_ARRAY_FUNCTIONS = frozenset({
    "shape", "ndim", "size", "dtype", "result_type", "issubdtype", "isdtype", "finfo",
    "iinfo", "promote_types", "can_cast", "iscomplexobj", "isrealobj", "isscalar",
    "iterable", "get_printoptions", "printoptions", "broadcast_shapes", "save", "savez",
    "load", "ndarray", "errstate", "set_printoptions", "array_repr", "array_str",
    "array2string", "base_repr", "binary_repr", "obj2sctype", "typename", "sctype2char",
    "format_float_positional", "format_float_scientific", "load", "info", "vectorize",
    "frompyfunc", "dtypes", "typecodes", "newaxis", "index_exp", "s_", "ix_",
})
# Functions that return a tuple or list of arrays rather than one array.
TUPLE_RESULT_FUNCTIONS = frozenset({
    "split", "array_split", "hsplit", "vsplit", "dsplit", "nonzero", "unique", "unique_all",
    "unique_counts", "unique_inverse", "meshgrid", "histogram", "histogram2d", "histogramdd",
    "eig", "eigh", "svd", "qr", "slogdet", "lstsq", "divmod", "frexp", "modf", "broadcast_arrays",
    "atleast_1d", "atleast_2d", "atleast_3d", "ix_", "tril_indices", "triu_indices",
    "diag_indices", "unravel_index", "gradient", "mask_indices", "indices", "unstack",
})
LAX_CONTROL_FLOW = frozenset({"scan", "fori_loop", "while_loop", "cond", "switch", "map",
                              "associative_scan", "sort", "top_k", "sort_key_val"})
BOOL_RESULT_FUNCTIONS = frozenset({
    "isnan", "isinf", "isfinite", "isposinf", "isneginf", "isclose", "isin", "isreal",
    "iscomplex", "signbit", "logical_and", "logical_or", "logical_not", "logical_xor",
    "equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
})
CONSTRUCTOR_DEFAULTS = {  # NumPy's dtype when none is given and no data decides it
    "zeros": "float64", "ones": "float64", "empty": "float64", "eye": "float64",
    "identity": "float64", "linspace": "float64", "logspace": "float64", "geomspace": "float64",
}
DATA_ARGUMENT_FUNCTIONS = frozenset({"array", "asarray", "asanyarray", "ascontiguousarray", "copy"})
NUMPY_RANDOM_FLOATS = frozenset({"rand", "randn", "random", "random_sample", "normal", "uniform",
                                 "standard_normal", "sample", "ranf", "exponential", "beta", "gamma"})


def join(a, b):
    if a == b:
        return a
    if a.kind == b.kind:
        return Value(a.kind)
    if {a.kind, b.kind} == {JAX, JAX_TREE}:
        return Value(JAX_TREE)  # on the device either way
    return UNKNOWN_VALUE


def element_kind(value):
    """What iterating over ``value`` yields."""
    if value.kind in (TRACER, JAX, NUMPY):
        return Value(value.kind, value.dtype)
    return UNKNOWN_VALUE


class FunctionFlow:
    """The forward pass over one function (or module) body."""

    def __init__(self, model, node, params, traced):
        self.model = model
        self.names = model.names
        self.node = node
        self.traced = traced  # the TracedFunction when this body is traced, else None
        self.scope = self.names.scopes[node]
        self.values = {}  # expression node -> Value
        self.assigned = {}  # local name -> join of everything it was bound to
        env = dict(params)
        for name, value in params.items():
            self.assigned[name] = value
        body = node.body if isinstance(node.body, list) else [ast.Return(node.body)]
        self._block(body, env)

    # ---- statements ---------------------------------------------------------
    def _block(self, stmts, env):
        for stmt in stmts:
            env = self._stmt(stmt, env)
        return env

    def _stmt(self, stmt, env):
        if isinstance(stmt, ast.Assign):
            value = self.eval(stmt.value, env)
            for target in stmt.targets:
                if _pairwise(target, stmt.value):  # a, b = x, y
                    for element, part in zip(target.elts, stmt.value.elts):
                        self._bind(element, self.values.get(part, UNKNOWN_VALUE), env)
                else:
                    self._bind(target, value, env)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self._bind(stmt.target, self.eval(stmt.value, env), env)
        elif isinstance(stmt, ast.AugAssign):
            self.eval(stmt.target, env, load=True)
            value = self._binop(self.eval(stmt.target, env, load=True), self.eval(stmt.value, env), stmt.op)
            self._bind(stmt.target, value, env)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            item = self._item(stmt.iter, env)
            env = self._loop(stmt, env, lambda e: self._bind(stmt.target, item, e))
        elif isinstance(stmt, ast.While):
            env = self._loop(stmt, env, lambda e: self.eval(stmt.test, e))
        elif isinstance(stmt, ast.If):
            self.eval(stmt.test, env)
            env = _join_envs(self._block(stmt.body, dict(env)), self._block(stmt.orelse, dict(env)))
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self.eval(item.context_expr, env)
                if item.optional_vars is not None:
                    self._bind(item.optional_vars, UNKNOWN_VALUE, env)
            env = self._block(stmt.body, env)
        elif isinstance(stmt, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            after_body = self._block(stmt.body + stmt.orelse, dict(env))
            merged = _join_envs(env, after_body)
            for handler in stmt.handlers:
                if handler.type is not None:
                    self.eval(handler.type, env)
                handler_env = dict(merged)
                if handler.name:
                    handler_env[handler.name] = UNKNOWN_VALUE
                merged = _join_envs(merged, self._block(handler.body, handler_env))
            env = self._block(stmt.finalbody, merged)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in stmt.decorator_list:
                self.eval(decorator, env)
            self._set(stmt.name, PYTHON_VALUE, env)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                self._set((alias.asname or alias.name).split(".")[0], PYTHON_VALUE, env)
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    env.pop(target.id, None)
                else:
                    self.eval(target, env, load=True)
        elif isinstance(stmt, ast.Match):
            self.eval(stmt.subject, env)
            branches = [self._block(case.body, dict(env)) for case in stmt.cases]
            for branch in branches:
                env = _join_envs(env, branch)
            for node in ast.walk(stmt):
                if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                    env[node.id] = UNKNOWN_VALUE
        else:
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.expr):
                    self.eval(child, env)
        return env

    def _item(self, iterable, env):
        """What a for loop or comprehension over ``iterable`` binds on each iteration."""
        value = self.eval(iterable, env)
        if isinstance(iterable, ast.Call) and self.names.qualname(iterable.func) == "builtins.range":
            return Value(PYTHON, "int64", weak=True)  # a loop counter: a Python int
        return element_kind(value)

    def _loop(self, stmt, env, enter):
        before = dict(env)
        for _ in range(2):  # the second pass sees what the first pass assigned
            inner = dict(env)
            enter(inner)
            inner = self._block(stmt.body, inner)
            env = _join_envs(before, inner)
        return self._block(stmt.orelse, env)

    def _bind(self, target, value, env):
        if isinstance(target, ast.Name):
            self._set(target.id, value, env)
        elif isinstance(target, (ast.Tuple, ast.List)):
            item = value if value.kind in (JAX_TREE, TRACER_TREE) else UNKNOWN_VALUE
            for elt in target.elts:
                self._bind(elt.value if isinstance(elt, ast.Starred) else elt, item, env)
        else:  # attribute or item assignment: evaluate the parts, bind nothing
            self.eval(target, env, load=True)

    def _set(self, name, value, env):
        env[name] = value
        previous = self.assigned.get(name)
        self.assigned[name] = value if previous is None else join(previous, value)

    # ---- expressions ----------------------------------------------------------
    def eval(self, expr, env, load=False):
        try:
            value = self._eval(expr, env)
        except RecursionError:
            value = UNKNOWN_VALUE
        self.values[expr] = value
        return value

    def _eval(self, expr, env):
        if isinstance(expr, ast.Name):
            return self._name(expr, env)
        if isinstance(expr, ast.Constant):
            value = expr.value
            if type(value) in (int, float, complex, bool):
                return Value(PYTHON, dtypes.literal_dtype(expr), weak=True)
            return PYTHON_VALUE
        if isinstance(expr, ast.Attribute):
            return self._attribute(expr, env)
        if isinstance(expr, ast.Subscript):
            base = self.eval(expr.value, env)
            self.eval(expr.slice, env)
            if base.kind in (TRACER, JAX, NUMPY):
                return Value(base.kind, base.dtype)
            if base.kind in (TRACER_TREE, JAX_TREE):
                return Value(base.kind)
            return UNKNOWN_VALUE
        if isinstance(expr, ast.BinOp):
            left, right = self.eval(expr.left, env), self.eval(expr.right, env)
            if isinstance(expr.op, ast.Mod) and is_string(expr.left):
                return PYTHON_VALUE  # "%s" % x formats
            return self._binop(left, right, expr.op)
        if isinstance(expr, ast.UnaryOp):
            operand = self.eval(expr.operand, env)
            if isinstance(expr.op, ast.Not):
                return PYTHON_VALUE
            return operand if operand.kind != PYTHON else Value(PYTHON, operand.dtype, operand.weak)
        if isinstance(expr, ast.Compare):
            return self._compare(expr, env)
        if isinstance(expr, ast.BoolOp):
            values = [self.eval(v, env) for v in expr.values]
            result = values[0]
            for value in values[1:]:
                result = join(result, value)
            return result
        if isinstance(expr, ast.IfExp):
            self.eval(expr.test, env)
            return join(self.eval(expr.body, env), self.eval(expr.orelse, env))
        if isinstance(expr, ast.Call):
            return self._call(expr, env)
        if isinstance(expr, ast.NamedExpr):
            value = self.eval(expr.value, env)
            self._set(expr.target.id, value, env)
            return value
        if isinstance(expr, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            inner = dict(env)
            for generator in expr.generators:
                item = self._item(generator.iter, inner)
                self._bind(generator.target, item, inner)
                for condition in generator.ifs:
                    self.eval(condition, inner)
            for part in ("elt", "key", "value"):
                if hasattr(expr, part):
                    self.eval(getattr(expr, part), inner)
            return PYTHON_VALUE
        if isinstance(expr, ast.Lambda):
            return PYTHON_VALUE
        if isinstance(expr, ast.JoinedStr):
            for value in expr.values:
                self.eval(value, env)
            return PYTHON_VALUE
        for child in ast.iter_child_nodes(expr):
            if isinstance(child, ast.expr):
                self.eval(child, env)
        return PYTHON_VALUE if isinstance(expr, (ast.List, ast.Tuple, ast.Dict, ast.Set)) else UNKNOWN_VALUE

    def _name(self, expr, env):
        if expr.id in env:
            return env[expr.id]
        if expr.id in self.scope.bindings and expr.id not in self.scope.globals and expr.id not in self.scope.nonlocals:
            return UNKNOWN_VALUE  # a local not bound on this path (yet)
        found = self.names.resolve_name(expr)
        if found is None:
            return PYTHON_VALUE if expr.id in ("True", "False", "None") else UNKNOWN_VALUE
        scope, bindings = found
        if all(b.kind in ("import", "def", "class") for b in bindings):
            return PYTHON_VALUE
        return self.model.outer_value(scope.node, expr.id)

    def _attribute(self, expr, env):
        base = self.eval(expr.value, env)
        if base.kind in (TRACER, JAX, NUMPY, TRACER_TREE, JAX_TREE):
            if expr.attr in STATIC_ATTRIBUTES:
                return PYTHON_VALUE
            if expr.attr in SAME_KIND_ATTRIBUTES and base.kind in (TRACER, JAX, NUMPY):
                return Value(base.kind, base.dtype)
            return UNKNOWN_VALUE
        qualname = self.names.qualname(expr)
        if qualname and qualname.startswith(("jax.numpy.", "numpy.")) and qualname.rsplit(".", 1)[1] in ("pi", "e", "inf", "nan", "euler_gamma"):
            return Value(PYTHON, "float64", weak=True)
        if dtypes.dtype_constructor(qualname):
            return PYTHON_VALUE  # a dtype such as jnp.float32
        return UNKNOWN_VALUE

    def _binop(self, left, right, op=None):
        kinds = {left.kind, right.kind}
        if kinds & {TRACER, TRACER_TREE}:
            # Arithmetic with a tracer gives a tracer, unless the other side is a
            # Python container (``carry + [x]`` concatenates lists).
            containers = any(v.kind == PYTHON and not v.weak for v in (left, right))
            if containers:
                return Value(TRACER_TREE)
            return Value(TRACER, self._promoted(left, right, op, TRACER))
        if UNKNOWN in kinds:
            return UNKNOWN_VALUE
        for kind in (TRACER, JAX, NUMPY):
            if kind in kinds:
                others = kinds - {kind}
                if kind == NUMPY and others - {PYTHON, NUMPY}:
                    break
                return Value(kind, self._promoted(left, right, op, kind))
        if JAX_TREE in kinds:
            return Value(JAX_TREE)
        if kinds == {PYTHON}:
            return PYTHON_VALUE
        return UNKNOWN_VALUE

    def _promoted(self, left, right, op, kind):
        """The dtype of ``left op right`` where both dtypes are known, else None."""
        if left.dtype is None or right.dtype is None or (left.weak and right.weak):
            return None
        numpy = kind == NUMPY
        if left.weak or right.weak:  # a Python scalar takes the array's dtype unless it is of a higher kind
            scalar, array = (left, right) if left.weak else (right, left)
            result = array.dtype if dtypes.kind_rank(scalar.dtype) <= dtypes.kind_rank(array.dtype) else None
        else:
            a, b = (left.dtype, right.dtype) if numpy else (dtypes.on_jax(left.dtype, self.model.x64),
                                                            dtypes.on_jax(right.dtype, self.model.x64))
            result = dtypes.promote(a, b, numpy=numpy)
        if result is not None and isinstance(op, ast.Div) and dtypes.kind_rank(result) < dtypes.kind_rank("float64"):
            result = "float64"  # true division of integers gives the default float
        return result if numpy or result is None else dtypes.on_jax(result, self.model.x64)

    def _compare(self, expr, env):
        operands = [self.eval(expr.left, env)] + [self.eval(c, env) for c in expr.comparators]
        if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in expr.ops):
            return PYTHON_VALUE
        constants = [expr.left] + expr.comparators
        if any(isinstance(c, ast.Constant) and not isinstance(c.value, (int, float, complex)) for c in constants):
            return PYTHON_VALUE  # compared with None or a string: Python answers
        ordering = all(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in expr.ops)
        if ordering and any(v.kind == JAX_TREE for v in operands) and not any(v.traced for v in operands):
            return Value(JAX, "bool")  # a jitted result that can be ordered is an array
        for kind in (TRACER, JAX, NUMPY):
            if any(v.kind == kind for v in operands):
                return Value(kind, "bool")
        if any(v.kind == TRACER_TREE for v in operands) and all(v.kind in (TRACER_TREE, PYTHON) for v in operands):
            if any(v.kind == PYTHON and v.weak for v in operands):
                return Value(TRACER, "bool")
        if all(v.kind == PYTHON for v in operands):
            return PYTHON_VALUE
        return UNKNOWN_VALUE

    def _call(self, call, env):
        func_value = self.eval(call.func, env)
        args = [self.eval(a.value if isinstance(a, ast.Starred) else a, env) for a in call.args]
        keywords = {k.arg: self.eval(k.value, env) for k in call.keywords}
        inputs = args + list(keywords.values())
        traced_input = any(v.traced for v in inputs)
        qualname = self.names.qualname(call.func)
        if qualname:
            result = self._library_call(call, qualname, args, traced_input)
            if result is not None:
                return result
        if isinstance(call.func, ast.Attribute):
            updated = self._at_update(call.func, traced_input)
            if updated is not None:
                return updated
            base = self.values.get(call.func.value, UNKNOWN_VALUE)
            dict_method = call.func.attr in ("get", "items", "keys", "values")
            tree_method = base.kind in (TRACER_TREE, JAX_TREE) and not dict_method
            if base.kind in (TRACER, JAX, NUMPY) or tree_method:
                return self._method(call, base, traced_input)
        callee = self.model.callee(call.func)
        if callee is not None:
            self.model.called_with(callee, call, args, keywords, self.traced)
            if callee in self.model.jitted_callables:
                return Value(TRACER_TREE if traced_input else JAX_TREE)
        elif isinstance(call.func, ast.Call) and self._is_jit_call(call.func):
            return Value(TRACER_TREE if traced_input else JAX_TREE)
        if func_value.kind == JAX_TREE:  # a name bound to jax.jit(f)
            return Value(TRACER_TREE if traced_input else JAX_TREE)
        return self._helper_result(call, traced_input)

    def _helper_result(self, call, traced_input):
        """What a top-level function of this module or of another project module returns:
        device arrays from a jitted one, an array from one that returns jax.numpy calls."""
        helper = self.model.helper_facts(call.func)
        if helper is None:
            return UNKNOWN_VALUE
        if helper[0].get("jitted"):
            return Value(TRACER_TREE if traced_input else JAX_TREE)
        if helper[0]["returns"] == "jax":
            return Value(TRACER if traced_input else JAX)
        return UNKNOWN_VALUE

    def _is_jit_call(self, expr):
        """``jax.jit(f)``, ``jax.grad(f)``: calling the result gives device arrays (tracers
        inside traced code)."""
        return self.names.qualname(expr.func) in self.model.transform_names

    def _library_call(self, call, qualname, args, traced_input):
        module, _, name = qualname.rpartition(".")
        if qualname in self.model.staging_transforms:
            return Value(JAX_TREE)  # f2 = jax.jit(f): calling f2 gives device arrays
        if module in ("jax.numpy", "jax.numpy.linalg", "jax.numpy.fft", "jax.nn", "jax.lax", "jax.scipy.special"):
            if name in NON_ARRAY_FUNCTIONS:
                return PYTHON_VALUE
            if name in TUPLE_RESULT_FUNCTIONS or module == "jax.lax" and name in LAX_CONTROL_FLOW:
                return Value(TRACER_TREE if traced_input else JAX_TREE)
            kind = TRACER if traced_input else JAX
            # jnp.array(1.0) keeps the Python scalar's weak type
            weak = name in DATA_ARGUMENT_FUNCTIONS and bool(args) and args[0].weak \
                and not any(k.arg == "dtype" for k in call.keywords) and len(call.args) == 1
            return Value(kind, self._jax_dtype(call, qualname, name), weak)
        if module == "jax.random":
            given, dtype = self._requested_dtype(call, qualname)
            if not given and name in ("normal", "uniform"):
                dtype = "float64"  # the default float, narrowed below unless x64 is on
            return Value(TRACER if traced_input else JAX, dtypes.on_jax(dtype, self.model.x64) if dtype else None)
        if qualname == "jax.device_put":
            return Value(TRACER_TREE if traced_input else JAX_TREE)
        if module in ("numpy", "numpy.linalg", "numpy.fft", "numpy.random"):
            if name in NON_ARRAY_FUNCTIONS:
                return PYTHON_VALUE
            if any(v.kind in (TRACER, TRACER_TREE, JAX, JAX_TREE, UNKNOWN) for v in args) and name not in DATA_ARGUMENT_FUNCTIONS:
                return UNKNOWN_VALUE  # NumPy may dispatch to the array's own method
            return Value(NUMPY, self._numpy_dtype(call, qualname, args))
        if module == "builtins":
            if name in ("float", "int", "bool", "complex", "len", "str", "repr", "range", "isinstance", "hasattr", "type"):
                return PYTHON_VALUE
        return None

    def _jax_dtype(self, call, qualname, name):
        given, dtype = self._requested_dtype(call, qualname)
        if given:
            return dtypes.on_jax(dtype, self.model.x64) if dtype else None
        dtype = dtypes.dtype_constructor(qualname)
        if dtype is None and name in DATA_ARGUMENT_FUNCTIONS and call.args:
            source = self.values.get(call.args[0])
            literal = dtypes.literal_dtype(call.args[0])
            dtype = literal or (source.dtype if source is not None else None)
        elif dtype is None and name in CONSTRUCTOR_DEFAULTS:
            dtype = "float64"  # the default float, narrowed below unless x64 is on
        elif dtype is None and name in BOOL_RESULT_FUNCTIONS:
            dtype = "bool"
        return dtypes.on_jax(dtype, self.model.x64) if dtype else None

    def _numpy_dtype(self, call, qualname, args):
        given, dtype = self._requested_dtype(call, qualname)
        if given:
            return dtype
        module, _, name = qualname.rpartition(".")
        if module == "numpy.random":
            return "float64" if name in NUMPY_RANDOM_FLOATS else None
        constructed = dtypes.dtype_constructor(qualname)
        if constructed:
            return constructed
        if name in DATA_ARGUMENT_FUNCTIONS and call.args:
            return dtypes.literal_dtype(call.args[0]) or (args[0].dtype if args and args[0].kind == NUMPY else None)
        return CONSTRUCTOR_DEFAULTS.get(name)

    def _requested_dtype(self, call, qualname):
        """(given, dtype): a dtype that is given but unreadable leaves the result unknown."""
        given, dtype, _ = dtypes.requested_dtype(call, qualname, self.names)
        return given, dtype

    def _at_update(self, func, traced_input):
        """``x.at[i].set(v)`` and friends: a new array of x's kind and dtype."""
        indexed = func.value
        if isinstance(indexed, ast.Subscript) and isinstance(indexed.value, ast.Attribute) \
                and indexed.value.attr == "at":
            base = self.values.get(indexed.value.value, UNKNOWN_VALUE)
            if base.kind in (TRACER, JAX, TRACER_TREE, JAX_TREE):
                kind = TRACER if traced_input or base.traced else JAX
                return Value(kind, base.dtype)
        return None

    def _method(self, call, base, traced_input):
        method = call.func.attr
        if method in PYTHON_RESULT_METHODS:
            return PYTHON_VALUE
        kind = base.kind
        if kind == TRACER_TREE:
            kind = TRACER
        elif kind == JAX_TREE:
            kind = TRACER if traced_input else JAX
        elif traced_input and kind == JAX:
            kind = TRACER
        if method == "astype" and call.args:
            dtype, _ = dtypes.dtype_of(call.args[0], self.names)
            return Value(kind, dtypes.on_jax(dtype, self.model.x64) if dtype and kind != NUMPY else dtype)
        if method in ("copy", "reshape", "ravel", "flatten", "transpose", "squeeze", "swapaxes",
                      "block_until_ready", "clip", "round", "conj", "repeat", "take", "sort",
                      "cumsum", "cumprod", "sum", "prod", "max", "min"):
            return Value(kind, base.dtype if method not in ("sum", "prod", "cumsum", "cumprod") else None)
        if method in ("mean", "std", "var", "dot", "any", "all", "argmax", "argmin", "argsort", "nonzero"):
            return Value(kind)
        return UNKNOWN_VALUE if base.kind in (TRACER_TREE, JAX_TREE) else Value(kind)


def is_string(expr):
    """A string literal or f-string."""
    return isinstance(expr, ast.JoinedStr) or (isinstance(expr, ast.Constant) and isinstance(expr.value, str))


def _pairwise(target, value):
    """``a, b = x, y``: literal tuples (or lists) of the same length, nothing starred."""
    sequences = (ast.Tuple, ast.List)
    return isinstance(target, sequences) and isinstance(value, sequences) and len(target.elts) == len(value.elts) \
        and not any(isinstance(e, ast.Starred) for e in target.elts + value.elts)


def _join_envs(a, b):
    return {name: join(a[name], b[name]) if name in b else UNKNOWN_VALUE for name in a} | \
        {name: UNKNOWN_VALUE for name in b if name not in a}
