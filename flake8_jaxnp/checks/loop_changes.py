"""What a loop's body makes anew on each iteration (JNP602): the names it binds, the counter that
holds a new number each time, what it builds from that number, and what it grows."""
import ast

from .. import api
from ..model.names import BindingKind
from ..model.syntax import COMPREHENSIONS, class_body_names, walk_own

# Calls whose result is longer than an array given in their first argument's sequence.
GROWING = frozenset(f"{module}.{name}" for module in ("jax.numpy", "numpy") for name in (
    "concatenate", "concat", "append", "hstack", "vstack", "dstack", "column_stack", "row_stack"))


def iterated_code(loop):
    """The code a loop runs per iteration: its body, or a comprehension's element."""
    if type(loop) in COMPREHENSIONS:
        return [loop.key, loop.value] if type(loop) is ast.DictComp else [loop.elt]
    return loop.body


def body_names(loop, walked):
    """{name the loop's body binds: the Name nodes that bind it}, from one walk of the body kept in
    ``walked``: a loop with thousands of statements is not walked once per question."""
    if loop not in walked:
        bound = walked[loop] = {}
        for node in walk_own(iterated_code(loop), ()):  # nested defs and lambdas too
            if type(node) is ast.Name and type(node.ctx) is not ast.Load:
                bound.setdefault(node.id, []).append(node)
    return walked[loop]


def bound_in_body(model, loop, expr, walked):
    """The value a Name that the loop's body binds once (``x = ...``) is bound to; ``expr`` itself
    when it is not a Name; None otherwise."""
    if not isinstance(expr, ast.Name):
        return expr
    stores = body_names(loop, walked).get(expr.id, ())
    stmt = model.parent(stores[0]) if len(stores) == 1 else None
    return stmt.value if isinstance(stmt, ast.Assign) and stmt.targets == [stores[0]] else None


def new_object_every_iteration(model, loop, expr, counter, walked):
    """Whether ``expr`` holds an object of a same-file class that the loop's body builds on every
    iteration and that is a new cache key each time: a class JAX cannot flatten (``untraceable_class``:
    plain, registered as no pytree), hashed by identity whatever it is given (``Momentum(0.05)``), or a
    framework Module that is not a pytree (``rejected_by_jax_jit``: a linen Module, hashed by its fields)
    built with a new number of the loop's ``counter`` (``new_every_iteration``: ``Dropped(0.5 / (epoch +
    1))``). A name bound under a branch of the body (``if opt is None: opt = Momentum()``) may hold one
    object for every iteration. A pytree (Equinox's Module, a registered class: ``eqx.filter_jit`` traces
    its arrays), a class with other bases, a metaclass or a decorator (``@dataclass`` may make it
    unhashable: jit refuses it), or one whose body binds ``__eq__`` or ``__hash__`` (which may ignore the
    field) is left out."""
    built = bound_in_body(model, loop, expr, walked)
    if isinstance(expr, ast.Name) and built is not None \
            and not any(model.parent(built) is stmt for stmt in iterated_code(loop)):
        return False
    found = model.one_binding(built.func, BindingKind.CLASS) if isinstance(built, ast.Call) else None
    cls = found.node if found is not None else None
    if cls is None or cls.decorator_list or cls.keywords \
            or not {"__eq__", "__hash__"}.isdisjoint(class_body_names(cls)):
        return False
    if model.untraceable_class(cls):
        return True
    facts = model.module_facts(cls) if cls.bases else None
    given = [*built.args, *(k.value for k in built.keywords)]
    return bool(facts and facts["rejected_by_jax_jit"]) and counter is not None \
        and any(new_every_iteration(model, loop, arg, counter, walked) for arg in given)


def new_every_iteration(model, loop, expr, counter, walked, depth=0):
    """Whether ``expr`` holds a new Python number on every iteration: the loop's ``counter``, or
    arithmetic of it with number literals that keeps values apart (``1.0 / (step + 1)``, not
    ``step % 2``, ``step * 0`` or ``1 ** step``), directly or through a name bound once in the body."""
    if isinstance(expr, ast.Name):
        if expr.id == counter:
            return True
        bound = bound_in_body(model, loop, expr, walked)
        return bound is not None and depth < 4 and new_every_iteration(model, loop, bound, counter, walked, depth + 1)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        return new_every_iteration(model, loop, expr.operand, counter, walked, depth)
    if not isinstance(expr, ast.BinOp) or not isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
        return False
    for varying, fixed in ((expr.left, expr.right), (expr.right, expr.left)):
        if isinstance(fixed, ast.Constant) and type(fixed.value) in (int, float) and fixed.value != 0 \
                and not (isinstance(expr.op, ast.Pow) and fixed.value == 1) \
                and new_every_iteration(model, loop, varying, counter, walked, depth):
            return True
    return False


def counter_shaped(model, loop, expr, walked):
    """What the loop's body gives ``expr`` (itself, or the value of a name it binds once) when its shape
    holds a new number on every iteration (``new_every_iteration`` of the loop's counter): a call with
    it in its shape argument, alone or in a shape tuple, or a slice with it as its one moving bound
    (``data[:length]``, not ``data[i:i + 8]``)."""
    counter = loop_counter(loop, walked)
    made = bound_in_body(model, loop, expr, walked) if counter is not None else None
    if type(made) is ast.Subscript and type(made.slice) is ast.Slice and made.slice.step is None:
        bounds = [bound for bound in (made.slice.lower, made.slice.upper) if bound is not None]
        moving = [bound for bound in bounds if new_every_iteration(model, loop, bound, counter, walked)]
        return made if len(moving) == 1 and all(type(b) is ast.Constant for b in bounds if b is not moving[0]) else None
    if not isinstance(made, ast.Call):
        return None
    for position in api.shape_arguments().get(model.qualname(made.func), ()):
        shape = made.args[position] if position < len(made.args) else None
        dims = shape.elts if isinstance(shape, (ast.Tuple, ast.List)) else [shape] if shape is not None else []
        if any(new_every_iteration(model, loop, dim, counter, walked) for dim in dims):
            return made
    return None


def growth_of(model, loop, name, walked):
    """The one statement of the loop's body that binds ``name``, when it is ``name = concatenate([name,
    ...])`` (or append, hstack, ...) run on every iteration; else None."""
    stores = body_names(loop, walked).get(name, ())
    target = loop.target if isinstance(loop, ast.For) else ast.Pass()
    if len(stores) != 1 or any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(target)):
        return None
    stmt = model.parent(stores[0])
    if stmt not in loop.body or not isinstance(stmt, ast.Assign) or stmt.targets != [stores[0]] \
            or not isinstance(stmt.value, ast.Call) or model.qualname(stmt.value.func) not in GROWING \
            or not stmt.value.args:
        return None
    first = stmt.value.args[0]
    parts = first.elts if isinstance(first, (ast.List, ast.Tuple)) else [first]
    return stmt if any(isinstance(part, ast.Name) and part.id == name for part in parts) else None


def loop_counter(loop, walked):
    """The name that holds a new Python number on every iteration of a loop (or comprehension with
    that one generator): a ``for i in range(...)`` or ``for i, x in enumerate(...)`` counter, or the
    variable of a loop over a display of two or more distinct number literals (``for n in (64, 96)``)."""
    if type(loop) in COMPREHENSIONS:
        head = loop.generators[0] if len(loop.generators) == 1 and not loop.generators[0].ifs else None
    else:
        head = loop if isinstance(loop, ast.For) else None
    if head is None:
        return None
    target, iterated = head.target, head.iter
    if isinstance(iterated, (ast.Tuple, ast.List)):
        numbers = [e.value for e in iterated.elts if type(e) is ast.Constant and type(e.value) in (int, float)]
        if len(numbers) < 2 or len(numbers) != len(iterated.elts) or len(set(numbers)) != len(numbers):
            return None
    elif not isinstance(iterated, ast.Call) or not isinstance(iterated.func, ast.Name):
        return None
    elif iterated.func.id == "enumerate" and isinstance(target, ast.Tuple) and target.elts:
        target = target.elts[0]
    elif iterated.func.id != "range":
        return None
    if not isinstance(target, ast.Name):
        return None
    return None if target.id in body_names(loop, walked) else target.id  # rebound in the body
