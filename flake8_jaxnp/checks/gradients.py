"""JNP604: jnp.where does not stop the nan gradient of the branch it discards."""
import ast

from .. import api
from ..findings import Finding
from ..model.names import BindingKind
from ..model.traced import Behaviour
from . import describe, rule

# Operators and the jax.numpy function whose gradient they share.
OPERATORS = {ast.Div: "jax.numpy.true_divide", ast.Mod: "jax.numpy.mod"}
# Calls whose result is a guarded input: x = jnp.where(x > 0, x, 1.0) makes log(x) safe.
GUARDS = frozenset({"jax.numpy.where", "jax.numpy.clip", "jax.numpy.maximum", "jax.numpy.minimum",
                    "jax.numpy.abs", "jax.numpy.nan_to_num", "jax.lax.stop_gradient"})
CUSTOM_DERIVATIVES = frozenset({"jax.custom_jvp", "jax.custom_vjp"})


@rule("JNP604")
def where_nan_gradient(model):
    for func, traced in model.traced.items():
        transform = next((t.name for t in traced.transforms if t.behaviour is Behaviour.DIFFERENTIATING), None)
        if transform is None or _custom_derivative(model, func):
            continue
        for node in model.own_nodes(func):
            if isinstance(node, ast.Call) and len(node.args) == 3 and not node.keywords \
                    and model.qualname(node.func) == "jax.numpy.where":
                found = _unsafe_branch(model, func, node)
                if found is not None:
                    operation, name = found
                    yield Finding.at(node, "JNP604", {
                        "scope": getattr(func, "name", "<lambda>"), "transform": transform,
                        "operation": operation, "name": name})


def _custom_derivative(model, func):
    return any(model.qualname(d) in CUSTOM_DERIVATIVES for d in getattr(func, "decorator_list", ()))


def _unsafe_branch(model, func, where):
    """(operation, input name) of an operation in a branch whose gradient is nan where the
    condition excludes it: its input is tested by the condition and not guarded first."""
    tested = {n.id for n in ast.walk(where.args[0]) if isinstance(n, ast.Name)}
    unsafe = api.where_unsafe_functions()
    for branch in where.args[1:]:
        stack = [branch]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Lambda):
                continue
            if isinstance(node, ast.Call):
                qualname = model.qualname(node.func)
                if qualname in GUARDS:
                    continue  # a nested where guards what it holds
                inputs = [node.args[i] for i in unsafe.get(qualname, ()) if i < len(node.args)]
                operation = describe(node.func) + "()"
            elif isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
                operands = (node.left, node.right)
                inputs = [operands[i] for i in unsafe.get(OPERATORS[type(node.op)], ()) if i < 2]
                operation = describe(node)
            else:
                inputs = []
            for expr in inputs:
                if isinstance(expr, ast.Name) and expr.id in tested and model.value(expr).traced \
                        and not _guarded(model, func, expr.id):
                    return operation, expr.id
            stack.extend(ast.iter_child_nodes(node))
    return None


def _guarded(model, func, name):
    """Whether ``name`` is ever assigned a guarded value in ``func`` (then the check cannot tell)."""
    for binding in model.scope(func).bindings.get(name, ()):
        if binding.kind is not BindingKind.PARAM:
            value = binding.value
            if value is None or isinstance(value, ast.Call) and model.qualname(value.func) in GUARDS:
                return True
    return False
