"""JNP602: compilation repeated in a loop."""
import ast

from .. import api
from ..findings import Finding
from ..model.names import BindingKind
from ..model.syntax import COMPREHENSIONS, PARTIAL, bound_names, method_in, own_expression_nodes, parameters, walk_own
from . import blocks, called_def, describe, is_jitted, iterates_twice, jitted_by, jitted_parameters, repeats, rule
from .loop_changes import (bound_in_body, counter_shaped, growth_of, iterated_code, loop_counter, new_every_iteration,
                           new_object_every_iteration)
from .transfers import LOOPS


@rule("JNP602")
def recompile_in_loop(model):
    walked = {}  # loop -> what its body binds: one walk of it, however many statements ask
    for scope in {model.enclosing_function(loop) for loop in model.nodes(*LOOPS)}:
        node = model.tree if scope is None else scope
        if isinstance(node, ast.Lambda) or node in model.traced:
            continue  # traced loops unroll at trace time
        for stmts, loop in blocks(node.body, repeats):
            for stmt in stmts if loop is not None else ():
                yield from _recompiles(model, loop, stmt, walked)
    yield from _compiled_per_call(model, walked)
    yield from _comprehended_statics(model, walked)


def _recompiles(model, loop, stmt, walked):
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        for decorator in stmt.decorator_list:
            spec = model.transform_spec(decorator)
            if spec and spec[0] in model.staging_transforms and _called_in(model, loop, stmt.name):
                yield Finding.at(decorator, "JNP602", {
                    "what": f"@{describe(decorator)} makes a new function '{stmt.name}'", "loop": loop.lineno,
                    "fix": "define and jit it once, before the loop"})
        return
    for node in own_expression_nodes(stmt):
        if isinstance(node, ast.Call):
            yield from _fresh_transform(model, loop, stmt, node, walked)
            yield from _changing_static(model, loop, node, walked)
            yield from _new_held_object(model, loop, node, walked)
            yield from _rebuilt_module(model, loop, node)
            yield from _growing_argument(model, loop, node, walked)


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
        called = _called_in(model, body, stmt.targets[0].id)
    if not called:
        return None
    if transform:
        if _chosen_per_call(model, body, call.args[0]):
            return None
        rewrapped = api.framework_transforms().get(model.qualname(call.func), {}).get("traced_per_wrapper")
        return _fresh_function(model, body, call.args[0]) or (
            f"{describe(call.args[0])} again (each new wrapper keeps its own cache)" if rewrapped else None)
    helper = model.helper_facts(call.func) if model.project is not None else None
    made = helper is not None and helper[1] is not None and helper[0].get("fresh_jitted")
    return f"a function it defines and jits anew on each call ({helper[1]}:{helper[0]['line']})," if made else None


def _compiled_per_call(model, walked):
    """A def that makes a new jitted function and calls it, in a statement that runs on every call
    (``return jax.jit(jax.grad(f))(x)``, or a nested ``@jax.jit`` def it calls), compiles on every
    call: JNP602 where it jits (at the calls of a nested jitted def) when a loop calls the def, in
    this module or, through an import, in another one (``Project.looped_elsewhere``; a loop in an
    undecorated def or at the top level). The defs: top-level functions and the methods of
    top-level classes, undecorated and untraced; and for a control-flow call given a new body
    (``_fresh_body``), any undecorated def but one made in traced code or a nested one traced: the
    loop's own call of a method or a top-level def traced elsewhere runs it eagerly."""
    made, statics = {}, set()  # statics: the calls given a new static object (_fresh_static)
    bodies = set()  # the control-flow calls given a new body (_fresh_body)
    # (only a def that calls a function giving a new object on each call can pass one: no other is walked)
    fresh_objects = api.framework_fresh_objects()
    makes_fresh = {model.enclosing_function(call) for call in model.nodes(ast.Call)
                   if model.qualname(call.func) in fresh_objects}
    plain_defs, top = set(_plain_defs(model)), set(_plain_defs(model, traced=True))
    looping = {model.enclosing_function(call) for call in model.nodes(ast.Call)  # (those _fresh_body asks of)
               if model.qualname(call.func) in api.lax_traced_per_function()}
    for func in plain_defs | {f for f in looping if type(f) in (ast.FunctionDef, ast.AsyncFunctionDef)}:
        if func.decorator_list or func not in top and (func in model.traced or model.enclosing_function(func)
                                                       in model.traced):
            continue  # (a def made in traced code is made at trace time; a nested traced one runs traced)
        plain = func in plain_defs
        nested = {stmt.name for stmt in func.body if plain and isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and any((model.transform_spec(d) or ("",))[0] in model.staging_transforms
                          for d in stmt.decorator_list)}
        for stmt in func.body:
            if isinstance(stmt, (ast.Expr, ast.Return, ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for node in own_expression_nodes(stmt):
                    if not isinstance(node, ast.Call):
                        continue
                    run = _nested_def_run(model, node)  # loss(x), or jax.grad(loss)(x): a transform of it
                    if isinstance(run, ast.Name) and run.id in nested and model.callee(run) in func.body:
                        made.setdefault(func, []).append((node, f"the jitted def '{run.id}'"))
                    elif plain and (fresh := _fresh_and_called(model, func, stmt, node, walked)) is not None:
                        made.setdefault(func, []).append((node, f"{describe(node.func)}() of {fresh}"))
                    elif (body := _fresh_body(model, func, node)) is not None:
                        made.setdefault(func, []).append((node, f"{describe(node.func)}() of {body}"))
                        bodies.add(node)
        for node in walk_own(func.body) if plain and func in makes_fresh else ():
            if isinstance(node, ast.Call) and (static := _fresh_static(model, func, node)) is not None:
                made.setdefault(func, []).append((node, static))
                statics.add(node)
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
                "fix": f"make it once, outside {func.name}(), and pass it in" if call in statics
                else f"define it once, outside {func.name}(), or jit {func.name}()" if call in bodies
                else f"build the jitted function once, outside {func.name}()"})


def _fresh_static(model, func, call):
    """What ``call`` of a jitted function in ``func`` is given as a static argument that is a new
    object on each call of ``func``: the result of a function measured to give one unequal to the
    last (``framework_fresh_objects``: ``optax.adam(1e-3)``), inline or bound once in ``func``."""
    static = jitted_parameters(model, call.func, "static_argnums", "static_argnames")
    positions, names = static or ((), ())
    for label, arg in [(f"at position {i}", a) for i, a in enumerate(call.args) if i in positions] + \
            [(f"'{k.arg}'", k.value) for k in call.keywords if k.arg in names]:
        found = model.resolve(arg) if isinstance(arg, ast.Name) else None
        if found is not None and found[0].node is func and len(found[1]) == 1 \
                and found[1][0].kind is BindingKind.ASSIGN:
            arg = found[1][0].value
        if isinstance(arg, ast.Call) and model.qualname(arg.func) in api.framework_fresh_objects():
            return f"the static argument {label} of {describe(call.func)}() is the new object " \
                   f"{describe(arg.func)}() gives"
    return None


def _fresh_body(model, func, call):
    """The new function a control-flow call in ``func`` is given as a body when it traces its bodies
    again for each new function (``lax_traced_per_function``, measured: outside jit each such call
    compiles again): a lambda, or a def of ``func``'s own body; else None."""
    qualname = model.qualname(call.func)
    if qualname not in api.lax_traced_per_function():
        return None
    for position in api.lax_bodies().get(qualname, ()):
        given = call.args[position] if position < len(call.args) else None
        for body in given.elts if isinstance(given, (ast.List, ast.Tuple)) else [given]:  # switch's branches
            if isinstance(body, ast.Lambda):
                return "a new lambda"
            if isinstance(body, ast.Name) and model.callee(body) in func.body:
                return f"the function '{body.id}' it defines"
    return None


def _nested_def_run(model, call):
    """What a call runs: its function, or the function a transform is given (``jax.grad(f)(x)``)."""
    func = call.func
    if isinstance(func, ast.Call) and model.qualname(func.func) in model.transform_names and func.args:
        return func.args[0]
    return func


def _plain_defs(model, traced=False):
    """The module's top-level defs and its top-level classes' methods, undecorated and (unless
    ``traced``) untraced."""
    for node in model.tree.body:
        for func in node.body if isinstance(node, ast.ClassDef) else [node]:
            if type(func) in (ast.FunctionDef, ast.AsyncFunctionDef) and not func.decorator_list \
                    and (traced or func not in model.traced):
                yield func


def _looping_callers(model, funcs):
    """{def among ``funcs``: the line of the first loop of this module that calls it: by name, or
    as ``obj.method(...)`` of a name holding an instance of the def's class, itself or an undecorated
    def that calls it (``solver.run()`` calling ``self._run()``)}, loops in traced code left out
    (they run once, at trace time)."""
    reaching = _reaching(model, funcs)
    found = {}
    for loop in model.nodes(*LOOPS, *COMPREHENSIONS):
        home = model.enclosing_function(loop)
        if isinstance(home, ast.Lambda) or home in model.traced:
            continue
        if not (iterates_twice(loop.generators[0].iter) if type(loop) in COMPREHENSIONS else repeats(loop)):
            continue  # [train(m) for _ in range(4)]: its element is built per item
        for node in walk_own(iterated_code(loop), (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            if isinstance(node, ast.Call):
                for callee in reaching.get(called_def(model, node.func), ()):
                    if callee not in found or loop.lineno < found[callee]:
                        found[callee] = loop.lineno
    return found


def _reaching(model, funcs):
    """{def: the defs among ``funcs`` that calling it runs}: each of ``funcs``, and the module's
    undecorated top-level defs and methods (``_plain_defs``) that call one of them, through each other:
    a loop's own call of one runs it eagerly, even where it is traced elsewhere. Only the calls that
    spell a def's name are resolved."""
    callers = set(_plain_defs(model, traced=True))
    reaching, pending = {func: {func} for func in funcs}, list(funcs)
    while pending:
        func = pending.pop()
        for call in model.nodes(ast.Call):
            if getattr(call.func, "id", None) != func.name and getattr(call.func, "attr", None) != func.name:
                continue
            caller = model.enclosing_function(call)
            if caller in callers and (called_def(model, call.func) or model.callee(call.func)) is func \
                    and not reaching[func] <= reaching.get(caller, set()):
                reaching.setdefault(caller, set()).update(reaching[func])
                pending.append(caller)
    return reaching


def _fresh_function(model, loop, expr, hashed=False):
    """What new function object ``expr`` makes on each evaluation in the loop, or None. ``hashed``: asked
    of a static argument, hashed rather than jitted, where a bound method is no new key (bound methods of
    one object compare equal)."""
    if isinstance(expr, ast.Lambda):
        return "a new lambda"
    if isinstance(expr, ast.Call) and model.qualname(expr.func) in PARTIAL:
        return "a new functools.partial"
    if isinstance(expr, ast.Call) and model.qualname(expr.func) in model.transform_names - model.staging_transforms:
        return f"the new function that {describe(expr.func)}() returns"  # jax.grad(f) is a new object on each call
    cls = model.class_of(expr.value) if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) else None
    if cls is not None and not hashed and model.bound_method(cls, expr.attr, model.module_facts(cls) is not None):
        return f"the method {describe(expr)}, bound anew on each access"
    func = model.callee(expr) if isinstance(expr, ast.Name) else None
    if func is not None and _inside(model, func, loop):
        return f"the function '{expr.id}' defined in the loop"
    maker = _function_maker(model, expr) if isinstance(expr, ast.Name) else None
    return f"the new function that {describe(maker.func)}() returns" if maker is not None else None


def _function_maker(model, name):
    """The transform call whose result the last binding of ``name`` before its statement unpacked into
    it, at a position that holds a function each call makes anew (measured: ``_, vjp_fun =
    jax.vjp(f, x)``); else None. That binding must stand in the same block: one in a nested block
    (``if custom: pb = g``) may not run, and one in an outer block may run once for many."""
    found = model.resolve(name)
    stmt = model.statement_of(name)
    before = [binding for binding in found[1] if binding.stmt is not None and binding.stmt.end_lineno < stmt.lineno] \
        if found is not None else ()
    last = max(before, key=lambda binding: binding.stmt.lineno) if before else None
    unpacked = last.unpacked() if last is not None and model.parent(last.stmt) is model.parent(stmt) else None
    if unpacked is None:
        return None
    call, position = unpacked
    return call if position in api.transforms().get(model.qualname(call.func), {}).get("functions", ()) else None


def _chosen_per_call(model, body, made):
    """Whether the function ``made`` calls a function chosen by what changes with each run of ``body``
    (a def's parameter, a loop's variable): ``ACQUISITIONS[name](...)``, ``fn(...)``,
    ``partial(fn, ...)``. Each run then compiles a different function, which no hoisting avoids."""
    changing = {a.arg for a in parameters(body)} if isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef)) else \
        bound_names(body.target) if isinstance(body, (ast.For, ast.AsyncFor)) else set()
    while isinstance(made, ast.Call) and made.args:
        made = made.args[0]  # partial(fn, ...), jax.grad(lambda ...): what it wraps
    if isinstance(made, ast.Lambda):
        changing -= {a.arg for a in parameters(made)}
        callees = [node.func for node in ast.walk(made.body) if isinstance(node, ast.Call)]
    else:
        callees = [made]
    for callee in callees:
        chooser = callee.slice if isinstance(callee, ast.Subscript) else callee
        if any(type(node) is ast.Name and node.id in changing for node in ast.walk(chooser)):
            return True
    return False


def _inside(model, node, ancestor):
    while node is not None and node is not ancestor:
        node = model.parent(node)
    return node is ancestor


def _called_in(model, loop, name):
    """Whether the loop's body (or a def's), nested defs and lambdas too, calls ``name``: read from
    the index of the name's reads (a few nodes, each followed up its parents), not a walk of the body."""
    iterated = iterated_code(loop)
    for read in model.reads(name):
        call = model.parent(read)
        if type(call) is not ast.Call or call.func is not read:
            continue
        node = call
        while node is not None and model.parent(node) is not loop:
            node = model.parent(node)
        if node is not None and any(node is code for code in iterated):
            return True
    return False


def _comprehended_statics(model, walked):
    """A comprehension over ``range()`` is a loop whose element runs per item, but one that passes
    the counter where the jitted function's own options ask for a static value (``static_argnums``)
    compiles once per value on purpose (``[sized(n) for n in range(3)]``): only the values a framework
    keeps static unasked (``eqx.filter_jit``'s Python scalars, a Module's fields) are reported there."""
    for comp in model.nodes(*COMPREHENSIONS):
        home = model.enclosing_function(comp)
        if not isinstance(home, ast.Lambda) and home not in model.traced and iterates_twice(comp.generators[0].iter):
            for node in walk_own(iterated_code(comp), (ast.Lambda, *COMPREHENSIONS)):
                if isinstance(node, ast.Call):
                    yield from _changing_static(model, comp, node, walked, asked=False)


def _changing_static(model, loop, call, walked, asked=True):
    """A range() loop counter passed as a static argument of a jitted function: one its options
    make static (when ``asked``), any under a transform that keeps Python scalars static
    (``eqx.filter_jit``), or a field of a Module built from it that the framework's jit keeps
    static (``static_fields``). Or, whatever the loop, a new function object written as an argument
    the options make static (``method=lambda m, x: m.encode(x)``), or any argument of a jit that keeps
    the objects it is given static (``framework_static_objects``: ``eqx.filter_jit``): hashed by
    identity, a new key."""
    counter = loop_counter(loop, walked)
    jitted = jitted_by(model, call.func) if counter is not None else None
    static = jitted_parameters(model, call.func, "static_argnums", "static_argnames") if asked else None
    if static is None and jitted is None:
        return
    positions, names = static or ((), ())
    every = jitted is not None and jitted[0] in model.scalars_static & model.staging_transforms  # filter_jit
    objects = every and jitted[0] in api.framework_static_objects()  # (a new object is a new key there)
    passed = [(f"at position {i}", a, objects or i in positions) for i, a in enumerate(call.args)
              if every or i in positions] + \
        [(f"'{k.arg}'", k.value, objects or k.arg in names) for k in call.keywords if every or k.arg in names]
    for label, arg, hashed in passed:
        fresh = _fresh_function(model, loop, arg, hashed=True) if hashed else None
        if fresh is not None:
            yield Finding.at(call, "JNP602", {
                "what": f"the static argument {label} of {describe(call.func)}() is {fresh}", "loop": loop.lineno,
                "fix": "make the function once, before the loop, and pass that one"})
            return
    for label, arg, hashed in passed:  # hashed: made static by the options, so an object is hashed whole
        if hashed and new_object_every_iteration(model, loop, arg, counter, walked):
            yield Finding.at(call, "JNP602", {
                "what": f"the static argument {label} of {describe(call.func)}() is a new "
                        f"{describe(bound_in_body(model, loop, arg, walked).func)}() object",
                "loop": loop.lineno, "fix": "build it once, before the loop, and pass that one"})
            return
    if counter is None:
        return
    for label, arg, hashed in passed:
        if new_every_iteration(model, loop, arg, counter, walked):
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


def _new_held_object(model, loop, call, walked):
    """An argument of a jitted call that the loop's body builds anew (itself, or by a same-file function it
    calls) as a new object (one of ``framework_fresh_objects``, made on every iteration) that the jit keeps
    static (``framework_static_objects``: ``optax.adam(lr)`` given to an ``eqx.filter_jit`` step), or around
    one that it keeps static under that jit (``framework_static_holders``: ``nnx.Optimizer(model,
    optax.adam(1e-3))`` under ``nnx.jit``, ``TrainState.create(..., tx=optax.chain(...))`` under ``jax.jit``)."""
    jitted = jitted_by(model, call.func)
    holders = api.framework_static_holders()
    keeps_objects = jitted is not None and jitted[0] in api.framework_static_objects()
    for arg in [*call.args, *(k.value for k in call.keywords)] if jitted is not None else ():
        bound = _bound_before(model, loop, arg, call) or bound_in_body(model, loop, arg, walked)
        built = model.built_by(bound, every=True) if bound is not None else None
        if keeps_objects and built and all(_fresh_every_iteration(model, loop, made) for made in built):
            yield Finding.at(call, "JNP602", {
                "what": f"the new object {describe(built[0].func)}() given to {describe(call.func)}() is static "
                        f"under {jitted[0]}", "loop": loop.lineno,
                "fix": "make it once, before the loop, and pass it in"})
            return
        facts = [holders.get(model.qualname(held.func)) for held in built or ()]
        if not facts or any(fact is None or fact is not facts[0] or fact["transform"] != jitted[0] for fact in facts) \
                or any(isinstance(a, ast.Starred) for held in built for a in held.args):
            continue
        position, argument = facts[0]["position"], facts[0]["argument"]
        given = [held.args[position] if position is not None and len(held.args) > position else
                 next((k.value for k in held.keywords if k.arg == argument), None) for held in built]
        made = [found for expr in given for found in model.built_by(expr, every=True) or [None]] \
            if None not in given else [None]
        if made and all(fresh is not None and _fresh_every_iteration(model, loop, fresh) for fresh in made):
            yield Finding.at(call, "JNP602", {
                "what": f"the {describe(built[0].func)}() given to {describe(call.func)}() keeps its '{argument}' "
                        f"static under {jitted[0]}, and it is the new object {describe(made[0].func)}() gives",
                "loop": loop.lineno, "fix": f"make the {argument} once, before the loop, and pass it in"})
            return


def _fresh_every_iteration(model, loop, made):
    """Whether the call ``made`` gives a new object (``framework_fresh_objects``) on every iteration of ``loop``."""
    return model.qualname(made.func) in api.framework_fresh_objects() and _made_every_iteration(model, loop, made)


def _made_every_iteration(model, loop, made):
    """Whether the call ``made``, reached from a value the loop's body binds, runs on every iteration: it is
    in the loop, or in a def other than the one around the loop (which the body's call runs), not at module level."""
    function = model.names.enclosing_function(made)
    return _inside(model, made, loop) or function is not None and function is not model.names.enclosing_function(loop)


def _rebuilt_module(model, loop, call):
    """A framework Module given to a jitted call in ``loop`` that the loop around it builds anew before
    it on each iteration (``model = Trajectory(jnp.sin)``, then ``for ...: model, ... = step(model, ...)``),
    its class's own ``__init__`` storing a new jitted function in a field (``self.forward =
    jax.jit(fn)``): a Python field that jit keeps static (``python_fields_static``), new on each build,
    so the first call after each build compiles again, whatever the inner loop binds afterwards."""
    jitted = jitted_by(model, call.func)
    outer = model.parent(loop)
    if jitted is None or type(outer) not in LOOPS or loop not in outer.body or _inside(model, jitted[2], outer):
        return
    first = call
    while model.parent(first) is not loop:
        first = model.parent(first)
    before = [loop.target] if type(loop) is not ast.While else []
    before += loop.body[:loop.body.index(first)] if first in loop.body else [first]
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        stores = [stmt for stmt in outer.body[:outer.body.index(loop)] if type(arg) is ast.Name
                  and arg.id in bound_names(stmt)]
        if not stores or any(arg.id in bound_names(stmt) for stmt in before) or type(stores[-1]) is not ast.Assign \
                or stores[-1].targets != [stores[-1].targets[0]] or type(stores[-1].targets[0]) is not ast.Name \
                or type(stores[-1].value) is not ast.Call or type(stores[-1].value.func) is not ast.Name:
            continue
        built = model.one_binding(stores[-1].value.func, BindingKind.CLASS)
        facts = model.module_facts(built.node) if built is not None else None
        init = method_in(built.node, "__init__") if facts and facts.get("python_fields_static") \
            and facts["path"] == jitted[0] else None
        field = next((stmt for stmt in init.body if type(stmt) is ast.Assign and len(stmt.targets) == 1
                      and type(stmt.targets[0]) is ast.Attribute and type(stmt.value) is ast.Call
                      and model.qualname(stmt.value.func) in model.staging_transforms), None) if init else None
        if field is not None:
            yield Finding.at(call, "JNP602", {
                "what": f"the field '{field.targets[0].attr}' of the {built.node.name}() given to "
                        f"{describe(call.func)}() holds the new function {describe(field.value.func)}() makes in "
                        f"its __init__ (line {field.lineno}), static under {jitted[0]}, and {arg.id} is built again",
                "loop": outer.lineno,
                "fix": "make the jitted function once, before the loop, and give it to the module"})
            return


def _counter_field(model, loop, arg, counter, transform, walked):
    """The field of a framework Module that ``arg`` holds, built in the loop's body (inline, or a
    name bound once there; ``C(...)`` or ``eqx.tree_at`` of one) with a new value of the loop's
    ``counter`` at that field (``new_every_iteration``), when ``transform`` keeps it static
    (``static_fields``); else None."""
    arg = bound_in_body(model, loop, arg, walked)
    found = model.static_fields(arg) if isinstance(arg, ast.Call) else None
    if found is None or found[1] != transform:
        return None
    return next((field for field, value in found[0] if new_every_iteration(model, loop, value, counter, walked)),
                None)


def _bound_before(model, loop, expr, call):
    """The value a Name holds at ``call``, where the last statement of the loop's body before the one
    holding ``call`` that binds it is a plain assignment (``state = make_state(...)``, then ``state =
    step(state)``); None otherwise."""
    stmt = call
    while stmt is not None and model.parent(stmt) is not loop:
        stmt = model.parent(stmt)
    if type(expr) is not ast.Name or stmt not in loop.body:
        return None
    for prior in reversed(loop.body[:loop.body.index(stmt)]):
        if expr.id in bound_names(prior):
            plain = type(prior) is ast.Assign and len(prior.targets) == 1 and type(prior.targets[0]) is ast.Name
            return prior.value if plain else None
    return None


def _growing_argument(model, loop, call, walked):
    """A jitted function called in the loop with a value whose shape changes on every iteration: the
    loop's body grows it (``x = jnp.concatenate([x, token], axis=1)``), makes it with a shape that
    holds the loop's counter (``x = jax.random.normal(key, (50, i))``) or slices it to a length that
    does (``data[:i]``): each call sees a new shape, a new cache key."""
    given = [a for a in [*call.args, *(k.value for k in call.keywords)] if type(a) in (ast.Name, ast.Subscript)]
    if not given or not is_jitted(model, call.func):
        return
    for arg in given:
        label = arg.id if type(arg) is ast.Name else ast.unparse(arg)
        growth = growth_of(model, loop, arg.id, walked) if type(arg) is ast.Name else None
        if growth is not None:
            yield Finding.at(call, "JNP602", {
                "what": f"'{label}' grows (line {growth.lineno}) and is passed to the jitted {describe(call.func)}()",
                "loop": loop.lineno, "fix": "preallocate it at its final size and fill it with .at[i].set() or "
                                            "lax.dynamic_update_slice, or pad it to a fixed length"})
            return
        made = counter_shaped(model, loop, arg, walked)
        if made is not None:
            yield Finding.at(call, "JNP602", {
                "what": f"'{label}' takes its shape from '{loop_counter(loop, walked)}' (line {made.lineno}) and is "
                        f"passed to the jitted {describe(call.func)}()",
                "loop": loop.lineno, "fix": "pad it to a fixed shape (or to a few bucket sizes) before the call"})
            return
