"""What library code returns: the value kind and dtype of ``jnp.zeros(3)``,
``np.asarray(x)``, ``x.astype(jnp.int8)``, ``a + b``.

The dataflow engine (``values``) asks these functions about calls, methods,
attributes and operators; it passes itself as ``flow`` for the name model
(``flow.names``), the values seen so far (``flow.values``) and the x64 setting.
"""
import ast
from functools import lru_cache

from .. import api
from ..facts import (DEVICE_PRESERVING, JAX_ARRAY_MODULES, KEPT_FLOATS, TREE_LEAVES, TREE_MAPS,
                     UNPROBED_NON_ARRAY_FUNCTIONS)
from . import containers, dtypes
from .kinds import (ARRAYS, EACH, GENERATOR, JAX, JAX_TREE, NNX_GRAPH, NUMPY, ON_DEVICE, PYTHON, PYTHON_VALUE,
                    TRACED, TRACER, TRACER_TREE, TREES, UNKNOWN, UNKNOWN_VALUE, Shaped, Value)

SAME_KIND_ATTRIBUTES = frozenset({"T", "mT", "real", "imag", "flat"})
PYTHON_INT = Value(PYTHON, "int64", weak=True)  # a Python int: x.ndim, an item of x.shape, a range() counter
DATA_ARGUMENT_FUNCTIONS = frozenset({"array", "asarray", "asanyarray", "ascontiguousarray", "copy"})
GENERATOR_CONSTRUCTORS = frozenset({"numpy.random.default_rng", "numpy.random.Generator"})
NUMPY_ARRAY_MODULES = frozenset({"numpy", "numpy.linalg", "numpy.fft", "numpy.random"})
_ARRAY_FUNCTION_MODULES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.")
MATH_CONSTANTS = frozenset({"pi", "e", "inf", "nan", "euler_gamma"})
PYTHON_BUILTINS = frozenset({"float", "int", "bool", "complex", "len", "str", "repr", "range", "isinstance",
                             "hasattr", "type"})
# A mapping's views that give its values (a jitted result's ``metrics.items()``: pairs of a key and a subtree).
MAPPING_VIEWS = frozenset({"items", "values"})
# The methods of a dict that read it and change nothing (``d.get("w")``, ``d.items()``).
MAPPING_READS = MAPPING_VIEWS | {"get", "keys"}
SHAPE_PRESERVING_METHODS = frozenset({"copy", "reshape", "ravel", "flatten", "transpose", "squeeze", "swapaxes",
                                      "block_until_ready", "clip", "round", "conj", "repeat", "take", "sort",
                                      "max", "min"})
TREE_FUNCTIONS = TREE_MAPS | TREE_LEAVES  # see tree_call
DTYPE_CHANGING_METHODS = frozenset({"sum", "prod", "cumsum", "cumprod", "mean", "std", "var", "dot", "any",
                                    "all", "argmax", "argmin", "argsort", "nonzero"})


def call(flow, call_node, qualname, args, traced_result):
    """The Value of a call to a known library function, or None when the library does not say;
    ``traced_result``: whether an array it gives is a tracer (a traced argument, or a trace that
    stages the function's constants)."""
    module, _, name = qualname.rpartition(".")
    if qualname in flow.context.staging_transforms:
        return Value(JAX_TREE)  # f2 = jax.jit(f): calling f2 gives device arrays
    if module in JAX_ARRAY_MODULES:
        if name in non_array_functions():
            return PYTHON_VALUE
        if name in api.tree_result_functions() and not (args and args[0].kind in ARRAYS):
            # pmean(info) has info's structure: one array only when info is one
            return Value(TRACER_TREE if traced_result else JAX_TREE)
        tuple_result = name in api.tuple_result_functions() and not (name == "where" and len(args) > 1)
        if tuple_result or qualname in api.lax_bodies() or qualname == "jax.lax.sort":
            # one-argument where is nonzero (a tuple); lax control flow returns its body's
            # pytree; lax.sort of several operands a tuple
            return Value(TRACER_TREE if traced_result else JAX_TREE)
        # jnp.array(1.0) keeps the Python scalar's weak type
        weak = name in DATA_ARGUMENT_FUNCTIONS and bool(args) and args[0].weak \
            and not any(k.arg == "dtype" for k in call_node.keywords) and len(call_node.args) == 1
        return Value(TRACER if traced_result else JAX, _jax_dtype(flow, call_node, qualname, name), weak)
    if module == "jax.random":
        given, dtype = _requested_dtype(flow, call_node, qualname)
        if not given:
            dtype = api.random_dtypes().get(qualname)  # float64: the default float, narrowed below unless x64
        return Value(TRACER if traced_result else JAX, dtypes.on_jax(dtype, flow.x64) if dtype else None)
    if qualname == "jax.device_put":
        return _put(args[0], flow.x64) if args and args[0].members and not traced_result \
            else Value(TRACER_TREE if traced_result else JAX_TREE)
    if qualname in api.framework_array_functions():  # optax.global_norm(grads): one array
        on_device = any(v.kind in ON_DEVICE for v in args)
        return Value(TRACER) if traced_result else Value(JAX) if on_device else None
    if qualname in api.framework_rebuilders() and any(v.traced for v in args):
        return Value(TRACER_TREE)  # nnx.merge(graphdef, params) of traced params: an object of tracers
    if qualname in api.framework_module_arrays() and args and args[0].kind is NNX_GRAPH:
        return Value(JAX_TREE)  # nnx.state(model) after an nnx.jit step: the Module's device arrays
    methods = api.framework_array_methods().get(qualname, {}).get("methods")
    if methods and flow.traced is None:  # optax.MultiSteps(...): in host code, has_updated(state) a device bool
        return Shaped(UNKNOWN, members=tuple((("call", name), Value(JAX, dtype)) for name, dtype in methods.items()))
    if qualname in DEVICE_PRESERVING and args and args[0].kind in (JAX, JAX_TREE):
        return Value(args[0].kind)  # unreplicate(state): still on the device
    if qualname in GENERATOR_CONSTRUCTORS:
        return Value(GENERATOR)
    if module in NUMPY_ARRAY_MODULES:
        if name in non_array_functions():
            return PYTHON_VALUE
        if qualname in api.numpy_gives_jax_array() and args and args[0].kind in (TRACER, JAX):
            return Value(TRACER if traced_result else JAX)  # np.sum(x) runs x.sum(): still a JAX array
        if name not in DATA_ARGUMENT_FUNCTIONS and any(v.kind in (TRACER, TRACER_TREE, JAX, JAX_TREE)
                                                       or v.kind is UNKNOWN and (flow.traced is not None or qualname
                                                                                 in api.numpy_gives_jax_array())
                                                       for v in args):
            return UNKNOWN_VALUE  # NumPy may dispatch to the array's own method (in host code: those measured to)
        if module == "numpy.random" and not call_node.args and not call_node.keywords:
            return _one_draw(api.numpy_random_dtypes()["legacy"].get(name))
        return Value(NUMPY, _numpy_dtype(flow, call_node, qualname, args))
    if qualname == containers.DEFAULT_DICT and call_node.args:  # defaultdict(list)
        return containers.defaulting(flow.names.qualname(call_node.args[0]))
    if qualname == "builtins.isinstance" and len(args) == 2 and args[0].kind in (TRACER, TRACER_TREE):
        return _tracer_instance(flow, call_node.args[1])
    if module == "builtins" and name in PYTHON_BUILTINS:
        return PYTHON_VALUE
    if qualname == "builtins.sum" and len(args) == 1:
        return _summed(args[0])
    return None


def body_call(call, qualname, position, body):
    """The call of ``body``, the function given at ``position`` of the control-flow ``call`` (of
    ``qualname``), written with the arguments that reach its parameters (``api.control_flow_operands``:
    ``lax.scan(step, init, xs)`` runs ``step(init, xs[i])``; None for an argument not given), or None
    when that position runs nothing known."""
    operands = api.control_flow_operands().get(qualname, {}).get(str(position))
    if not operands:
        return None
    count = len(call.args)
    arguments = [None] * (1 + max(int(index) for index in operands))
    for index, at in operands.items():
        arguments[int(index)] = call.args[at] if at < count else None
    return ast.copy_location(ast.Call(func=body, args=arguments, keywords=[]), call)


def traced_bodies(call_node, qualname):
    """{argument position: how many arguments, every one an abstract tracer, the function given there
    receives (None: as many as the call passes on)}, for a call of a JAX function that traces the
    functions it is given (``api.body_calls``) with the positional literals the measure needs
    (``jnp.apply_along_axis(f, 1, x)``; a keyword is not read)."""
    facts = api.body_calls().get(qualname)
    if facts is None:
        return {}
    args = call_node.args
    starred = any(type(a) is ast.Starred for a in args)  # (then no position is known)
    literals = {} if starred else {index: arg.value for index, arg in enumerate(args)
                                   if type(arg) is ast.Constant and type(arg.value) is int}
    if any(literals.get(int(slot)) != value for slot, value in facts["when"].items()):
        return {}
    exact = len(args) == facts["given"] and not call_node.keywords and not starred
    return {int(position): count if exact else None for position, count in facts["receives"].items()}


def _tracer_instance(flow, classes):
    """``isinstance(x, float)`` of a tracer, or of a tree of them: False when every class named is a
    builtin that no tracer, nor pytree container, is an instance of (measured), so what the test
    guards never runs under the trace."""
    names = classes.elts if type(classes) is ast.Tuple else [classes]
    qualnames = [flow.names.qualname(name) or "" for name in names]
    if all(q.startswith("builtins.") and q[len("builtins."):] in api.types_no_tracer_is() for q in qualnames):
        return Value(PYTHON, truth=False)
    return PYTHON_VALUE


def _summed(items):
    """``sum(x[i] for i in ...)``: ``0 + item + ...`` of arrays is an array (unless there are none)."""
    item = items if items.kind in ARRAYS else items.member(EACH)
    if item is None or item.kind not in (TRACER, TRACER_TREE, JAX, JAX_TREE):
        return None
    return Value(TRACER if item.kind in (TRACER, TRACER_TREE) else JAX)


def gives_array(qualname):
    """True when ``call`` may give an array for a function of this name (the library
    modules and constructors it knows; transforms are the model's to say)."""
    module, _, name = qualname.rpartition(".")
    return module in JAX_ARRAY_MODULES or module in NUMPY_ARRAY_MODULES or module == "jax.random" \
        or qualname == "jax.device_put" or qualname in GENERATOR_CONSTRUCTORS \
        or qualname in api.framework_array_functions()


def stages_constants(qualname):
    """Whether the function binds a JAX primitive whatever it is given, so that in a staging trace
    it gives a tracer even of constants (``jnp.arange(n) < 3`` under jit, n static). Not jax.lax's:
    ``lax.psum(1, axis)`` of a constant is the axis size, a Python number."""
    module = qualname.rpartition(".")[0]
    return module in JAX_ARRAY_MODULES and module != "jax.lax" or module == "jax.random"


def keeps_arguments(qualname):
    """A builtin or an array library function: it changes no container it is given."""
    return qualname.startswith("builtins.") or gives_array(qualname)


@lru_cache(maxsize=1)
def non_array_functions():
    return api.non_array_functions() | UNPROBED_NON_ARRAY_FUNCTIONS


def array_function(name):
    """Whether the function of that dotted name gives a JAX array (``jnp.ones``, ``jax.random.normal``)."""
    return name.startswith(_ARRAY_FUNCTION_MODULES) and name.rsplit(".", 1)[1] not in non_array_functions()


def tree_call(flow, call_node, qualname, args, env):
    """``jax.tree.leaves(state)`` and ``jax.tree.map(lambda v: v.mean(), metrics)`` of a tree whose every
    leaf is an array: device data (a jitted result) in host code, a traced tree (``grads`` of ``jax.grad``)
    in traced code: a list of such arrays, and a tree of them where the lambda gives one for such a leaf.
    Unknown otherwise (``is_leaf=``, a mapped def, a tree not known to hold only arrays)."""
    if call_node.keywords or any(type(a) is ast.Starred for a in call_node.args):
        return UNKNOWN_VALUE
    leaf = _LEAVES.get(args[0].kind) if args else None
    if qualname in TREE_LEAVES:
        return Shaped(JAX_TREE if leaf.kind is JAX else TRACER_TREE, members=((EACH, leaf),)) \
            if len(args) == 1 and leaf else UNKNOWN_VALUE
    mapped, trees = call_node.args[0] if args else None, args[1:]
    leaf = _LEAVES.get(trees[0].kind) if trees else None
    if type(mapped) is not ast.Lambda or leaf is None:
        return UNKNOWN_VALUE
    params = mapped.args
    if params.vararg or params.kwarg or params.kwonlyargs or params.defaults \
            or len(params.posonlyargs) + len(params.args) != len(trees):
        return UNKNOWN_VALUE
    leaves = env.branch()
    for param, tree in zip(params.posonlyargs + params.args, trees):
        leaves[param.arg] = _LEAVES.get(tree.kind, UNKNOWN_VALUE)
    if flow.eval(mapped.body, leaves).kind is not leaf.kind:
        return UNKNOWN_VALUE
    return Value(trees[0].kind)  # the first tree's structure: one array for an array


# The leaf of a tree whose every leaf is an array, by the tree's kind.
_LEAVES = {JAX: Value(JAX), JAX_TREE: Value(JAX), TRACER: Value(TRACER), TRACER_TREE: Value(TRACER)}


def attribute(flow, expr, base):
    """The Value of ``base_expr.attr`` given the base's Value."""
    if base.kind is NNX_GRAPH:  # model.count.value after an nnx.jit step: a device array
        return Value(JAX) if expr.attr == "value" else base
    if base.members and base.member(("attr", expr.attr)) is not None:
        return base.member(("attr", expr.attr))  # state.loss of a jitted result
    if base.kind in ARRAYS or base.kind in TREES:
        integer = api.integer_attributes().get(expr.attr) if base.kind in ARRAYS else None
        if integer is not None:  # x.ndim, x.shape: Python ints (weakly typed), as measured
            return PYTHON_INT if integer == "int" else Shaped(PYTHON, container="tuple", members=((EACH, PYTHON_INT),))
        if expr.attr in api.static_attributes():
            return PYTHON_VALUE
        if expr.attr in SAME_KIND_ATTRIBUTES and base.kind in ARRAYS:
            return Value(base.kind, base.dtype)
        if base.kind in TREES and expr.attr in api.framework_state_fields() and _optimiser_subtree(expr):
            return Value(base.kind)  # state.opt_state.inner_state: a subtree of an optimiser's state
        return UNKNOWN_VALUE
    qualname = flow.names.qualname(expr)
    if qualname and qualname.startswith(("jax.numpy.", "numpy.")) and qualname.rsplit(".", 1)[1] in MATH_CONSTANTS:
        return Value(PYTHON, "float64", weak=True)
    dtype = dtypes.dtype_constructor(qualname)
    if dtype:
        return Value(PYTHON, dtype)  # a dtype object such as jnp.float32
    if qualname and flow.context.numpy_resolver is not None and flow.context.numpy_resolver(expr):
        return Value(NUMPY)  # config.MASK: another project module's NumPy constant
    if type(expr.ctx) is ast.Load and type(expr.value) is ast.Name:
        if flow.traced is None and flow.context.layer_field_on_device(expr):
            return Value(JAX)  # model.weight of model = eqx.nn.Linear(...) in host code
        return flow.context.stored_value(expr)  # foo.factors, stored from a jitted call in foo.fit()
    return UNKNOWN_VALUE


def _optimiser_subtree(expr):
    """Whether the attribute ``expr`` reads a field of an optimiser's state (``framework_state_fields``)
    reached from a framework record's field through such fields and items (``state.opt_state.inner_state[0]
    .mu``): of another tree the name says nothing (``out.params`` of a class not known)."""
    node = expr.value
    while type(node) in (ast.Attribute, ast.Subscript):
        if type(node) is ast.Attribute and node.attr not in api.framework_state_fields():
            return any(node.attr in record["fields"] for record in api.framework_records().values())
        node = node.value
    return False


def subscript(flow, expr, base, index):
    """The Value of ``expr``, ``base_expr[index_expr]``, given the Values of its two parts."""
    if base.container:
        return containers.item(base, expr.slice) or UNKNOWN_VALUE
    if base.members and type(expr.slice) is ast.Constant:
        part = base.member(("item", expr.slice.value))
        if part is not None:
            return part
    if base.kind in ARRAYS:
        return operated(flow, Value(base.kind, base.dtype))
    if base.kind is PYTHON and not base.members:
        return PYTHON_VALUE  # x.shape[:1], a string's character
    if base.kind is NNX_GRAPH and type(expr.slice) is ast.Constant and expr.slice.value is Ellipsis:
        return Value(JAX)  # model.count[...]: a Variable's value
    if index.kind in TRACED and _indexes_like_an_array(flow, expr.value):
        return Value(TRACER, base.dtype)  # only an array takes a tracer index (a list, dict or NumPy array raises)
    if base.dtype is not None and base.kind is UNKNOWN:
        return base  # an array field of a Module, traced or not (``conventions.module_self``)
    if base.kind in TREES:
        return Value(base.kind)
    return UNKNOWN_VALUE


def declared(flow, call, given):
    """What ``obj.method(...)`` gives where ``obj``'s Value says (``given``): a Linen ``self.param(name,
    init, shape, ...)`` in a staged trace (a tracer) with the dtype ``param_dtype`` reads, as JAX
    gives it; else ``given``."""
    if given.kind is not TRACER or call.func.attr != "param":
        return given
    dtype = param_dtype(flow.names, flow.context.dtype_resolver, flow.values.get, call)
    return Value(TRACER, dtypes.on_jax(dtype, flow.x64)) if dtype else given


def param_dtype(names, resolver, value_of, call):
    """The dtype a Linen ``self.param(name, init, shape, ...)`` asks JAX for, as its initializer was
    measured (``framework_param_initializers``): the one an argument asks for where the measure found
    it honoured (``self.param("s", ones, shape, jnp.float16)``, a factory's ``dtype=``), else its
    default; None where another argument may ask for one. Only ``param`` was measured so: another
    method that gives a tracer (``traced_self_methods``) takes other arguments."""
    init = call.args[1] if len(call.args) > 1 else None
    factory = type(init) is ast.Call
    facts = api.framework_param_initializers().get(names.qualname(init.func if factory else init)) \
        if init is not None else None
    if facts is None or (facts["factory"] is None) == factory or any(type(a) is ast.Starred for a in call.args):
        return None
    asked = [k.value for k in call.keywords if k.arg == "dtype"] + call.args[facts["dtype_at"]:]
    if any(k.arg not in ("dtype", "unbox") for k in call.keywords) or len(asked) > 1 \
            or asked and not facts["dtype_honoured"]:
        return None
    if factory:
        built = [k.value for k in init.keywords if k.arg == "dtype"]
        if any(_asks_dtype(value_of, a) for a in init.args) or any(k.arg is None for k in init.keywords) \
                or built and not facts["dtype_keyword"]:
            return None  # normal(0.02, jnp.float16): a positional dtype
        asked = asked or built
    return dtypes.dtype_of(asked[0], names, resolver, value_of)[0] if asked else facts["default"]


def _asks_dtype(value_of, expr):
    """Whether ``expr`` may name a dtype: anything but a number or a sequence of them."""
    value = value_of(expr) or UNKNOWN_VALUE
    return not (value.weak or value.container and all(v.weak for _, v in value.members or ()))


def _python_number(value):
    """Whether ``value`` is a Python int or float (``scalar_results`` measured these, not bools nor complexes)."""
    return value is not None and value.weak and value.dtype in ("int64", "float64")


def _indexes_like_an_array(flow, indexed):
    """Whether ``indexed[i]`` with a traced ``i`` can only be an array's index, a tracer, where it does not
    raise (a list's, tuple's, dict's and NumPy array's do): not ``x.at[i]`` (an update reference) nor a
    library object's (``np.s_[i]``, ``jnp.index_exp[i]`` give a tuple)."""
    return not (type(indexed) is ast.Attribute and indexed.attr == "at") and flow.names.qualname(indexed) is None


def method(flow, call_node, base, traced_result):
    """The Value of ``array.method(...)`` on an array or pytree ``base`` (``traced_result``: as in ``call``)."""
    name = call_node.func.attr
    if name in api.python_result_methods():
        return PYTHON_VALUE
    if name in MAPPING_VIEWS and base.kind in TREES:  # a tree with .items() is a mapping of subtrees
        return containers.holding("dict", Value(base.kind)).member(("call", name))
    kind = base.kind
    if kind is TRACER_TREE:
        kind = TRACER
    elif kind is JAX_TREE:
        kind = TRACER if traced_result else JAX
    elif traced_result and kind is JAX:
        kind = TRACER
    if name == "astype" and call_node.args:
        dtype, _ = dtypes.dtype_of(call_node.args[0], flow.names, flow.context.dtype_resolver, flow.values.get)
        return Value(kind, dtypes.on_jax(dtype, flow.x64) if dtype and kind is not NUMPY else dtype)
    if name in SHAPE_PRESERVING_METHODS:
        return Value(kind, base.dtype)
    if name in DTYPE_CHANGING_METHODS:
        return Value(kind)
    return UNKNOWN_VALUE if base.kind in TREES else Value(kind)


def generator_method(flow, call_node):
    """``rng.normal(...)`` on a NumPy Generator: NumPy data of the method's default dtype."""
    given, dtype = _requested_dtype(flow, call_node, None)
    if not given:
        dtype = api.numpy_random_dtypes()["generator"].get(call_node.func.attr)
        if not call_node.args and not call_node.keywords:
            return _one_draw(dtype)
    return Value(NUMPY, dtype) if dtype or given else UNKNOWN_VALUE


def _put(given, x64):
    """What ``jax.device_put`` gives for a tuple whose items are known (``jax.device_put(make_data())``):
    the same tuple on the device, each array (an item of unknown kind with a dtype: an ``astype``'s
    result) with its dtype as JAX reads it."""
    items = [(key, value) for key, value in given.members if key[0] == "item"] \
        if given.container in (None, "tuple") else ()
    arrays = [value.kind in (NUMPY, JAX) or value.kind is UNKNOWN and value.dtype for _, value in items]
    return Shaped(JAX_TREE, members=tuple(
        (key, Value(JAX, dtypes.on_jax(value.dtype, x64), value.weak) if array else UNKNOWN_VALUE)
        for (key, value), array in zip(items, arrays))) if items else Value(JAX_TREE)


def _one_draw(dtype):
    """A NumPy sampler called without a size draws one Python scalar (``np.random.normal()`` is a
    ``float``), weakly typed in JAX: not NumPy data."""
    return Value(PYTHON, dtype, weak=True) if dtype else UNKNOWN_VALUE


def at_update(flow, func, traced_result):
    """``x.at[i].set(v)`` and friends: a new array of x's kind and dtype (None if not one)."""
    indexed = func.value
    if isinstance(indexed, ast.Subscript) and isinstance(indexed.value, ast.Attribute) \
            and indexed.value.attr == "at":
        base = flow.values.get(indexed.value.value, UNKNOWN_VALUE)
        if base.kind in (TRACER, JAX, TRACER_TREE, JAX_TREE):
            return Value(TRACER if traced_result or base.traced else JAX, base.dtype)
    return None


def operated(flow, value):
    """The Value of an operator applied to ``value``: a JAX array's operators bind primitives, so in
    a staging trace they give a tracer even of a concrete array (a module constant), as its
    functions do (``stages_constants``)."""
    return Value(TRACER, value.dtype) if value.kind is JAX and flow.staged else value


def binop(flow, left, right, op=None):
    """The Value of ``left op right``."""
    kinds = (left.kind, right.kind)
    if TRACER in kinds or TRACER_TREE in kinds:
        # Arithmetic with a tracer gives a tracer, unless the other side is a
        # Python container (``carry + [x]`` concatenates lists).
        if any(v.kind is PYTHON and not v.weak for v in (left, right)):
            return Value(TRACER_TREE)
        return Value(TRACER, _promoted(flow, left, right, op, TRACER))
    if UNKNOWN in kinds:
        return UNKNOWN_VALUE
    for kind in (JAX, NUMPY):
        if kind in kinds:
            other = kinds[1] if kinds[0] is kind else kinds[0]
            if kind is NUMPY and other not in (PYTHON, NUMPY):
                break
            return operated(flow, Value(kind, _promoted(flow, left, right, op, kind)))
    if JAX_TREE in kinds:
        return Value(JAX_TREE)
    if kinds == (PYTHON, PYTHON):
        return PYTHON_VALUE
    return UNKNOWN_VALUE


def compare(flow, expr, operands):
    """The Value of a comparison whose operands have the Values ``operands``."""
    if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in expr.ops):
        return PYTHON_VALUE
    constants = [expr.left] + expr.comparators
    if any(isinstance(c, ast.Constant) and not isinstance(c.value, (int, float, complex)) for c in constants):
        return PYTHON_VALUE  # compared with None or a string: Python answers
    ordering = all(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in expr.ops)
    if ordering and any(v.kind is JAX_TREE for v in operands) and not any(v.traced for v in operands):
        return operated(flow, Value(JAX, "bool"))  # a jitted result that can be ordered is an array
    for kind in ARRAYS:
        if any(v.kind is kind for v in operands):
            return operated(flow, Value(kind, "bool"))
    if any(v.kind is TRACER_TREE for v in operands) and all(v.kind in (TRACER_TREE, PYTHON) for v in operands):
        if any(v.kind is PYTHON and v.weak for v in operands):
            return Value(TRACER, "bool")
    if all(v.kind is PYTHON for v in operands):
        return PYTHON_VALUE
    return UNKNOWN_VALUE


def _promoted(flow, left, right, op, kind):
    """The dtype of ``left op right`` where both dtypes are known, else None."""
    if left.dtype is None or right.dtype is None or (left.weak and right.weak):
        return None
    numpy = kind is NUMPY
    if left.weak or right.weak:  # a Python scalar takes the array's dtype unless it is of a higher kind
        scalar, array = (left, right) if left.weak else (right, left)
        result = array.dtype if dtypes.kind_rank(scalar.dtype) <= dtypes.kind_rank(array.dtype) else None
    else:
        a, b = (left.dtype, right.dtype) if numpy else (dtypes.on_jax(left.dtype, flow.x64),
                                                        dtypes.on_jax(right.dtype, flow.x64))
        result = dtypes.promote(a, b, numpy=numpy)
    if result is not None and isinstance(op, ast.Div) and dtypes.kind_rank(result) < dtypes.kind_rank("float64"):
        result = "float64"  # true division of integers gives the default float
    return result if numpy or result is None else dtypes.on_jax(result, flow.x64)


def _jax_dtype(flow, call_node, qualname, name):
    given, dtype = _requested_dtype(flow, call_node, qualname)
    if given:
        return dtypes.on_jax(dtype, flow.x64) if dtype else None
    dtype = dtypes.dtype_constructor(qualname)
    if dtype is None and _takes_data_first(qualname, name) and call_node.args:
        source = flow.values.get(call_node.args[0])
        literal = dtypes.literal_dtype(call_node.args[0])
        dtype = literal or (source.dtype or containers.sequence_dtype(source) if source is not None else None)
    elif dtype is None and api.constructor_defaults().get(name) == "float64":
        dtype = "float64"  # the default float, narrowed below unless x64 is on
    elif dtype is None and name in api.bool_result_functions():
        dtype = "bool"
    elif dtype is None and "jax" in api.scalar_results().get(name, ()) and call_node.args and not call_node.keywords \
            and all(type(a) is not ast.Starred and _python_number(flow.values.get(a)) for a in call_node.args):
        scalar = api.scalar_results()[name]["jax"]  # jnp.arange(n) of a Python int: int32, as measured
        dtype = scalar["float" if any(flow.values[a].dtype == "float64" for a in call_node.args) else "int"]
    elif dtype is None and qualname in api.dtype_keeping_functions() and len(call_node.args) == 1 \
            and not call_node.keywords and type(call_node.args[0]) is not ast.Starred:
        source = flow.values.get(call_node.args[0])  # jnp.tanh(h) of a bfloat16 h: bfloat16, as measured
        dtype = source.dtype if source is not None and not source.weak and source.dtype in KEPT_FLOATS else None
    return dtypes.on_jax(dtype, flow.x64) if dtype else None


def _numpy_dtype(flow, call_node, qualname, args):
    given, dtype = _requested_dtype(flow, call_node, qualname)
    if given:
        return dtype
    module, _, name = qualname.rpartition(".")
    if module == "numpy.random":
        return api.numpy_random_dtypes()["legacy"].get(name)
    constructed = dtypes.dtype_constructor(qualname)
    if constructed:
        return constructed
    if _takes_data_first("jax." + qualname, name) and call_node.args:
        return dtypes.literal_dtype(call_node.args[0]) or (args[0].dtype if args and args[0].kind is NUMPY else
                                                           containers.sequence_dtype(args[0]) if args else None)
    scalar = api.scalar_results().get(name)
    if scalar and args and not call_node.keywords and all(value.weak for value in args):
        return scalar["float" if any(value.dtype == "float64" for value in args) else "int"]
    return api.constructor_defaults().get(name)


def _takes_data_first(qualname, name):
    """Whether the function's result holds the data of its first argument, an array or a sequence of
    them: ``jnp.asarray`` and the like, and those whose sequence promotes as one (``jnp.stack(rows)``,
    measured: ``promoting_arguments``), so that data of one dtype gives that dtype."""
    if name in DATA_ARGUMENT_FUNCTIONS:
        return True
    spec = api.promoting_arguments().get(qualname)
    return spec is not None and spec["sequences"] == [0] and not spec["positions"]


def _requested_dtype(flow, call_node, qualname):
    """(given, dtype): a dtype that is given but unreadable leaves the result unknown."""
    given, dtype, _ = dtypes.requested_dtype(call_node, qualname, flow.names, flow.context.dtype_resolver,
                                             flow.values.get)
    return given, dtype
