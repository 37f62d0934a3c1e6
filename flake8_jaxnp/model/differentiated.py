"""Which names of a traced function hold values no differentiating transform differentiates: in a
loss both jitted and differentiated in its prediction (``jax.value_and_grad(objective)(params)``, the
target a closure), the target and what is computed from it alone are traced by the jit but carry no
gradient, so a nan of their slope never reaches the gradient taken (JNP604)."""
import ast

from .library import array_function
from .project.targets import BINDING_STATEMENTS, bound_by
from .syntax import parameters, walk_own

# The expressions a value computed from others may be made of (a comprehension or a lambda binds
# names of its own, a walrus binds one of the function's: the text settles nothing then).
_COMPUTING = (ast.Name, ast.Constant, ast.Attribute, ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp,
              ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.keyword, ast.IfExp, ast.Starred, ast.Load,
              ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def undifferentiated_names(func, constants, qualname):
    """The parameters ``constants`` of the top-level def or method ``func`` (traced, never given a
    tracer by a differentiating transform), never rebound, and the names ``func`` binds only by
    plain assignments of values computed from them, from each other and from constants, by
    operators, JAX's array functions and their methods (``qualname``: the dotted name an
    expression refers to). A call of anything else may read what is differentiated (a Flax
    layer's parameters: ``nn.Dense(4)(x)``)."""
    nodes = list(walk_own(func.body))
    assigned = {id(node.targets[0]): node.value for node in nodes
                if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name}
    bindings = {}  # name -> the values assigned to it, or None where something else binds it
    for node in nodes:
        if type(node) is ast.Name and type(node.ctx) is not ast.Load:
            value = assigned.get(id(node))
            kept = bindings.get(node.id, [])
            bindings[node.id] = kept + [value] if value is not None and kept is not None else None
        else:
            for name in bound_by(node) if type(node) in BINDING_STATEMENTS else ():
                bindings[name] = None
    own = {arg.arg for arg in parameters(func)}
    found = {name for name in constants if name in own and name not in bindings}
    pending = sorted(name for name, values in bindings.items() if values is not None and name not in own)
    changed = True
    while changed:  # grows monotonically: each round settles the names whose inputs settled
        changed = False
        for name in pending:
            if name not in found and all(_computed_from(value, found, bindings.keys() | own, qualname)
                                         for value in bindings[name]):
                found.add(name)
                changed = True
    return found


def _computed_from(value, found, bound, qualname):
    """Whether ``value`` reads only names of ``found`` or names the function does not bind (``bound``),
    and calls only JAX's array functions and methods of what it computes."""
    for node in ast.walk(value):
        if not isinstance(node, _COMPUTING):
            return False
        if type(node) is ast.Name and node.id in bound and node.id not in found:
            return False
        if type(node) is ast.Call and not array_function(qualname(node.func) or "") \
                and not (type(node.func) is ast.Attribute and _computed_from(node.func.value, found, bound, qualname)):
            return False
    return True
