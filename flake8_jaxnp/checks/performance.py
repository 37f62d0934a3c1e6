"""JNP602-JNP603: compilation repeated in a loop, and timing that does not wait for JAX."""
import ast

from ..facts import TIMERS
from ..findings import Finding
from ..model.instances import method_in
from ..model.names import BindingKind
from ..model.syntax import COMPREHENSIONS, PARTIAL, expression_children, walk_own
from . import blocks, describe, is_jitted, iterates_twice, jitted_by, jitted_parameters, repeats, rule
from .transfers import LOOPS

# Calls that wait for the device: after one of them the clock reads a finished result.
SYNC_METHODS = frozenset({"block_until_ready", "item", "tolist", "__array__"})
SYNC_FUNCTIONS = frozenset({"jax.block_until_ready", "jax.device_get"})
# Calls that time a callable they are given (``timeit.repeat(lambda: f(x))``): its run is the region.
CALLABLE_TIMERS = frozenset({"timeit.timeit", "timeit.repeat"})
# Calls whose result is longer than an array given in their first argument's sequence.
GROWING = frozenset(f"{module}.{name}" for module in ("jax.numpy", "numpy") for name in (
    "concatenate", "concat", "append", "hstack", "vstack", "dstack", "column_stack", "row_stack"))


@rule("JNP602", "JNP603")
def recompiles_and_timing(model):
    calls = [call for call in model.nodes(ast.Call) if model.qualname(call.func) in TIMERS]
    timed = {model.enclosing_function(call) for call in calls}  # scopes that read a clock (None: module)
    clocked = {model.statement_of(call) for call in calls}  # the statements that read one (_clock_read)
    compiles = _compiles(model)
    looping = {model.enclosing_function(loop) for loop in model.nodes(*LOOPS)} if compiles else set()
    walked = {}  # loop -> what its body binds and calls: one walk of it, however many statements ask
    for scope in timed | looping:
        node = model.tree if scope is None else scope
        if isinstance(node, ast.Lambda) or node in model.traced:
            continue  # traced loops unroll at trace time; their clocks are JNP305
        for stmts, loop in blocks(node.body, repeats):
            if loop is not None and scope in looping:
                for stmt in stmts:
                    yield from _recompiles(model, loop, stmt, walked)
            if scope in timed:
                yield from _unsynchronised(model, stmts, clocked)
                if loop is not None and stmts is loop.body:
                    yield from _every_n_clock(model, loop, clocked)
                    yield from _timed_from_before_the_loop(model, loop, clocked)
    if compiles:
        yield from _compiled_per_call(model, walked)
    yield from _timed_callables(model)
    if calls:
        yield from _timed_with_blocks(model, {model.enclosing_function(call) for call in calls}, clocked)


def _compiles(model):
    """Whether the module uses a staging transform at all (as a call or a decorator), or calls what
    a call gives (``make_step()(x)``: another module's function may jit anew)."""
    return any(model.qualname(call.func) in model.staging_transforms or type(call.func) is ast.Call
               for call in model.nodes(ast.Call)) or any(
        (model.transform_spec(d) or ("",))[0] in model.staging_transforms
        for f in model.nodes(ast.FunctionDef, ast.AsyncFunctionDef) for d in f.decorator_list)


# ---- JNP602 ---------------------------------------------------------------------------------
def _recompiles(model, loop, stmt, walked):
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        for decorator in stmt.decorator_list:
            spec = model.transform_spec(decorator)
            if spec and spec[0] in model.staging_transforms and _called_in(loop, stmt.name, walked):
                yield Finding.at(decorator, "JNP602", {
                    "what": f"@{describe(decorator)} makes a new function '{stmt.name}'", "loop": loop.lineno,
                    "fix": "define and jit it once, before the loop"})
        return
    for node in _own_expression_nodes(stmt):
        if isinstance(node, ast.Call):
            yield from _fresh_transform(model, loop, stmt, node, walked)
            yield from _changing_static(model, loop, node, walked)
            yield from _growing_argument(model, loop, node, walked)


def _own_expression_nodes(stmt):
    """The expression nodes of one statement (not nested statements, not lambda bodies)."""
    return walk_own(expression_children(stmt), ast.Lambda, expression_children)


def _fresh_transform(model, loop, stmt, call, walked):
    """``jax.jit(lambda ...)``, ``jax.jit(partial(f, ...))``, ``jax.jit(jax.grad(f))`` or ``jax.jit(h)`` of a
    def made in the loop, called in the same loop."""
    fresh = _fresh_and_called(model, loop, stmt, call, walked)
    if fresh is not None:
        yield Finding.at(call, "JNP602", {"what": f"{describe(call.func)}() of {fresh}", "loop": loop.lineno,
                                          "fix": "build the jitted function once, before the loop"})


def _fresh_and_called(model, body, stmt, call, walked):
    """What new function ``call`` (a staging transform in ``stmt`` of the loop or def ``body``) is
    given (``_fresh_function``), or that a call of another module's function makes on each call
    (``fresh_jitted``: ``make_step()`` returning ``jax.jit`` of a nested def), when ``body`` also
    calls what it makes; else None."""
    transform = model.qualname(call.func) in model.staging_transforms
    if transform and not call.args or not transform and type(call.func) not in (ast.Name, ast.Attribute):
        return None
    parent = model.parent(call)
    called = isinstance(parent, ast.Call) and parent.func is call
    if not called and isinstance(stmt, ast.Assign) and stmt.value is call and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], ast.Name):
        called = _called_in(body, stmt.targets[0].id, walked)
    if not called:
        return None
    if transform:
        return _fresh_function(model, body, call.args[0])
    helper = model.helper_facts(call.func) if model.project is not None else None
    made = helper is not None and helper[1] is not None and helper[0].get("fresh_jitted")
    return f"a function it defines and jits anew on each call ({helper[1]}:{helper[0]['line']})," if made else None


def _compiled_per_call(model, walked):
    """A def that makes a new jitted function and calls it, in a statement that runs on every call
    (``return jax.jit(jax.grad(f))(x)``, or a nested ``@jax.jit`` def it calls), compiles on every
    call: JNP602 where it jits (at the calls of a nested jitted def) when a loop calls the def, in
    this module or, through an import, in another one (``Project.looped_elsewhere``; a loop in an
    undecorated def or at the top level). The defs: top-level functions and the methods of
    top-level classes, undecorated and untraced."""
    made = {}
    for func in _plain_defs(model):
        nested = {stmt.name for stmt in func.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and any((model.transform_spec(d) or ("",))[0] in model.staging_transforms
                          for d in stmt.decorator_list)}
        for stmt in func.body:
            if isinstance(stmt, (ast.Expr, ast.Return, ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for node in _own_expression_nodes(stmt):
                    if not isinstance(node, ast.Call):
                        continue
                    run = _nested_def_run(model, node)  # loss(x), or jax.grad(loss)(x): a transform of it
                    if isinstance(run, ast.Name) and run.id in nested and model.callee(run) in func.body:
                        made.setdefault(func, []).append((node, f"the jitted def '{run.id}'"))
                    elif (fresh := _fresh_and_called(model, func, stmt, node, walked)) is not None:
                        made.setdefault(func, []).append((node, f"{describe(node.func)}() of {fresh}"))
    if not made:
        return
    looping = _looping_callers(model, made)
    for func, found in made.items():
        loop = looping.get(func)
        if loop is None and model.project is not None and model.parent(func) is model.tree:
            elsewhere = model.project.looped_elsewhere(func.name)
            loop = f"{elsewhere[0][1]} of {elsewhere[0][0]}" if elsewhere else None
        for call, what in found if loop is not None else ():
            yield Finding.at(call, "JNP602", {
                "what": f"{what}, made by each call of {func.name}(),", "loop": loop,
                "fix": f"build the jitted function once, outside {func.name}()"})


def _nested_def_run(model, call):
    """What a call runs: its function, or the function a transform is given (``jax.grad(f)(x)``)."""
    func = call.func
    if isinstance(func, ast.Call) and model.qualname(func.func) in model.transform_names and func.args:
        return func.args[0]
    return func


def _plain_defs(model):
    """The module's top-level defs and its top-level classes' methods, undecorated and untraced."""
    for node in model.tree.body:
        for func in node.body if isinstance(node, ast.ClassDef) else [node]:
            if type(func) in (ast.FunctionDef, ast.AsyncFunctionDef) and not func.decorator_list \
                    and func not in model.traced:
                yield func


def _looping_callers(model, funcs):
    """{def among ``funcs``: the line of the first loop of this module that calls it: by name, or
    as ``obj.method(...)`` of a name holding an instance of the def's class}, loops in traced code
    left out (they run once, at trace time)."""
    found = {}
    for loop in model.nodes(*LOOPS, *COMPREHENSIONS):
        home = model.enclosing_function(loop)
        if isinstance(home, ast.Lambda) or home in model.traced:
            continue
        if type(loop) in COMPREHENSIONS:  # [train(m) for _ in range(4)]: its element is built per item
            if not iterates_twice(loop.generators[0].iter):
                continue
            body = [loop.key, loop.value] if type(loop) is ast.DictComp else [loop.elt]
        elif repeats(loop):
            body = loop.body
        else:
            continue
        for node in walk_own(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            if isinstance(node, ast.Call):
                callee = _called_def(model, node.func)
                if callee in funcs and (callee not in found or loop.lineno < found[callee]):
                    found[callee] = loop.lineno
    return found


def _called_def(model, func_expr):
    """The same-file def ``f`` or ``obj.method`` names (``obj`` holding a same-file class's instance)."""
    if isinstance(func_expr, ast.Name):
        return model.callee(func_expr)
    if isinstance(func_expr, ast.Attribute) and isinstance(func_expr.value, ast.Name):
        return method_in(model.class_of(func_expr.value), func_expr.attr)
    return None


def _fresh_function(model, loop, expr):
    if isinstance(expr, ast.Lambda):
        return "a new lambda"
    if isinstance(expr, ast.Call) and model.qualname(expr.func) in PARTIAL:
        return "a new functools.partial"
    if isinstance(expr, ast.Call) and model.qualname(expr.func) in model.transform_names - model.staging_transforms:
        return f"the new function that {describe(expr.func)}() returns"  # jax.grad(f) is a new object on each call
    func = model.callee(expr) if isinstance(expr, ast.Name) else None
    if func is not None and _inside(model, func, loop):
        return f"the function '{expr.id}' defined in the loop"
    return None


def _inside(model, node, ancestor):
    while node is not None and node is not ancestor:
        node = model.parent(node)
    return node is ancestor


def _called_in(loop, name, walked):
    """Whether the loop's body calls ``name``."""
    return name in _body_names(loop, walked)[1]


def _body_names(loop, walked):
    """({name the loop's body binds: the Name nodes that bind it}, names it calls), from one
    walk of the body kept in ``walked``: a loop with thousands of calls is not walked once per call."""
    if loop not in walked:
        bound, called = {}, set()
        for node in walk_own(loop.body, ()):  # nested defs and lambdas too
            kind = type(node)
            if kind is ast.Name and type(node.ctx) is not ast.Load:
                bound.setdefault(node.id, []).append(node)
            elif kind is ast.Call and type(node.func) is ast.Name:
                called.add(node.func.id)
        walked[loop] = bound, called
    return walked[loop]


def _changing_static(model, loop, call, walked):
    """A range() loop counter passed as a static argument of a jitted function: one its options
    make static, any under a transform that keeps Python scalars static (``eqx.filter_jit``), or
    a field of a Module built from it that the framework's jit keeps static (``static_fields``)."""
    counter = _counter(loop, walked)
    jitted = jitted_by(model, call.func) if counter is not None else None
    static = jitted_parameters(model, call.func, "static_argnums", "static_argnames")
    if counter is None or static is None and jitted is None:
        return
    positions, names = static or ((), ())
    every = jitted is not None and jitted[0] in model.scalars_static & model.staging_transforms  # filter_jit
    passed = [(f"at position {i}", a) for i, a in enumerate(call.args) if every or i in positions] + \
        [(f"'{k.arg}'", k.value) for k in call.keywords if every or k.arg in names]
    for label, arg in passed:
        if _new_every_iteration(model, loop, arg, counter, walked):
            yield Finding.at(call, "JNP602", {
                "what": f"the static argument {label} of {describe(call.func)}() takes a new value ('{counter}')",
                "loop": loop.lineno, "fix": "pass the changing value as a traced argument, not a static one"})
            return
    for arg in [*call.args, *(k.value for k in call.keywords)] if jitted is not None else ():
        field = _counter_field(model, loop, arg, counter, jitted[0], walked)
        if field is not None:
            yield Finding.at(call, "JNP602", {
                "what": f"the field '{field}' of the module given to {describe(call.func)}() takes a new Python "
                        f"value ('{counter}'), static under {jitted[0]}", "loop": loop.lineno,
                "fix": "store it as an array (jnp.asarray), or pass it as a traced argument"})
            return


def _counter_field(model, loop, arg, counter, transform, walked):
    """The field of a framework Module that ``arg`` holds, built in the loop's body (inline, or a
    name bound once there; ``C(...)`` or ``eqx.tree_at`` of one) with a new value of the loop's
    ``counter`` at that field (``_new_every_iteration``), when ``transform`` keeps it static
    (``static_fields``); else None."""
    arg = _bound_in_body(model, loop, arg, walked)
    found = model.static_fields(arg) if isinstance(arg, ast.Call) else None
    if found is None or found[1] != transform:
        return None
    return next((field for field, value in found[0] if _new_every_iteration(model, loop, value, counter, walked)),
                None)


def _bound_in_body(model, loop, expr, walked):
    """The value a Name that the loop's body binds once (``x = ...``) is bound to; ``expr`` itself
    when it is not a Name; None otherwise."""
    if not isinstance(expr, ast.Name):
        return expr
    stores = _body_names(loop, walked)[0].get(expr.id, ())
    stmt = model.parent(stores[0]) if len(stores) == 1 else None
    return stmt.value if isinstance(stmt, ast.Assign) and stmt.targets == [stores[0]] else None


def _new_every_iteration(model, loop, expr, counter, walked, depth=0):
    """Whether ``expr`` holds a new Python number on every iteration: the loop's ``counter``, or
    arithmetic of it with number literals that keeps values apart (``1.0 / (step + 1)``,
    ``0.1 * 0.5 ** epoch``; not ``step % 2``, ``step * 0`` or ``1 ** step``), directly or
    through a name the body binds once to such an expression."""
    if isinstance(expr, ast.Name):
        if expr.id == counter:
            return True
        bound = _bound_in_body(model, loop, expr, walked)
        return bound is not None and depth < 4 and _new_every_iteration(model, loop, bound, counter, walked, depth + 1)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        return _new_every_iteration(model, loop, expr.operand, counter, walked, depth)
    if not isinstance(expr, ast.BinOp) or not isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
        return False
    for varying, fixed in ((expr.left, expr.right), (expr.right, expr.left)):
        if isinstance(fixed, ast.Constant) and type(fixed.value) in (int, float) and fixed.value != 0 \
                and not (isinstance(expr.op, ast.Pow) and fixed.value == 1) \
                and _new_every_iteration(model, loop, varying, counter, walked, depth):
            return True
    return False


def _growing_argument(model, loop, call, walked):
    """A jitted function called in the loop with a name the loop's body grows on every iteration
    (``x = jnp.concatenate([x, token], axis=1)``): each call sees a new shape, a new cache key."""
    names = [a.id for a in call.args if isinstance(a, ast.Name)] + \
        [k.value.id for k in call.keywords if isinstance(k.value, ast.Name)]
    if not names or not is_jitted(model, call.func):
        return
    for name in names:
        growth = _growth(model, loop, name, walked)
        if growth is not None:
            yield Finding.at(call, "JNP602", {
                "what": f"'{name}' grows (line {growth.lineno}) and is passed to the jitted {describe(call.func)}()",
                "loop": loop.lineno, "fix": "preallocate it at its final size and fill it with .at[i].set() or "
                                            "lax.dynamic_update_slice, or pad it to a fixed length"})
            return


def _growth(model, loop, name, walked):
    """The one statement of the loop's body that binds ``name``, when it is ``name = concatenate([name,
    ...])`` (or append, hstack, ...) run on every iteration; else None."""
    stores = _body_names(loop, walked)[0].get(name, ())
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


def _counter(loop, walked):
    """The name a ``for i in range(...)`` or ``for i, x in enumerate(...)`` loop counts with."""
    if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call) \
            or not isinstance(loop.iter.func, ast.Name):
        return None
    target = loop.target
    if loop.iter.func.id == "enumerate" and isinstance(target, ast.Tuple) and target.elts:
        target = target.elts[0]
    elif loop.iter.func.id != "range":
        return None
    if not isinstance(target, ast.Name):
        return None
    return None if target.id in _body_names(loop, walked)[0] else target.id  # rebound in the body


# ---- JNP603 ---------------------------------------------------------------------------------
def _unsynchronised(model, block, clocked):
    """``t = clock(); <JAX calls only>; clock()`` in one block: the region ends before JAX finishes.
    The JAX calls may be a loop of them (``for b in batches: state = update(state, b)``)."""
    start, work = None, []
    for stmt in block:
        clock = _clock_read(model, stmt, clocked)
        if clock is not None and start is not None and work and _reads_clock_first(stmt, clock):
            yield Finding.at(clock, "JNP603", {"clock": describe(clock.func), "start": start.lineno,
                                               "work": describe(work[-1])})
        if clock is not None and isinstance(stmt, ast.Assign) and stmt.value is clock:
            start, work = stmt, []
        elif start is not None and _dispatches(model, stmt):
            work.append(stmt.value)
        elif start is not None and (last := _dispatching_loop(model, stmt, clocked)) is not None:
            work.append(last)
        else:
            start, work = None, []


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
        clock = next(node for stmt in exit_.body if stmt in clocked for node in _own_expression_nodes(stmt)
                     if isinstance(node, ast.Call) and model.qualname(node.func) in TIMERS)
        work = [_dispatched(model, stmt, clocked) for stmt in block.body]
        if all(w is not None for w in work):
            yield Finding.at(block, "JNP603", {"clock": describe(clock.func), "start": block.lineno,
                                               "work": describe(work[-1])})


def _dispatched(model, stmt, clocked):
    """The JAX work a statement only queues (itself, or a loop's last call), else None."""
    return stmt.value if _dispatches(model, stmt) else _dispatching_loop(model, stmt, clocked)


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
            if start is not None and _reads_clock_first(stmt, clock) \
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
    """Device data: what the model knows, or the result of calling a jitted callable parameter."""
    return model.array_value(expr).on_device or isinstance(expr, ast.Call) and _jitted_parameter(model, expr.func)


def _jitted_parameter(model, func_expr):
    """``fn`` in ``fn(*args)``: a parameter (of this def or of an enclosing one: a timing decorator's
    wrapper calls ``func``) that every call of its def in the file passes a jitted function. Callers
    that pass anything else, none seen, or a reference other than a call leave it unknown."""
    func = model.parameter_of(func_expr)
    if not isinstance(func, ast.FunctionDef):
        return False
    return model.passed_to(func, func_expr.id, lambda argument: [
        argument is not None and _jitted_function(model, argument)]) == [True]


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
    for part in _own_expression_nodes(node) if isinstance(node, ast.stmt) else ast.walk(node):
        if isinstance(part, ast.Call) and (model.qualname(part.func) in (TIMERS if clocks else set()) | SYNC_FUNCTIONS
                                           or isinstance(part.func, ast.Attribute) and part.func.attr in SYNC_METHODS):
            return True
        if isinstance(part, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) and model.array_value(part).on_device:
            return True
    return False


def _clock_read(model, stmt, clocked):
    """The first clock read among the statement's own expressions, or None; only a statement in
    ``clocked`` (those that hold one) is walked."""
    return next((node for node in _own_expression_nodes(stmt)
                 if isinstance(node, ast.Call) and model.qualname(node.func) in TIMERS), None) \
        if stmt in clocked else None


def _reads_clock_first(stmt, clock):
    """Nothing in the statement runs before the clock read that could wait for the device (an
    f-string with several fields is not ordered: its parts share one position before 3.12)."""
    nodes = list(_own_expression_nodes(stmt))
    if any(isinstance(n, ast.JoinedStr) and sum(isinstance(v, ast.FormattedValue) for v in n.values) > 1
           for n in nodes):
        return False
    return not any(isinstance(node, (ast.Call, ast.FormattedValue)) and node is not clock
                   and (node.end_lineno, node.end_col_offset) <= (clock.lineno, clock.col_offset)
                   for node in nodes)


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
    for node in _own_expression_nodes(ast.Expr(value=value)):
        if isinstance(node, (ast.FormattedValue, ast.Lambda)):
            return False
        if isinstance(node, ast.Call):
            if not _on_device(model, node) or model.qualname(node.func) in SYNC_FUNCTIONS:
                return False
            if isinstance(node.func, ast.Attribute) and node.func.attr in SYNC_METHODS:
                return False
    return True
