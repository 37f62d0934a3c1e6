"""JNP604: jnp.where does not stop the nan gradient of the branch it discards."""
import ast

from .. import api
from ..facts import TREE_MAPS
from ..findings import Finding
from ..model.names import BindingKind
from ..model.syntax import positional_names
from ..model.traced import Behaviour
from . import describe, rule

# Operators and the jax.numpy function whose gradient they share.
OPERATORS = {ast.Div: "jax.numpy.true_divide", ast.Mod: "jax.numpy.mod"}
# Calls whose result is a guarded input: x = jnp.where(x > 0, x, 1.0) makes log(x) safe.
GUARDS = frozenset({"jax.numpy.where", "jax.numpy.clip", "jax.numpy.maximum", "jax.numpy.minimum",
                    "jax.numpy.abs", "jax.numpy.nan_to_num", "jax.lax.stop_gradient"})
CUSTOM_DERIVATIVES = frozenset({"jax.custom_jvp", "jax.custom_vjp"})
SUMS = frozenset({"jax.numpy.sum"})


@rule("JNP604")
def where_nan_gradient(model):
    for func, traced in model.traced.items():
        transform = next((t.name for t in traced.transforms if t.behaviour is Behaviour.DIFFERENTIATING), None)
        if transform is None or _custom_derivative(model, func):
            continue
        bodies = [(func, frozenset())] + _mapped_lambdas(model, func)
        for body, leaves in bodies:
            for node in model.own_nodes(body):
                if isinstance(node, ast.Call) and len(node.args) == 3 and not node.keywords \
                        and model.qualname(node.func) == "jax.numpy.where":
                    found = _unsafe_branch(model, body, node, leaves)
                    if found is not None:
                        operation, name = found
                        yield Finding.at(node, "JNP604", {
                            "scope": getattr(body, "name", "<lambda>"), "transform": transform,
                            "operation": operation, "name": name})


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


def _unsafe_branch(model, func, where, leaves=frozenset()):
    """(operation, input name) of an operation in a branch whose gradient is nan where the
    condition excludes it: its input is tested by the condition and not guarded first. The
    branch is followed into the values of names assigned once before the ``where`` and into
    same-file functions that return one expression of their parameters."""
    tested = {n.id for n in ast.walk(where.args[0]) if isinstance(n, ast.Name)}
    unsafe, jointly = api.where_unsafe_functions(), api.where_unsafe_jointly()
    followed = set()
    stack = [(branch, None) for branch in where.args[1:]]  # (expression, the helper's arguments by parameter)
    while stack:
        node, arguments = stack.pop()
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and arguments is None:
            value = _assigned_once_before(model, func, node, where)
            if value is not None and node.id not in followed:
                followed.add(node.id)
                stack.append((value, None))
            continue
        if isinstance(node, ast.Call) and model.qualname(node.func) in GUARDS:
            continue  # a nested where guards what it holds
        operation, inputs, every = _unsafe_operation(model, node, unsafe, jointly)
        names = [_caller_name(_zero_at(model, expr), arguments) for expr in inputs]
        hits = [name for name in names if name is not None and name.id in tested and not _guarded(model, func, name.id)]
        differentiated = [name for name in hits if name.id in leaves or model.value(name).traced]
        if differentiated and (not every or len(hits) == len(inputs)):  # arctan2: nan only where both are 0
            return operation, differentiated[0].id
        if isinstance(node, ast.Call) and arguments is None:
            returned = _returned_expression(model, node)
            if returned is not None:
                stack.append(returned)
        stack.extend((child, arguments) for child in ast.iter_child_nodes(node))
    return None


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
    return None, [], False


def _positional(args, positions):
    return [args[i] for i in positions if i < len(args) and not isinstance(args[i], ast.Starred)]


def _zero_at(model, expr):
    """The name an input is zero with: the name itself, or ``x`` in the squared norm
    ``jnp.sum(x**2)`` / ``jnp.sum(x * x)`` / ``jnp.sum(jnp.square(x))`` (so ``sqrt`` of it is a norm)."""
    if isinstance(expr, ast.Call) and model.qualname(expr.func) in SUMS and len(expr.args) == 1:
        square = expr.args[0]
        if isinstance(square, ast.BinOp) and isinstance(square.left, ast.Name) and (
                isinstance(square.op, ast.Pow) and isinstance(square.right, ast.Constant) and square.right.value == 2
                or isinstance(square.op, ast.Mult) and isinstance(square.right, ast.Name)
                and square.right.id == square.left.id):
            return square.left
        if isinstance(square, ast.Call) and model.qualname(square.func) == "jax.numpy.square" \
                and len(square.args) == 1 and isinstance(square.args[0], ast.Name):
            return square.args[0]
    return expr if isinstance(expr, ast.Name) else None


def _caller_name(name, arguments):
    """Inside a followed helper, the caller's name that a parameter stands for."""
    if name is None or arguments is None:
        return name
    argument = arguments.get(name.id)
    return argument if isinstance(argument, ast.Name) else None


def _assigned_once_before(model, func, name, where):
    """The value of ``name = <value>``, when that is the one binding of ``name`` in ``func`` and it
    comes before the ``where`` (an earlier line computes the unsafe operation)."""
    if not model.is_local(name.id, func):
        return None
    bindings = model.scope(func).bindings.get(name.id, ())
    if len(bindings) != 1 or bindings[0].kind is not BindingKind.ASSIGN or bindings[0].value is None:
        return None
    statement = bindings[0].stmt
    if model.enclosing_function(statement) is not func or statement.end_lineno >= where.lineno:
        return None
    return bindings[0].value


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
    """Whether ``name`` is ever assigned a guarded value in ``func`` (then the check cannot tell)."""
    for binding in model.scope(func).bindings.get(name, ()):
        if binding.kind is not BindingKind.PARAM:
            value = binding.value
            if value is None or isinstance(value, ast.Call) and model.qualname(value.func) in GUARDS:
                return True
    return False
