"""JNP603: timing that does not wait for JAX."""
import ast

from ..facts import CALLABLE_TIMERS, TIMERS
from ..findings import Finding
from ..model.kinds import PYTHON
from ..model.names import BindingKind
from ..model.syntax import argument_for, own_expression_nodes, positional_names
from . import blocks, describe, is_jitted, repeats, rule

# Calls that wait for the device: after one of them the clock reads a finished result.
SYNC_METHODS = frozenset({"block_until_ready", "item", "tolist", "__array__"})
SYNC_FUNCTIONS = frozenset({"jax.block_until_ready", "jax.device_get"})


@rule("JNP603")
def unsynchronised_timing(model):
    calls = [call for call in model.nodes(ast.Call) if model.qualname(call.func) in TIMERS]
    timed = {model.enclosing_function(call) for call in calls}  # scopes that read a clock (None: module)
    clocked = {model.statement_of(call) for call in calls}  # the statements that read one (_clock_read)
    for scope in timed:
        node = model.tree if scope is None else scope
        if isinstance(node, ast.Lambda) or node in model.traced:
            continue  # traced clocks are read at trace time: JNP305
        for stmts, loop in blocks(node.body, repeats):
            yield from _unsynchronised(model, stmts, clocked)
            if loop is not None and stmts is loop.body:
                yield from _every_n_clock(model, loop, clocked)
                yield from _timed_from_before_the_loop(model, loop, clocked)
    yield from _timed_callables(model)
    if calls:
        yield from _timed_with_blocks(model, timed, clocked)


def _unsynchronised(model, block, clocked):
    """``t = clock(); <JAX calls only>; clock()`` in one block: the region ends before JAX finishes.
    The JAX calls may be a loop of them (``for b in batches: state = update(state, b)``)."""
    start, work = None, []
    for index, stmt in enumerate(block):
        clock = _clock_read(model, stmt, clocked)
        if clock is not None and start is not None and work and _reads_clock_first(model, stmt, clock):
            yield Finding.at(clock, "JNP603", {"clock": describe(clock.func), "start": start.lineno,
                                               "work": describe(work[-1])})
        if clock is not None and isinstance(stmt, ast.Assign) and stmt.value is clock:
            start, work = stmt, []
        elif start is not None and work and isinstance(stmt, ast.If) and not _touches_device(model, stmt.test):
            branches = _branches(stmt, block[index + 1:])
            for clock in filter(None, (_branch_clock(model, branch, clocked) for branch in branches)):
                yield Finding.at(clock, "JNP603", {"clock": describe(clock.func), "start": start.lineno,
                                                   "work": describe(work[-1])})
            start, work = None, []
        elif start is not None and _dispatches(model, stmt):
            work.append(stmt.value)
        elif start is not None and (last := _dispatching_loop(model, stmt, clocked)) is not None:
            work.append(last)
        else:
            start, work = None, []


def _branches(stmt, rest):
    """The two ways through an ``if``: its body and its else, which is the rest of the block when the
    body never falls through (``if sync: wait(); return clock() - t0`` then ``return clock() - t0``)."""
    leaves = stmt.body and isinstance(stmt.body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))
    return stmt.body, stmt.orelse or (rest if leaves else [])


def _branch_clock(model, branch, clocked):
    """The clock read of an ``if`` branch after the timed work (``if sync: wait(); t = clock() - t0
    else: t = clock() - t0``) that nothing before it in the branch waits for, or None."""
    for stmt in branch:
        clock = _clock_read(model, stmt, clocked)
        if clock is not None:
            return clock if _reads_clock_first(model, stmt, clock) else None
        if not _host_only(model, stmt):
            return None
    return None


def _timed_callables(model):
    """``timeit.repeat(lambda: f(x))``: the lambda returns as soon as JAX has queued the work, so
    each run timed is a dispatch (a lambda that waits, ``f(x).block_until_ready()``, is timed right)."""
    for call in model.nodes(ast.Call):
        if model.qualname(call.func) not in CALLABLE_TIMERS:
            continue
        timed = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "stmt"), None)
        if isinstance(timed, ast.Lambda) and not timed.args.args and _dispatches(model, ast.Expr(value=timed.body)):
            yield Finding.at(call, "JNP603", {"clock": describe(call.func), "start": call.lineno,
                                              "work": describe(timed.body)})


def _timed_with_blocks(model, timed, clocked):
    """``with Timer() as t: <JAX calls only>``, where the same-file class reads a clock in both
    ``__enter__`` and ``__exit__``: the block is a timed region that ends before JAX finishes."""
    for block in model.nodes(ast.With):
        if len(block.items) != 1 or not isinstance(block.items[0].context_expr, ast.Call) \
                or model.enclosing_function(block) in model.traced:  # clocks in traced code are JNP305's
            continue
        func = block.items[0].context_expr.func
        found = model.one_binding(func, BindingKind.CLASS)
        if found is None:
            continue
        methods = {m.name: m for m in found.node.body if isinstance(m, ast.FunctionDef)}
        enter, exit_ = methods.get("__enter__"), methods.get("__exit__")
        if enter not in timed or exit_ not in timed:
            continue
        clock = next(node for stmt in exit_.body if stmt in clocked for node in own_expression_nodes(stmt)
                     if isinstance(node, ast.Call) and model.qualname(node.func) in TIMERS)
        work = [stmt.value if _dispatches(model, stmt) else _dispatching_loop(model, stmt, clocked)
                for stmt in block.body]
        if all(w is not None for w in work):
            yield Finding.at(block, "JNP603", {"clock": describe(clock.func), "start": block.lineno,
                                               "work": describe(work[-1])})


def _every_n_clock(model, loop, clocked):
    """``for ...: state = step(state); if step % N == 0: dt = clock() - t0; float(loss); t0 = clock()``:
    the loop only queues JAX work, and its every-N block reads the clock before anything in it
    waits and restarts it after the wait, so ``dt`` measures dispatch, never the steps'
    computation. (Restarted before the wait, the next interval holds it: the rate lags one
    block but adds up, as Haiku's examples do on purpose.)"""
    guards = [stmt for stmt in loop.body if isinstance(stmt, ast.If)]
    if len(guards) != 1 or _touches_device(model, guards[0].test) \
            or _touches_device(model, loop.test if isinstance(loop, ast.While) else loop.iter):
        return
    guard, last = guards[0], None
    for stmt in loop.body:
        if _dispatches(model, stmt):
            last = stmt.value
        elif stmt is not guard and not _host_only(model, stmt):
            return
    for index, stmt in enumerate(guard.body if last is not None else ()):
        clock = _clock_read(model, stmt, clocked)
        if clock is not None:
            start = _clock_start(model, clock)
            if start is not None and _reads_clock_first(model, stmt, clock) \
                    and _restarted_after_a_wait(model, guard.body[index:], start):
                yield Finding.at(clock, "JNP603", {"clock": describe(clock.func), "start": _first_binding(model, start),
                                                   "work": describe(last)})
            return
        if not _host_only(model, stmt):
            return


def _timed_from_before_the_loop(model, loop, clocked):
    """``t0 = clock(); for ...: state = step(state); log(clock() - t0)``: a loop that queues JAX work
    and never waits, reading the clock of a region that started before it (every binding of ``t0`` is
    a clock read outside the loop): the time measures dispatch alone. (A wait anywhere in the loop
    makes the cumulative time hold every step but the last, as in ``_every_n_clock``'s silent case.)"""
    if _touches_device(model, loop.test if isinstance(loop, ast.While) else loop.iter):
        return
    work, clocks = None, []
    for stmt in loop.body:
        clock = _clock_read(model, stmt, clocked)
        if clock is not None and not _touches_device(model, stmt, clocks=False):
            clocks.append(clock)
        elif _dispatches(model, stmt):
            work = stmt.value
        elif not _host_only(model, stmt):
            return
    for clock in clocks if work is not None else ():
        start = _clock_start(model, clock)
        if start is not None and not any(loop.lineno <= binding.stmt.lineno <= loop.end_lineno
                                         for binding in model.resolve(start)[1]):
            yield Finding.at(clock, "JNP603", {"clock": describe(clock.func), "start": _first_binding(model, start),
                                               "work": describe(work)})


def _on_device(model, expr):
    """Device data, or a container or record holding some: what the model knows, or the result of
    calling a jitted callable parameter."""
    return model.array_value(expr).holds_device_arrays \
        or isinstance(expr, ast.Call) and _jitted_parameter(model, expr.func)


def _jitted_parameter(model, func_expr):
    """``fn`` in ``fn(*args)``: a parameter (of this def or of an enclosing one: a timing decorator's
    wrapper calls ``func``) that every call of its def in the file passes a jitted function. Callers
    that pass anything else, none seen, or a reference other than a call leave it unknown."""
    found = model.resolve(func_expr) if isinstance(func_expr, ast.Name) else None
    if not found or len(found[1]) != 1 or found[1][0].kind is not BindingKind.PARAM \
            or not isinstance(found[0].node, ast.FunctionDef):
        return False
    func = found[0].node
    names = positional_names(func)
    calls = model.calls_of(func)
    arguments = [argument_for(call, names, func_expr.id) for call in calls or ()]
    return bool(arguments) and all(argument is not None and _jitted_function(model, argument)
                                   for argument in arguments)


def _jitted_function(model, expr):
    """``jax.jit(f)`` written in place, or a name of a jitted function."""
    if isinstance(expr, ast.Call):
        return model.qualname(expr.func) in model.staging_transforms
    return isinstance(expr, (ast.Name, ast.Attribute)) and is_jitted(model, expr)


def _restarted_after_a_wait(model, stmts, start):
    """Whether ``stmts`` (from the clock read on) wait for the device before one of them binds
    the start name (``t0``) to a new clock read."""
    waited = False
    for stmt in stmts:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == start.id for t in stmt.targets):
            return waited
        waited = waited or _touches_device(model, stmt, clocks=False)
    return False


def _clock_start(model, clock):
    """``t0`` of ``clock() - t0``, when every binding of it is a clock read."""
    parent = model.parent(clock)
    if not (isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Sub) and parent.left is clock
            and isinstance(parent.right, ast.Name)):
        return None
    found = model.resolve(parent.right)
    if not found or not all(b.kind is BindingKind.ASSIGN and isinstance(b.value, ast.Call)
                            and model.qualname(b.value.func) in TIMERS for b in found[1]):
        return None
    return parent.right


def _first_binding(model, name):
    return min(binding.stmt.lineno for binding in model.resolve(name)[1])


def _host_only(model, stmt):
    """A simple statement that reads no device value and calls no clock or sync."""
    return isinstance(stmt, (ast.Assign, ast.AugAssign, ast.Expr)) and not _touches_device(model, stmt)


def _dispatching_loop(model, stmt, clocked):
    """The last JAX call of a loop whose body only queues JAX work and does host work that
    touches no device value (``x = shard(batch)``), so nothing in it waits; else None."""
    if not isinstance(stmt, (ast.For, ast.While)) or stmt.orelse or _clock_read(model, stmt, clocked) is not None:
        return None
    if _touches_device(model, stmt.test if isinstance(stmt, ast.While) else stmt.iter):
        return None  # a device truth test waits; so may iterating over a device array
    last = None
    for inner in stmt.body:
        if _dispatches(model, inner):
            last = inner.value
        elif not _host_only(model, inner):
            return None
    return last


def _touches_device(model, node, clocks=True):
    """Whether an expression (or simple statement) reads a device value or calls a sync (or, with
    ``clocks``, a clock): host work that reads none of them cannot wait for JAX."""
    for part in own_expression_nodes(node) if isinstance(node, ast.stmt) else ast.walk(node):
        if isinstance(part, ast.Call) and (model.qualname(part.func) in (TIMERS if clocks else set()) | SYNC_FUNCTIONS
                                           or isinstance(part.func, ast.Attribute) and part.func.attr in SYNC_METHODS):
            return True
        if isinstance(part, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) and model.array_value(part).on_device:
            return True
    return False


def _clock_read(model, stmt, clocked):
    """The first clock read among the statement's own expressions, or None; only a statement in
    ``clocked`` (those that hold one) is walked."""
    return next((node for node in own_expression_nodes(stmt)
                 if isinstance(node, ast.Call) and model.qualname(node.func) in TIMERS), None) \
        if stmt in clocked else None


def _reads_clock_first(model, stmt, clock):
    """Nothing in the statement runs before the clock read that could wait for the device: a call,
    or a formatted field that may hold a device array (formatting one waits). The fields of an
    f-string with several are not ordered (they share one position before 3.12): each field without
    the clock counts as before it, and is harmless only when it is a Python value (``{method}`` that
    every call gives a string) and calls nothing."""
    nodes = list(own_expression_nodes(stmt))
    unordered = {id(node) for string in nodes if isinstance(string, ast.JoinedStr)
                 and sum(isinstance(v, ast.FormattedValue) for v in string.values) > 1
                 for field in string.values if isinstance(field, ast.FormattedValue) and clock not in ast.walk(field)
                 for node in ast.walk(field)}
    start = (clock.lineno, clock.col_offset)
    return not any(isinstance(node, (ast.Call, ast.FormattedValue)) and node is not clock
                   and (id(node) in unordered or (node.end_lineno, node.end_col_offset) <= start)
                   and not (isinstance(node, ast.FormattedValue) and _python_scalar(model.value(node.value)))
                   for node in nodes)


def _python_scalar(value):
    """A Python value that holds no part (a list may hold device arrays, which formatting waits for)."""
    return value.kind is PYTHON and value.container is None


def _dispatches(model, stmt):
    """A statement that only queues JAX work: it computes device arrays and nothing in it waits. A
    list comprehension queues its element's work on each iteration (``[step() for _ in range(n)]``)."""
    if not isinstance(stmt, (ast.Assign, ast.Expr)) or isinstance(stmt.value, (ast.Name, ast.Attribute)):
        return False
    value = stmt.value
    if isinstance(value, ast.ListComp):
        if any(_touches_device(model, part) for gen in value.generators for part in (gen.iter, *gen.ifs)):
            return False
        value = value.elt
    if not _on_device(model, value):
        return False
    for node in own_expression_nodes(ast.Expr(value=value)):
        if isinstance(node, (ast.FormattedValue, ast.Lambda)):
            return False
        if isinstance(node, ast.Call) and model.transform_spec(node.func) is None:  # jax.vmap(f) waits for nothing
            if not _on_device(model, node) or model.qualname(node.func) in SYNC_FUNCTIONS:
                return False
            if isinstance(node.func, ast.Attribute) and node.func.attr in SYNC_METHODS:
                return False
    return True
