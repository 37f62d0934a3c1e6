"""JNP401-JNP403: implicit dtype promotion and silent 64-bit narrowing.

Dtypes come from the value model (constructors, dtype=, literals, astype);
where either side's dtype is unknown the checks stay silent. Promotion results
come from the generated table (jnp.promote_types / np.promote_types). Python
scalars are weakly typed and boolean masks (``x * (x > 0)``) are the usual
idiom, so neither counts as a promotion.
"""
import ast

from .. import api
from ..model import containers, dtypes
from ..model.kinds import JAX, JAX_TREE, NUMPY, TRACER, TRACER_TREE, UNKNOWN, UNKNOWN_VALUE
from ..model.names import BindingKind
from ..model.syntax import argument_for, defaults, held_name, positional_names
from ..facts import JAX_DTYPE_MODULES, NARROW, is_promotion
from ..findings import Finding
from . import describe, rule

JAX_ARRAY_KINDS = (TRACER, TRACER_TREE, JAX, JAX_TREE)
NARROWING = "JNP403"  # NumPy 64-bit data handed to JAX
# Modules whose calls canonicalize dtypes and data (narrow 64-bit without x64).
OPERATORS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
    ast.LShift: "<<", ast.RShift: ">>",
}


@rule("JNP401", "JNP402", "JNP403")
def promotion_and_narrowing(model):
    x64, callers = X64Updates(model), CallerValues(model)
    promoting = api.promoting_arguments()
    narrowed = {}  # node -> its JNP403 finding; only the outermost of nested ones is reported
    for call in model.nodes(ast.Call):
        qualname = model.qualname(call.func)
        if qualname is not None and not _jax_call(model, call, qualname):
            continue  # another library's or an imported function: it neither takes a dtype nor narrows
        if not model.may_hold_arrays(call):
            continue  # every rule here needs an array
        if qualname in promoting:
            yield from _call_promotion(model, call, qualname)
        if not x64.on_at(call):
            yield from _call(model, call, qualname, narrowed)
    for node in model.nodes(ast.BinOp, ast.AugAssign):
        kind = type(node)
        if _literal(node.value if kind is ast.AugAssign else node.left) \
                or _literal(node.right if kind is ast.BinOp else node.target):
            continue  # a Python literal is weakly typed: it never promotes, and it is no NumPy data
        holds = model.may_hold_arrays(node)
        if not holds and not callers.operand_parameter(node):
            continue  # every rule here needs an array (a parameter may get one from its calls)
        if kind is ast.BinOp:
            yield from _arithmetic(model, node, node.left, node.right, OPERATORS[type(node.op)], x64.on_at(node),
                                   callers, holds, narrowed)
        else:
            yield from _arithmetic(model, node, node.target, node.value, OPERATORS[type(node.op)] + "=",
                                   x64.on_at(node), callers, holds, narrowed)
    yield from _outermost(model, narrowed)


def _jax_call(model, call, qualname):
    """Whether a call of a function with a qualified name (a library's, or an imported one) may
    take a dtype or be handed JAX data: a function of JAX's array modules, ``jax.device_put``,
    a framework's layer (its dtype options), or a jitted def of this file (``_is_jitted_call``)."""
    return qualname.startswith(JAX_DTYPE_MODULES) or qualname == "jax.device_put" \
        or qualname in api.framework_layers() or _is_jitted_call(model, call, qualname)


class X64Updates:
    """Where in the module x64 is on: ``--jaxnp-x64``; code after a module-level
    ``jax.config.update("jax_enable_x64", True)`` (function bodies run after import,
    so all of them); in a function that turns it on, the code after the update, and
    other functions (they may run after it); the body of ``with jax.enable_x64(True):``."""

    def __init__(self, model):
        self.model = model
        self.everywhere = model.options.x64
        self.module_lines = []  # module-level updates
        self.function_lines = {}  # function -> first line that turns x64 on inside it
        self.scoped = []  # with statements whose body runs with x64
        for call in model.x64_switches if not self.everywhere else ():
            item = model.parent(call)
            if isinstance(item, ast.withitem):
                self.scoped.append(model.parent(item))
                continue
            func = _outermost_function(model, call)
            if func is None:
                self.module_lines.append(call.lineno)
            else:
                self.function_lines[func] = min(call.lineno, self.function_lines.get(func, call.lineno))

    def on_at(self, node):
        if self.everywhere:
            return True
        if not (self.scoped or self.module_lines or self.function_lines):
            return False
        if any(w.lineno <= node.lineno <= w.end_lineno for w in self.scoped):
            return True
        func = _outermost_function(self.model, node)
        if func is None:
            return any(line < node.lineno for line in self.module_lines)
        if self.module_lines or (self.function_lines and func not in self.function_lines):
            return True
        return func in self.function_lines and self.function_lines[func] < node.lineno


class CallerValues:
    """What a parameter of a function of this module receives from its calls, when every
    reference to the function is a plain call in this module (no other module of the
    project names it) and every call passes that parameter a JAX array of one dtype:
    ``def combine(a, b): return a + b`` called with float32 and int32 arrays promotes (a method's
    calls: those on the objects of its class, ``Instances.method_calls``). A
    top-level def this module never refers to gets what its calls in the other modules all
    give (``Project.given_dtypes``), items included (``params["b"]``)."""

    def __init__(self, model):
        self.model = model
        self.calls = {}  # def -> its calls, or [] when it is not only called in this module
        self.received = {}  # (def, parameter) -> (Value, call lines) or None
        self.alone = {}  # def -> whether no other module of the project names it

    def operand_parameter(self, node):
        """Whether an operand of an arithmetic node is a parameter of the function around it."""
        func = self.model.enclosing_function(node)
        names = positional_names(func) if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) else ()
        operands = (node.left, node.right) if type(node) is ast.BinOp else (node.target, node.value)
        return any(name is not None and name.id in names for name in map(held_name, operands))

    def parameter_of(self, expr):
        """The def whose parameter, never rebound, ``expr`` reads (or an item of: ``params["b"]``); else None."""
        model, name = self.model, held_name(expr)
        func = model.enclosing_function(name) if name is not None else None
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or name.id not in positional_names(func):
            return None
        return func if model.parameter_of(name) is func else None

    def value(self, func, expr):
        """(Value, where the calls are) when every call of ``func`` passes the parameter that ``expr``
        reads a JAX array of one dtype (``expr``: the parameter, or an item of it), else None."""
        found = self._received(func, held_name(expr).id)
        held = containers.item(found[0], expr.slice) if found and type(expr) is ast.Subscript else \
            found[0] if found else None
        return (held, found[1]) if held is not None and held.kind in (JAX, TRACER) and held.dtype else None

    def _received(self, func, param):
        key = (func, param)
        if key not in self.received:
            calls, model = self._calls(func), self.model
            if not calls:
                self.received[key] = self._elsewhere(func, param)
                return self.received[key]
            names = positional_names(func)[1:] if model.is_method(func) else positional_names(func)
            arguments = [argument_for(call, names, param) for call in calls]
            values = [model.value(a) for a in arguments] \
                if all(a is not None and model.may_hold_arrays(a) for a in arguments) else []
            agree = bool(values) and all(v.kind in (JAX, TRACER) and v.dtype is not None and not v.weak
                                         for v in values) \
                and len({dtypes.on_jax(v.dtype, model.x64) for v in values}) == 1
            self.received[key] = (values[0], [call.lineno for call in calls]) if agree else None
        return self.received[key]

    def _elsewhere(self, func, param):
        """(Value, where the calls are) that the calls in other modules of a top-level, undecorated
        ``func`` that this module never refers to all give ``param`` (``Project.given_dtypes``), or None."""
        model = self.model
        if model.project is None or model.parent(func) is not model.tree or func.decorator_list \
                or any(True for _ in model.reads(func.name)):
            return None
        found = model.project.given_dtypes(func.name, positional_names(func), param)
        if found is None:
            return None
        self.alone[func] = True  # (its callers are known: every module's)
        return containers.summary_value(found[0], False, found[1]), [f"{path}:{line}" for path, line in found[2]]

    def only_called_here(self, func):
        """Whether the calls of ``func`` are all known: no other module of the project names it, or
        its calls there give what ``value`` reads (asked only before a finding)."""
        model = self.model
        if func not in self.alone:
            self.alone[func] = model.parent(func) is not model.tree or model.project is None \
                or not model.project.named_elsewhere(func.name)
        return self.alone[func]

    def _calls(self, func):
        if func in self.calls:
            return self.calls[func]
        model, calls = self.model, []
        if model.is_method(func):  # obj.method(x), Rate()(x): the positions after self
            calls = model.method_calls(func) or []
        elif not func.decorator_list or func in model.jitted_callables:
            for name in model.reads(func.name):  # (a jitted def's arguments keep their dtypes)
                call = model.parent(name)
                if model.callee(name) is not func:
                    continue
                if type(call) is ast.Call and call.args == [name] and not call.keywords \
                        and model.qualname(call.func) == "jax.jit":
                    call = model.parent(call)  # return jax.jit(step)
                handed = self._handed_out(func, call) if type(call) is ast.Return else None
                if handed is not None:  # return step: the calls of what its factory returns
                    calls.extend(handed)
                    continue
                if type(call) is not ast.Call or call.func is not name:
                    calls = []  # passed on as a value: its callers are not all known
                    break
                calls.append(call)
        self.calls[func] = calls
        return calls

    def _handed_out(self, func, returned):
        """The calls of ``func``, a def that a step factory around it returns (``return step``): each
        ``make_step()(x)``, or each call of a name bound once to ``make_step()`` and only called
        (``step = make_step(); step(x)``); None where the factory or its result goes elsewhere."""
        model, factory = self.model, self.model.enclosing_function(returned)
        if factory is None or model.parent(func) is not factory or factory.decorator_list or model.is_method(factory):
            return None
        found = []
        for name in model.reads(factory.name):
            made, user = model.parent(name), model.parent(model.parent(name))
            if model.callee(name) is not factory:
                continue
            if type(made) is not ast.Call or made.func is not name:
                return None
            if type(user) is ast.Call and user.func is made:
                found.append(user)  # make_step()(x)
                continue
            if type(user) is not ast.Assign or len(user.targets) != 1 or type(user.targets[0]) is not ast.Name:
                return None
            bindings = model.resolve(user.targets[0])[1]
            if len(bindings) != 1:
                return None
            for read in model.reads(user.targets[0].id):
                if model.resolve(read) is None or model.resolve(read)[1] is not bindings:
                    continue  # another scope's name
                if type(model.parent(read)) is not ast.Call or model.parent(read).func is not read:
                    return None
                found.append(model.parent(read))
        return found


def _place(line):
    """A call's line (this module's) or ``path:line`` (another's) as it sorts: by module, then line."""
    path, _, number = str(line).rpartition(":")
    return path, int(number)


def _literal(expr):
    """``2``, ``-0.5``, ``"s"``: a constant, possibly signed."""
    if type(expr) is ast.UnaryOp and type(expr.op) in (ast.USub, ast.UAdd):
        expr = expr.operand
    return type(expr) is ast.Constant


def _outermost_function(model, node):
    outer, func = None, model.enclosing_function(node)
    while func is not None:
        outer, func = func, model.enclosing_function(func)
    return outer


def _arithmetic(model, node, left, right, op, x64, callers, holds, narrowed):
    values, lines = [model.value(e) if holds else UNKNOWN_VALUE for e in (left, right)], set()
    if any(v.kind in (JAX, TRACER) for v in values) and not x64 and NARROWING not in model.options.silenced:
        for value in values:
            if value.kind is NUMPY and value.dtype in NARROW:
                _narrowed(narrowed, node, value.dtype)
    funcs = [callers.parameter_of(e) if v.dtype is None else None for v, e in zip(values, (left, right))]
    if any(funcs) and all(f is not None or v.dtype is not None for f, v in zip(funcs, values)):
        for side, (func, expr) in enumerate(zip(funcs, (left, right))):
            found = callers.value(func, expr) if func is not None else (values[side], ())
            if found is None:
                return
            values[side] = found[0]
            lines.update(found[1])
    if not any(v.kind in (JAX, TRACER) for v in values) \
            or (lines and not all(v.kind in (JAX, TRACER, UNKNOWN) for v in values)):
        return  # (a parameter's calls count against another JAX array only, traced or not: a Module's field)
    if any(v.dtype is None for v in values) or not is_promotion((v.dtype, v.weak) for v in values):
        return  # unknown, a weakly typed Python scalar, or a mask: nothing to report
    a, b = (dtypes.on_jax(v.dtype, model.x64) for v in values)
    if a == b or not all(callers.only_called_here(func) for func in funcs if func is not None):
        return
    where = f", as called on line{'s' if len(lines) > 1 else ''} {', '.join(map(str, sorted(lines, key=_place)))}," \
        if lines else ""
    yield _promotion(node, f"{describe(left)} ({a}) {op} {describe(right)} ({b}){where}", [a, b], model.x64)


def _promotion(node, what, jax_dtypes, x64):
    result, numpy_result = jax_dtypes[0], jax_dtypes[0]
    for dtype in jax_dtypes[1:]:
        result = dtypes.on_jax(dtypes.promote(result, dtype), x64)
        numpy_result = dtypes.promote(numpy_result, dtype, numpy=True) if numpy_result else None
    return Finding.at(node, "JNP401", {
        "what": what, "result": result,
        "numpy": f" but {numpy_result} in NumPy" if numpy_result not in (None, result) else "",
    })


def _call_promotion(model, call, qualname):
    """JNP401 for a jax.numpy call whose array arguments promote together
    (``jnp.where(m, a, b)``, ``jnp.concatenate([a, b])``), from the generated table."""
    spec = api.promoting_arguments().get(qualname)
    if spec is None or any(isinstance(a, ast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return
    operands = []
    for index in sorted(set(spec["positions"]) | set(spec["sequences"])):
        if index < len(call.args):
            arg = call.args[index]
            operands.extend(arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg])
    if sum(not _literal(expr) for expr in operands) < 2:
        return  # a number literal adapts, any other literal is no array: two others are needed to promote
    values = [(expr, model.value(expr)) for expr in operands]
    values = [(expr, value) for expr, value in values if not value.weak]  # Python scalars adapt
    if len(values) < 2 or any(v.dtype is None or v.dtype == "bool" or v.kind not in (JAX, TRACER, NUMPY)
                              for _, v in values):
        return
    seen = [dtypes.on_jax(v.dtype, model.x64) for _, v in values]
    if len(set(seen)) < 2:
        return
    mixed = " and ".join(f"{describe(expr)} ({dtype})" for (expr, _), dtype in zip(values, seen))
    yield _promotion(call, f"{describe(call.func)}() of {mixed}", seen, model.x64)


def _narrowed(narrowed, node, dtype):
    narrowed[node] = Finding.at(node, NARROWING, {"what": describe(node), "dtype": dtype, "narrow": NARROW[dtype]})


def _outermost(model, narrowed):
    """The JNP403 findings that no enclosing part of their statement has too: one report of
    ``0.8 * jnp.sin(X) + np.random.normal(...)``, not a second one of ``jnp.sin(X)`` inside it."""
    for node, finding in narrowed.items():
        parent = model.parent(node)
        while isinstance(parent, ast.expr) and parent not in narrowed:
            parent = model.parent(parent)
        if parent not in narrowed:
            yield finding


def _call(model, call, qualname, narrowed):
    """JNP402 for 64-bit dtypes requested from JAX; JNP403 (into ``narrowed``) for NumPy 64-bit data handed to it."""
    module, _, name = (qualname or "").rpartition(".")
    jax_function = module.startswith(JAX_DTYPE_MODULES) and name not in api.non_array_functions()
    given, requested, python_type = False, None, False
    # x.astype(...), x.sum(dtype=...): a method's dtype counts on a JAX array only (whether it is one, which
    # may need the body's forward pass, is asked only of a call that passes something a dtype can be read from)
    if jax_function or _is_jax_method(model, call, qualname):
        given, requested, python_type = _requested_dtype(model, call, qualname)
    if python_type:
        requested = None  # dtype=float means JAX's default width, not a 64-bit request
    constructed = dtypes.dtype_constructor(qualname) if module == "jax.numpy" else None  # jnp.float64(x)
    default = ""
    if given and requested is None:
        requested, default = _defaulted_dtype(model, call, qualname)
    if requested is None and qualname in api.framework_layers():
        requested = _layer_dtype(model, call, qualname)
    elif requested is None and qualname is None:
        requested = model.declared_dtype(call)  # self.param("scale", ones, (1,), jnp.float64)
    for wide in (requested, constructed):
        if wide in NARROW:
            yield Finding.at(call, "JNP402", {"what": describe(call) + default, "dtype": wide, "narrow": NARROW[wide]})
            return
    if given or not (call.args or call.keywords) or NARROWING in model.options.silenced:
        return  # the dtype argument decides the result, whatever the data
    if (jax_function and module.startswith("jax.numpy")) or qualname == "jax.device_put" \
            or _is_jitted_call(model, call, qualname):
        wide = next((v.dtype for v in map(model.value, _data_arguments(call))
                     if v.kind is NUMPY and v.dtype in NARROW), None)
        if wide:
            _narrowed(narrowed, call, wide)


def _layer_dtype(model, call, qualname):
    """The 64-bit dtype a framework layer's construction gives one of its dtype options (measured,
    ``result_dtype``: ``nn.Dense(4, param_dtype=jnp.float64)``), which the layer asks JAX for when it
    initialises or computes; else None."""
    options = (api.framework_layers()[qualname].get("result_dtype") or {}).get("options", {})
    given = [k.value for k in call.keywords if k.arg in options] \
        + [arg for at, arg in enumerate(call.args) if at in options.values() and type(arg) is not ast.Starred]
    wide = [dtype for dtype, python_type in map(model.dtype_of, given) if not python_type and dtype in NARROW]
    return wide[0] if wide else None


def _defaulted_dtype(model, call, qualname):
    """(dtype, what the message adds) when the call's dtype is a parameter of the function around
    it whose default is a dtype (``def make(n, dtype=np.float64)``) and a call of that function in
    this file keeps the default: that call truncates, whatever other callers pass. Else (None, "")."""
    slot = 0 if qualname is None else dtypes.dtype_slot(qualname)  # (x.astype(dtype))
    expr = next((k.value for k in call.keywords if k.arg in ("dtype", "new_dtype")),
                call.args[slot] if slot is not None and slot < len(call.args) else None)
    func = model.enclosing_function(call)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None, ""
    if type(expr) is ast.Attribute and type(expr.value) is ast.Name:
        return _passed_dtype(model, func, expr)
    if not isinstance(expr, ast.Name):
        return None, ""
    bindings = model.scope(func).bindings.get(expr.id, ())
    default = defaults(func).get(expr.id)
    if default is None or len(bindings) != 1 or bindings[0].kind is not BindingKind.PARAM:
        return None, ""
    dtype, python_type = model.dtype_of(default)
    keeping = None if python_type or dtype not in NARROW else _call_keeping_default(model, func, expr.id)
    if keeping is None:
        return None, ""
    return dtype, f" ('{expr.id}' defaults to {ast.unparse(default)}, which the call {keeping} keeps)"


def _passed_dtype(model, func, expr):
    """(dtype, what the message adds) when ``expr`` reads a field of a parameter of the top-level
    ``func`` (``cfg.param_dtype``) that a call in another module gives an instance of a dataclass
    whose field defaults to a 64-bit dtype (``init_params(key, PreciseModelConfig())``): that call
    truncates, whatever other callers pass. Else (None, "")."""
    param, bindings = expr.value.id, model.scope(func).bindings.get(expr.value.id, ())
    if model.project is None or model.parent(func) is not model.tree or len(bindings) != 1 \
            or bindings[0].kind is not BindingKind.PARAM:
        return None, ""
    passed = model.project.passed_dtypes(func.name, positional_names(func), param, expr.attr)
    for dtype, python_type, cls, path, line in passed:
        if not python_type and dtype in NARROW:
            return dtype, f" ('{ast.unparse(expr)}' is {dtype} in the {cls} that the call in {path}:{line} gives)"
    return None, ""


def _call_keeping_default(model, func, param):
    """Where a call of ``func`` leaves ``param`` to its default: the first such call in this
    file ("on line 12"), else, for a top-level function, one in another module of the
    project ("in pkg/train.py:12"); None when there is none."""
    names = positional_names(func)
    for call in model.nodes(ast.Call):
        if model.callee(call.func) is not func or any(k.arg is None or k.arg == param for k in call.keywords) \
                or any(isinstance(a, ast.Starred) for a in call.args):
            continue
        shown = positional_names(func, isinstance(call.func, ast.Attribute))
        if param not in shown or shown.index(param) >= len(call.args):
            return f"on line {call.lineno}"
    if model.project is None or model.parent(func) is not model.tree:
        return None
    elsewhere = model.project.kept_defaults(func.name, param, names.index(param) if param in names else None)
    return f"in {elsewhere[0][0]}:{elsewhere[0][1]}" if elsewhere else None


def _requested_dtype(model, call, qualname):
    """(given, dtype, spelled_as_python_type) for a JAX function or array method call."""
    if qualname is None and call.func.attr == "astype" and call.args:  # x.astype(dtype)
        return (True, *model.dtype_of(call.args[0]))
    return model.requested_dtype(call, qualname)


def _is_jax_method(model, call, qualname):
    """``x.astype(...)``, ``x.sum(dtype=...)`` on a JAX array (traced or not), for a method call that
    passes something ``_requested_dtype`` may read a dtype from: asked first, as only then can the
    answer, which may need a forward pass, change a finding. A call with a qualified name
    (``np.zeros``) is a module's function: its value is not asked."""
    return qualname is None and isinstance(call.func, ast.Attribute) and _may_pass_dtype(call) \
        and model.value(call.func.value).kind in JAX_ARRAY_KINDS


def _may_pass_dtype(call):
    """An ``astype`` argument, ``dtype=`` (``new_dtype=``), ``*args``/``**kwargs``, or a later
    positional argument that can spell a dtype (a string, a name, an attribute)."""
    return (call.func.attr == "astype" and bool(call.args)) or any(type(a) is ast.Starred for a in call.args) \
        or any(k.arg in (None, "dtype", "new_dtype") for k in call.keywords) \
        or any(type(a) in (ast.Name, ast.Attribute) or type(a) is ast.Constant and type(a.value) is str
               for a in call.args[1:])


def _is_jitted_call(model, call, qualname):
    """A call of a jitted def of this file, or of a name bound to ``jax.jit(f)``: a function with a
    qualified name never holds that (the forward pass gives a name an import binds a Python
    value), so its value, which may need a forward pass, is not asked."""
    callee = model.callee(call.func)
    return (callee is not None and callee in model.jitted_callables) \
        or (qualname is None and model.array_value(call.func).kind is JAX_TREE)


def _data_arguments(call):
    for arg in list(call.args) + [k.value for k in call.keywords]:
        if isinstance(arg, ast.Starred):
            arg = arg.value
        if isinstance(arg, (ast.List, ast.Tuple)):
            yield from arg.elts
        else:
            yield arg
