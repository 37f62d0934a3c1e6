"""JNP604: jnp.where (and lax.select, which it stages) does not stop the nan gradient of the branch
it discards."""
import ast

from .. import api
from ..facts import SELECTS, TREE_MAPS
from ..findings import Finding
from ..model.names import BindingKind
from ..model.syntax import positional_names
from ..model.traced import Behaviour
from . import describe, rule

# Operators and the jax.numpy function whose gradient they share.
OPERATORS = {ast.Div: "jax.numpy.true_divide", ast.Mod: "jax.numpy.mod"}
# Constant exponents of ``**`` and the jax.numpy function whose gradient the power shares.
POWERS = {0.5: "jax.numpy.sqrt"}
NONZERO_CONSTANTS = frozenset(f"{module}.{name}" for module in ("jax.numpy", "numpy", "math") for name in ("pi", "e"))
# Calls whose result is a guarded input: x = jnp.where(x > 0, x, 1.0) makes log(x) safe.
GUARDS = frozenset({"jax.numpy.where", "jax.numpy.clip", "jax.numpy.maximum", "jax.numpy.minimum",
                    "jax.numpy.abs", "jax.numpy.nan_to_num", "jax.lax.stop_gradient"})
CUSTOM_DERIVATIVES = frozenset({"jax.custom_jvp", "jax.custom_vjp"})
SUMS = frozenset({"jax.numpy.sum"})
# Calls zero where their first argument is (a pairwise difference stays zero on the diagonal through them).
ZERO_KEEPING = SUMS | {"jax.numpy.abs", "jax.numpy.linalg.norm", "jax.numpy.linalg.vector_norm", "jax.numpy.sqrt"}
# Calls whose result in a condition selects by the diagonal.
DIAGONALS = frozenset({"jax.numpy.eye", "jax.numpy.identity"})


@rule("JNP604")
def where_nan_gradient(model):
    for func, traced in model.traced.items():
        transform = next((t.name for t in traced.transforms if t.behaviour is Behaviour.DIFFERENTIATING
                          and t.name not in api.where_forward_transforms()), None)
        if transform is None or _custom_derivative(model, func):
            continue
        bodies = [(func, frozenset())] + _mapped_lambdas(model, func)
        for body, leaves in bodies:
            for node in model.own_nodes(body):
                selection = _selection(model, node)
                if selection is None:
                    continue
                shown, condition, branches = selection
                found = _unsafe_branch(model, body, condition, branches, leaves)
                if found is not None:
                    operation, name = found
                    yield Finding.at(node, "JNP604", {
                        "func": shown, "scope": getattr(body, "name", "<lambda>"),
                        "transform": transform, "operation": operation, "name": name})


def _selection(model, node):
    """(what selects, shown; the condition; [(branch, 1 where it is kept where the condition is true,
    2 where it is kept where false)]) for ``jnp.where(c, a, b)``/``lax.select``, and for a boolean
    mask that keeps part of a computed value (``(x ** 0.5)[x > 0]``: what it drops is still
    differentiated, as a where's discarded branch is); else None."""
    if isinstance(node, ast.Call) and len(node.args) == 3 and not node.keywords \
            and model.qualname(node.func) in SELECTS:
        return f"{SELECTS[model.qualname(node.func)]}()", node.args[0], [(node.args[1], 1), (node.args[2], 2)]
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
            and not (isinstance(node.value, ast.Attribute) and node.value.attr == "at"):  # x.at[m] keeps all
        mask = model.value(node.slice)
        if mask.traced and mask.dtype == "bool":
            return f"the boolean mask of {describe(node)}", node.slice, [(node.value, 1)]
    return None


def _mapped_lambdas(model, func):
    """[(lambda, its parameters)] for the lambdas a differentiated function maps over traced
    data (``jax.tree.map(lambda p: ..., params)``, ``jax.vmap(lambda r: ...)(x)``): their
    parameters are leaves or slices of that data, so they are differentiated too."""
    found = []
    for node in model.own_nodes(func):
        if not isinstance(node, ast.Call):
            continue
        if model.qualname(node.func) in TREE_MAPS and node.args and isinstance(node.args[0], ast.Lambda):
            mapped, data = node.args[0], node.args[1:]
        elif isinstance(node.func, ast.Call) and model.qualname(node.func.func) == "jax.vmap" \
                and node.func.args and isinstance(node.func.args[0], ast.Lambda):
            mapped, data = node.func.args[0], node.args
        else:
            continue
        if data and all(not isinstance(d, ast.Starred) and model.value(d).traced for d in data):
            found.append((mapped, frozenset(a.arg for a in mapped.args.args)))
    return found


def _custom_derivative(model, func):
    return any(model.qualname(d) in CUSTOM_DERIVATIVES for d in getattr(func, "decorator_list", ()))


def _unsafe_branch(model, func, condition, branches, leaves=frozenset()):
    """(operation, input name) of an operation in a branch whose gradient is nan where the
    condition excludes it: its input is zero (or, for an overflowing function, unbounded) there
    and not guarded first. The branch is followed into the values that names hold at the
    selection and into same-file functions that return one expression of their parameters."""
    tested = _tested_names(model, func, condition)
    diagonal = any(isinstance(n, ast.Call) and model.qualname(n.func) in DIAGONALS
                   for n in _through_values(model, func, condition))
    unsafe, jointly, overflowing = api.where_unsafe_functions(), api.where_unsafe_jointly(), api.where_overflowing()
    followed = set()
    # (expression, the helper's arguments by parameter, the branch: 1 discarded where the condition is false)
    stack = [(branch, None, position) for branch, position in reversed(branches)]
    while stack:
        node, arguments, position = stack.pop()
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and arguments is None:
            value = _reaching_value(model, func, node)
            if value is not None and value not in followed:
                followed.add(value)
                stack.append((value, None, position))
            continue
        if isinstance(node, ast.Call) and model.qualname(node.func) in GUARDS:
            continue  # a nested where guards what it holds
        found = _singular(model, func, node, unsafe, jointly, tested, diagonal, arguments, leaves) \
            or _overflow(model, func, node, overflowing, condition, position, arguments, leaves)
        if found is not None:
            return found
        if isinstance(node, ast.Call) and arguments is None:
            returned = _returned_expression(model, node)
            if returned is not None:
                stack.append((*returned, position))
        stack.extend((child, arguments, position) for child in ast.iter_child_nodes(node))
    return None


def _singular(model, func, node, unsafe, jointly, tested, diagonal, arguments, leaves):
    """(operation, input name) when ``node`` has an infinite slope where an input is zero and the
    condition excludes that point: it tests the name the input is zero with, or masks the
    diagonal (``jnp.eye``) where a pairwise difference is zero."""
    operation, inputs, every = _unsafe_operation(model, node, unsafe, jointly)
    hits = []
    for expr in inputs:
        zero = _zero_at(model, func, expr)
        if zero is None:
            continue
        name, on_diagonal = zero
        name = _caller_name(name, arguments)
        if name is not None and (diagonal if on_diagonal else name.id in tested) \
                and not _guarded(model, func, name):
            hits.append((expr if on_diagonal and isinstance(expr, ast.Name) else name, name))
    others = _other_inputs(model, node, arguments)
    differentiated = [shown for shown, name in hits if _differentiated(model, name, leaves)
                      or any(_differentiated(model, other, leaves) for other in others)]
    if differentiated and (not every or len(hits) == len(inputs)):  # arctan2: nan only where both are 0
        return operation, differentiated[0].id
    return None


def _other_inputs(model, node, arguments):
    """The names in the arguments whose slope is infinite too where an unsafe input is singular
    (``a`` in ``a / b``, measured: its slope is ``1 / b``)."""
    if isinstance(node, ast.Call):
        qualname, operands = model.qualname(node.func), node.args
    elif isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        qualname, operands = OPERATORS[type(node.op)], (node.left, node.right)
    else:
        return []
    names = [n for expr in _positional(operands, api.where_unsafe_others().get(qualname, ()))
             for n in ast.walk(expr) if isinstance(n, ast.Name)]
    return [found for found in (_caller_name(n, arguments) for n in names) if found is not None]


def _overflow(model, func, node, overflowing, condition, position, arguments, leaves):
    """(operation, input name) for ``jnp.exp(-t / tau)`` kept where ``t > 0``: on the discarded side
    ``t`` is unbounded below, the argument above, and exp's value and slope overflow to inf, which
    makes nan the gradient of whatever the argument is computed from (``t`` or ``tau``)."""
    if not isinstance(node, ast.Call) or len(node.args) != 1 or model.qualname(node.func) not in overflowing:
        return None
    compared = _compared(condition)
    if compared is None:
        return None
    name, true_side = compared
    sign = _sign_in(node.args[0], name.id)
    discarded_side = -true_side if position == 1 else true_side
    if sign is None or sign * discarded_side not in overflowing[model.qualname(node.func)]:
        return None
    if arguments is not None or _guarded(model, func, name):
        return None  # inside a helper the condition's names are not its parameters
    if not any(isinstance(n, ast.Name) and _differentiated(model, n, leaves) for n in ast.walk(node.args[0])):
        return None  # the inf slope reaches every input of the argument: tau's gradient too
    return describe(node.func) + "()", name.id


def _differentiated(model, name, leaves):
    """Whether ``name`` holds a differentiated tracer: traced, and not computed only from what the
    differentiating transforms leave alone (a jitted and differentiated loss's target)."""
    return name.id in leaves or model.value(name).traced and not model.undifferentiated(name)


def _unsafe_operation(model, node, unsafe, jointly):
    """(operation shown, input expressions, whether all must be tested) for a call or operator
    whose gradient is nan at some value of those inputs; ([], False) inputs otherwise."""
    if isinstance(node, ast.Call):
        qualname = model.qualname(node.func)
        operation = describe(node.func) + "()"
        if qualname in jointly:
            return operation, _positional(node.args, jointly[qualname]), True
        return operation, _positional(node.args, unsafe.get(qualname, ())), False
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        return describe(node), _positional((node.left, node.right), unsafe.get(OPERATORS[type(node.op)], ())), False
    if isinstance(node, ast.BinOp) and type(node.op) is ast.Pow and type(node.right) is ast.Constant \
            and node.right.value in POWERS:
        return describe(node), _positional((node.left,), unsafe.get(POWERS[node.right.value], ())), False
    return None, [], False


def _positional(args, positions):
    return [args[i] for i in positions if i < len(args) and not isinstance(args[i], ast.Starred)]


def _zero_at(model, func, expr):
    """(name, on_diagonal): the name an input is zero with, or the array whose pairwise difference
    it is (zero on the diagonal). The name itself, its negation, the squared norm ``jnp.sum(x**2)``
    (so ``sqrt`` of it is a norm), and ``x[:, None] - x[None, :]`` with its norm or absolute value,
    also held by a name."""
    pairwise = _pairwise_base(model, func, expr)
    if pairwise is not None:
        return pairwise, True
    if isinstance(expr, ast.Name):
        return expr, False
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub) and isinstance(expr.operand, ast.Name):
        return expr.operand, False
    scaled = _scaled(model, expr)
    if scaled is not None:
        return scaled, False
    squared = _squared_sum(model, expr)
    return (squared, False) if squared is not None else None


def _scaled(model, expr):
    """``x`` in ``jnp.pi * x``, ``2 * x``, ``x / 2``: zero exactly where ``x`` is."""
    if not isinstance(expr, ast.BinOp) or not isinstance(expr.op, (ast.Mult, ast.Div)):
        return None
    pairs = [(expr.left, expr.right)] + ([(expr.right, expr.left)] if isinstance(expr.op, ast.Mult) else [])
    return next((name for name, factor in pairs
                 if isinstance(name, ast.Name) and _nonzero_constant(model, factor)), None)


def _nonzero_constant(model, expr):
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool) and expr.value != 0
    return model.qualname(expr) in NONZERO_CONSTANTS


def _squared_sum(model, expr):
    """``x`` in ``jnp.sum(x**2)`` / ``jnp.sum(x * x)`` / ``jnp.sum(jnp.square(x))`` (an axis allowed)."""
    if not (isinstance(expr, ast.Call) and model.qualname(expr.func) in SUMS and len(expr.args) == 1):
        return None
    square = expr.args[0]
    if isinstance(square, ast.BinOp) and isinstance(square.left, ast.Name) and (
            isinstance(square.op, ast.Pow) and isinstance(square.right, ast.Constant) and square.right.value == 2
            or isinstance(square.op, ast.Mult) and isinstance(square.right, ast.Name)
            and square.right.id == square.left.id):
        return square.left
    if isinstance(square, ast.Call) and model.qualname(square.func) == "jax.numpy.square" \
            and len(square.args) == 1 and isinstance(square.args[0], ast.Name):
        return square.args[0]
    return None


def _pairwise_base(model, func, expr):
    """The array ``x`` when ``expr`` is zero on the diagonal of its pairs: ``x[:, None] - x[None, :]``
    (or of ``jnp.expand_dims``, also through names), its absolute value, norm or squared sum."""
    if isinstance(expr, ast.Name):
        value = _reaching_value(model, func, expr)
        return None if value is None or isinstance(value, ast.Name) else _pairwise_base(model, func, value)
    if isinstance(expr, ast.Call) and expr.args and model.qualname(expr.func) in ZERO_KEEPING:
        squared = _squared_sum(model, expr)
        return _pairwise_base(model, func, squared if squared is not None else expr.args[0])
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Sub):
        left, right = (_expanded(model, func, side) for side in (expr.left, expr.right))
        if left and right and left[0] == right[0] and left[1] != right[1]:
            return left[2]
    return None


def _expanded(model, func, expr):
    """(array name, axis given a new length-1 axis, the Name node) for ``x[:, None]``, ``x[None]``,
    ``x[None, :]`` and ``jnp.expand_dims(x, axis)``, also through a name bound to one."""
    if isinstance(expr, ast.Name):
        value = _reaching_value(model, func, expr)
        return None if value is None or isinstance(value, ast.Name) else _expanded(model, func, value)
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):
        items = expr.slice.elts if isinstance(expr.slice, ast.Tuple) else [expr.slice]
        new = [i for i, item in enumerate(items) if isinstance(item, ast.Constant) and item.value is None]
        if len(new) == 1 and all(isinstance(item, ast.Slice) and item.lower is item.upper is item.step is None
                                 or i == new[0] for i, item in enumerate(items)):
            return expr.value.id, new[0], expr.value
    if isinstance(expr, ast.Call) and model.qualname(expr.func) == "jax.numpy.expand_dims" and len(expr.args) == 2 \
            and isinstance(expr.args[0], ast.Name) and isinstance(expr.args[1], ast.Constant) \
            and type(expr.args[1].value) is int:
        return expr.args[0].id, expr.args[1].value, expr.args[0]
    return None


def _caller_name(name, arguments):
    """Inside a followed helper, the caller's name that a parameter stands for."""
    if name is None or arguments is None:
        return name
    argument = arguments.get(name.id)
    return argument if isinstance(argument, ast.Name) else None


def _reaching_value(model, func, name):
    """The value the local ``name`` (a Name node read in ``func``) holds there: that of its one
    plain assignment before it, or of the last assignment of the function's straight-line body
    before the statement that reads it (the name bound by no compound statement in between)."""
    binding = model.reaching_binding(func, name)
    return binding.value if binding is not None and binding.kind is BindingKind.ASSIGN else None


def _returned_expression(model, call):
    """(expression, {parameter: argument}) for a same-file function whose body returns one
    expression (after a docstring), called with plain positional arguments."""
    if isinstance(call.func, ast.Attribute) or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None  # a method (self shifts the positions), or arguments bound by name
    callee = model.callee(call.func)
    if not isinstance(callee, ast.FunctionDef):
        return None
    body = [s for s in callee.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    return body[0].value, dict(zip(positional_names(callee), call.args))


def _guarded(model, func, name):
    """Whether the value ``name`` (a Name node) holds may be guarded: a guard's result, or a local
    whose reaching value the body does not say."""
    if not model.is_local(name.id, func):
        return False
    binding = model.reaching_binding(func, name)
    if binding is None:
        return True
    return binding.kind is not BindingKind.PARAM and (
        binding.value is None or isinstance(binding.value, ast.Call) and model.qualname(binding.value.func) in GUARDS)


def _tested_names(model, func, condition):
    """The names the condition tests, and those the values of tested names are computed from
    (``r = jnp.sqrt(jnp.sum(x**2)); jnp.where(r > 0.5, ...)`` tests ``x`` too); ``x.shape`` tests no value of ``x``."""
    static = api.static_attributes()
    nodes = _through_values(model, func, condition)
    # a draw's outcome (a dropout mask) is random where its parameters are not zero: it tests none of them
    drawn = {id(n) for call in nodes if isinstance(call, ast.Call)
             and (model.qualname(call.func) or "").startswith("jax.random.") for n in ast.walk(call)}
    return {n.id for n in nodes if isinstance(n, ast.Name) and id(n) not in drawn
            and not (isinstance(model.parent(n), ast.Attribute) and model.parent(n).attr in static)}


def _through_values(model, func, expr):
    """The nodes of ``expr`` and of the values its names hold, transitively."""
    nodes, stack, seen = [], [expr], set()
    while stack:
        node = stack.pop()
        for child in ast.walk(node):
            nodes.append(child)
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load) and child not in seen:
                seen.add(child)
                value = _reaching_value(model, func, child)
                if value is not None:
                    stack.append(value)
    return nodes


def _compared(condition):
    """(name, +1 or -1) for ``t > c`` / ``c < t`` (+1: the condition holds where ``t`` is large) and
    ``t < c`` (-1), with ``c`` free of ``t``."""
    if not (isinstance(condition, ast.Compare) and len(condition.ops) == 1):
        return None
    left, right, op = condition.left, condition.comparators[0], condition.ops[0]
    direction = 1 if isinstance(op, (ast.Gt, ast.GtE)) else -1 if isinstance(op, (ast.Lt, ast.LtE)) else None
    if direction is None:
        return None
    for name, other, side in ((left, right, direction), (right, left, -direction)):
        if isinstance(name, ast.Name) and not any(isinstance(n, ast.Name) and n.id == name.id for n in ast.walk(other)):
            return name, side
    return None


def _sign_in(expr, name):
    """+1 or -1: how ``expr`` grows with ``name`` when it is ``name`` negated, scaled (by a factor
    free of ``name``, taken positive: a scale or a time constant) or shifted; None otherwise."""
    if isinstance(expr, ast.Name):
        return 1 if expr.id == name else None
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        sign = _sign_in(expr.operand, name)
        return None if sign is None else -sign
    if not isinstance(expr, ast.BinOp) or not isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        return None
    left, right = (any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(side))
                   for side in (expr.left, expr.right))
    if left == right:
        return None
    if left:
        return _sign_in(expr.left, name)
    if isinstance(expr.op, ast.Div):
        return None  # c / t: not monotonic through zero
    sign = _sign_in(expr.right, name)
    return None if sign is None else -sign if isinstance(expr.op, ast.Sub) else sign
