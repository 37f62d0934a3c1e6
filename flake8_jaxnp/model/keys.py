"""Which parameters a function consumes as PRNG keys on every call, and which of them it
hands back: one reading shared by JNP601's same-file pass (``checks/keys.py``) and the
project summaries (``project/summaries.py``), which answer "does this call consume a key"
each in their own way; and which names a block binds again before reading them (a split whose
outputs are all bound again is dead)."""
import ast
import itertools
import operator

from .. import api
from ..facts import SEEDED_SAMPLERS
from .library import body_call
from .syntax import COMPREHENSIONS, LOOPS, SCOPES, block_children, bound_names, positional_names, walk_own

SPLIT = "jax.random.split"
# What an array keeps when a loop computes it anew from itself (``params = params - lr * grads``).
CARRIED_METADATA = frozenset({"shape", "dtype", "ndim", "size"})
# Statements that run every call they hold (a branch, loop or try may not).
STRAIGHT = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return, ast.Pass)
# What a guard's test may hold (``_guard``): nothing that calls, or reads anything but its parameters.
_GUARD_NODES = (ast.Constant, ast.Attribute, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.expr_context, ast.cmpop,
                ast.boolop, ast.unaryop)


def consumed_parameters(func, params, key_of, guarded=None):
    """{parameter: how} for the ``params`` (``key_name``s: a field of ``self`` too) that a statement
    of ``func``'s body consumes on every call, or a statement at the start of a top-level loop's
    body on every call that runs the loop (its first iteration does: ``for batch in data: key, sub =
    split(key)``), before
    anything binds the name again; the statement is reached (no return or raise before it), the
    consuming call is not conditional inside it. ``key_of(call)``: (the key expression the call
    consumes, "draw" or "split"), or None. Given a dict ``guarded``, a guard (``_guard``: ``if key is
    None or rate == 0.0: return x``) does not stop the walk: the parameters consumed after it are
    consumed on every call that passes it, and ``guarded`` maps each to (the parameters its guards read,
    the guards' tests)."""
    # whether a compound statement before may return, each walked once: ``unwalked`` are those not yet
    found, unwalked, left, bound, guards, unguarded, tests = {}, [], False, set(), frozenset(), set(), ()
    for stmt in func.body:
        guard = _guard(stmt, params - bound) if type(stmt) is ast.If and guarded is not None else None
        if guard is not None:
            guards, unguarded, tests = guards | guard, unguarded if guards else set(found), (*tests, stmt.test)
            continue
        if isinstance(stmt, (*LOOPS, *STRAIGHT)):
            left, unwalked = left or may_leave(unwalked), []
        if isinstance(stmt, LOOPS) and not left:
            head = set() if isinstance(stmt, ast.While) else bound_names(stmt.target)
            _consume(itertools.takewhile(lambda s: isinstance(s, STRAIGHT), stmt.body), params - bound - head,
                     key_of, found)
        if not isinstance(stmt, STRAIGHT):
            unwalked.append(stmt)
        elif not left and not _consume([stmt], params - bound, key_of, found):
            break
        bound |= bound_names(stmt)
    if guards:
        guarded.update(dict.fromkeys(set(found) - unguarded, (guards, tests)))
    if found and any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for n in walk_own(func.body)):
        found = {}  # calling a generator or coroutine runs none of its body
    return found


def _guard(stmt, params):
    """The parameters that the ``if`` ``stmt`` reads when it is a guard: one with no ``else`` that only
    returns or raises, or binds a parameter it tests to a value that does not read it (``if key is
    None: key = next_key()``: past it the parameter holds what the call passed whenever the test was
    false), testing nothing but ``params`` (as names, or their attributes), constants, comparisons and
    boolean operators (``if key is None or rate == 0.0: return x``). Two calls that pass the same
    values for them both pass it or both leave (or fill the parameter in). Else None."""
    body = stmt.body[0] if len(stmt.body) == 1 and not stmt.orelse else None
    filled = body.targets[0].id if type(body) is ast.Assign and len(body.targets) == 1 \
        and type(body.targets[0]) is ast.Name and not _reads([body.value], {body.targets[0].id}) else None
    if type(body) not in (ast.Return, ast.Raise) and (filled is None or not _reads([stmt.test], {filled})):
        return None
    read = set()
    for node in ast.walk(stmt.test):
        if type(node) is ast.Name:
            if node.id not in params:
                return None
            read.add(node.id)
        elif not isinstance(node, _GUARD_NODES):
            return None
    return frozenset(read) or None


def guard_leaves(tests, constants):
    """Whether one of a helper's guard ``tests`` surely holds when its parameters hold ``constants``
    ({parameter: value}, for those a call passes as constants): such a call leaves before it draws
    (``dropout(h, 0.0, key)`` of ``if key is None or rate == 0.0: return x``)."""
    return any(truth(test, constants) is True for test in tests)


_COMPARISONS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
                ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not}
_UNKNOWN = object()


def truth(test, constants):
    """The truth of a guard's or an option's ``test`` given ``constants`` ({name: the value it holds}),
    or None where it depends on anything else."""
    kind = type(test)
    if kind is ast.UnaryOp and type(test.op) is ast.Not:
        inner = truth(test.operand, constants)
        return None if inner is None else not inner
    if kind is ast.BoolOp:
        parts = [truth(value, constants) for value in test.values]
        decisive = type(test.op) is ast.Or  # the value that decides an ``or``; False decides an ``and``
        return decisive if decisive in parts else not decisive if all(p is not None for p in parts) else None
    if kind is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in _COMPARISONS:
        left, right = _operand(test.left, constants), _operand(test.comparators[0], constants)
        if left is _UNKNOWN or right is _UNKNOWN:
            return None
        try:
            return bool(_COMPARISONS[type(test.ops[0])](left, right))
        except TypeError:
            return None
    operand = _operand(test, constants)
    return None if operand is _UNKNOWN else bool(operand)


def _operand(expr, constants):
    """What a test's operand holds: a literal's value, a name's in ``constants``, else ``_UNKNOWN``."""
    if type(expr) is ast.Constant:
        return expr.value
    return constants.get(expr.id, _UNKNOWN) if type(expr) is ast.Name else _UNKNOWN


def _consume(statements, params, key_of, found):
    """Add to ``found`` the ``params`` that ``statements``, run in order, consume before binding
    them again; False once one of them returns or raises."""
    params = set(params)
    for stmt in statements:
        for call in walk_own([stmt], SCOPES + COMPREHENSIONS + (ast.IfExp, ast.BoolOp)):
            consumed = key_of(call) if isinstance(call, ast.Call) else None
            if consumed and key_name(consumed[0]) in params:
                found.setdefault(key_name(consumed[0]), consumed[1])
        if isinstance(stmt, (ast.Return, ast.Raise)):
            return False
        params -= bound_names(stmt)
    return True


def key_name(expr):
    """How a consumed key is named among a function's parameters: ``key``, or ``self.key`` for
    the field of the object a method runs on; else None."""
    if type(expr) is ast.Name:
        return expr.id
    if type(expr) is ast.Attribute and type(expr.value) is ast.Name and expr.value.id == "self":
        return f"self.{expr.attr}"
    return None


def every_call_consumers(function, consumes):
    """The calls that ``consumes`` (call -> whether it consumes a key) accepts and that a lambda's
    expression, or the statements of a def before its first compound statement, make on every call
    (not under a conditional expression or ``and``/``or``), in the order they run."""
    roots = [function.body] if isinstance(function, ast.Lambda) else \
        list(itertools.takewhile(lambda stmt: isinstance(stmt, STRAIGHT), function.body))
    found = [n for n in walk_own(roots, SCOPES + COMPREHENSIONS + (ast.IfExp, ast.BoolOp))
             if type(n) is ast.Call and consumes(n)]
    return sorted(found, key=lambda n: (n.end_lineno, n.end_col_offset))


def deferred(function):
    """Whether calling ``function`` runs none of its body yet (a generator or a coroutine)."""
    body = function.body if isinstance(function.body, list) else [function.body]
    return isinstance(function, ast.AsyncFunctionDef) or any(
        isinstance(n, (ast.Yield, ast.YieldFrom)) for n in walk_own(body, SCOPES))


def returned_keys(func, consumed):
    """[[position, parameter]] for the consumed parameters that ``func``'s one return, its
    last statement, hands back as they came in (``return key, x``: position 0; ``return
    key``: position -1) and never binds again, so the caller's name for them holds a consumed key."""
    last = func.body[-1] if consumed and func.body else None
    if type(last) is not ast.Return or last.value is None \
            or sum(type(n) is ast.Return for n in walk_own(func.body, SCOPES, block_children)) != 1:
        return []
    value = last.value
    elements = list(enumerate(value.elts)) if type(value) is ast.Tuple else [(-1, value)]
    rebound = bound_names(*func.body)
    return [[position, element.id] for position, element in elements
            if type(element) is ast.Name and element.id in consumed and element.id not in rebound]


def reads_besides_key(call, key, names):
    """Whether ``call`` reads one of ``names`` (what a loop around it binds) beside its key
    expression ``key``: its shape or count may then differ on each run of it. The metadata of an
    array the loop carries (``normal(key, params.shape)``) stays what it was."""
    pending = [part for part in (call.func, *call.args, *call.keywords) if part is not key]
    while pending:
        node = pending.pop()
        if type(node) is ast.Name and node.id in names and type(node.ctx) is ast.Load:
            return True
        if not (type(node) is ast.Attribute and node.attr in CARRIED_METADATA and type(node.value) is ast.Name):
            pending.extend(ast.iter_child_nodes(node))
    return False


def may_leave(statements):
    """Whether one of ``statements`` can return or raise (walked only once a consumption is
    found); a nested def or class returns from itself, not from the function."""
    return any(isinstance(n, (ast.Return, ast.Raise)) for n in walk_own(statements, SCOPES, block_children))


def key_argument(call):
    """The key a random call is given: a distribution's sampler its ``seed=``
    (``seeded_sample``), any call its ``key=`` (an Equinox layer's), a ``jax.random`` function
    its first argument."""
    seed = seeded_sample(call) or next((k.value for k in call.keywords if k.arg == "key"), None)
    if seed is not None:
        return seed
    return call.args[0] if call.args and not isinstance(call.args[0], ast.Starred) else None


def seeded_sample(call):
    """The key a distribution's sampler method draws from (``dist.sample(seed=key)``), or None."""
    func = call.func
    if type(func) is ast.Attribute and func.attr in SEEDED_SAMPLERS:
        return next((k.value for k in call.keywords if k.arg == "seed"), None)
    return None


def unbound_after(statements, names):
    """The ``names`` that ``statements`` leave unbound when they run, each bound only by a plain
    assignment (in both branches of an ``if``, or in a ``with``) before anything reads it; None
    when one of them may be read first, or a ``break``/``continue`` may carry its value elsewhere.
    A loop whose first iteration binds them before reading them never reads their value (later
    iterations see its own); it may run no iteration, so they stay pending after it."""
    pending = set(names)
    for stmt in statements:
        if not pending:
            break
        kind = type(stmt)
        if kind in LOOPS:
            head = [stmt.test] if kind is ast.While else [stmt.iter, stmt.target]
            if _reads([*head, *stmt.orelse], pending) or unbound_after(stmt.body, pending) is None:
                return None
        elif kind is ast.If or kind in (ast.With, ast.AsyncWith):
            heads = [stmt.test] if kind is ast.If else stmt.items
            blocks = [stmt.body, stmt.orelse] if kind is ast.If else [stmt.body]
            after = [None if _reads(heads, pending) else unbound_after(block, pending) for block in blocks]
            if None in after:
                return None
            pending = set().union(*after)
        elif _reads([stmt], pending):
            return None
        elif kind in (ast.Assign, ast.AnnAssign) and stmt.value is not None:
            targets = stmt.targets if kind is ast.Assign else [stmt.target]
            pending -= {n.id for target in targets for n in ast.walk(target) if type(n) is ast.Name}
    return pending


def _reads(nodes, names):
    """Whether ``nodes`` read one of ``names`` (nested functions included) or hold a break or continue."""
    return any(type(n) is ast.Name and type(n.ctx) is ast.Load and n.id in names or type(n) in (ast.Break, ast.Continue)
               for node in nodes for n in ast.walk(node))


def rotation(method, qualname):
    """The ``self.<field>`` read by the split that ``method`` runs first on every call, storing one
    of its outputs back in that field (``self.key, key = split(self.key)``): each call consumes the
    object's key and leaves a fresh one there; else None. (Whether the module stores the field
    anywhere else is the caller's to check.)"""
    body = [stmt for stmt in method.body[:2] if not (type(stmt) is ast.Expr and type(stmt.value) is ast.Constant)]
    stmt = body[0] if body and positional_names(method)[:1] == ["self"] and method.name != "__init__" else None
    if type(stmt) is not ast.Assign or len(stmt.targets) != 1 or type(stmt.targets[0]) not in (ast.Tuple, ast.List) \
            or type(stmt.value) is not ast.Call or qualname(stmt.value.func) != SPLIT:
        return None
    key = key_argument(stmt.value)
    name = key_name(key) if key is not None else None
    if name is None or "." not in name or not any(key_name(e) == name for e in stmt.targets[0].elts):
        return None
    return key


def stepped_call(call, qualname, callee, drawn):
    """A jax.lax call of one body (``scan``, ``map``, ``fori_loop``: it runs the body on every step) given
    keys (``drawn(expr)``: what a ``jax.random`` call gives), written as the body's call with the arguments
    that reach its parameters (``control_flow_operands``: ``scan(step, init, keys)`` runs ``step(init,
    keys[i])``); else None. ``callee(expr)``: the def a name refers to. A method given as the body is left
    out: what it stores on ``self`` it stores at trace time (JNP303's shape), not on each step. (A body
    given no key is not read: walking every scan body of a training loop cost +5.5% on purejaxrl.)"""
    positions = api.lax_bodies().get(qualname, ())
    body = call.args[positions[0]] if len(positions) == 1 and len(call.args) > positions[0] else None
    runs = body_call(call, qualname, positions[0], body) if type(body) is ast.Name else None
    if runs is None or not any(argument is not None and drawn(argument) for argument in runs.args):
        return None
    func = callee(body)
    names = positional_names(func) if isinstance(func, ast.FunctionDef) else []
    given = [ast.keyword(arg=name, value=argument) for name, argument in zip(names, runs.args) if argument is not None]
    return ast.Call(func=body, args=[], keywords=given) if given else None


def carried_parameters(call, qualname, callee):
    """(the def, {result position: parameter}) for each def a jax.lax loop ``call`` runs as a body and
    hands the part of the def's result at that position (-1: all of it) back to that parameter of
    the def on its next step (``lax_body_carries``, measured: ``scan(step, init, xs)`` gives ``step``
    the carry it returned), unless the loop runs one step at most. ``callee(expr)``: the def a name refers to."""
    for position, carries in api.lax_body_carries().get(qualname, {}).items() if _steps(call, qualname) != 1 else ():
        body = call.args[int(position)] if int(position) < len(call.args) else None
        func = callee(body) if type(body) is ast.Name else None
        names = positional_names(func) if isinstance(func, ast.FunctionDef) else []
        parts = {int(at): names[index] for at, index in carries.items() if index < len(names)}
        if parts:
            yield func, parts


def _steps(call, qualname):
    """How many steps a jax.lax loop runs, where the int literals it is given say (``lax_body_steps``,
    measured: ``fori_loop(0, 1, ...)`` and ``scan(..., length=1)`` run one), at least one; else None."""
    steps = api.lax_body_steps().get(qualname)
    if not steps or any(type(arg) is ast.Starred for arg in call.args):
        return None
    keywords = {keyword.arg: keyword.value for keyword in call.keywords}
    given = [(call.args[position] if position < len(call.args) else keywords.get(name), sign)
             for name, (position, sign) in steps.items()]
    if not all(type(expr) is ast.Constant and type(expr.value) is int for expr, _ in given):
        return None
    return max(1, sum(expr.value * sign for expr, sign in given))
