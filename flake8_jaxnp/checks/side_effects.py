"""JNP301-JNP305: Python side effects that run only while JAX traces.

Only functions whose trace is cached (jit, pmap, lax bodies, and what they call)
are checked: under grad or vmap alone the Python body runs on every call. An
``if PARAM is None:`` block that every traced call in the file skips, by passing
PARAM, runs only for eager callers, so its effects are not reported.
"""
import ast

from .. import api
from ..facts import (ADVANCING_BUILTINS, CLOCKS, CONSTRUCTORS, LOG_LEVELS, LOGGER_FACTORIES, MUTATING_METHODS,
                     STDLIB_RANDOM)
from ..findings import Finding
from ..model.kinds import PYTHON
from ..model.names import DEFINITIONS, BindingKind
from ..model.syntax import argument_for, none_tested, parameters, positional, positional_names
from . import describe, rule

CONTAINER_TYPES = frozenset({
    "builtins.list", "builtins.dict", "builtins.set", "builtins.iter", "collections.deque",
    "collections.defaultdict", "collections.OrderedDict", "collections.Counter",
})
ADVANCING_CALLS = frozenset(f"builtins.{name}" for name in ADVANCING_BUILTINS)  # next(batches)
# Calls whose result is a plain Python value whatever they are given (len of a tracer is its
# static length), and calls that give one when every argument is one.
STATIC_RESULT_BUILTINS = frozenset({"builtins.len", "builtins.type", "builtins.isinstance", "builtins.callable",
                                    "builtins.hasattr", "builtins.id"})
STATIC_IF_ARGUMENTS_STATIC = frozenset({"builtins.str", "builtins.repr", "builtins.int", "builtins.float",
                                        "builtins.tuple", "builtins.list", "builtins.abs", "builtins.min",
                                        "builtins.max", "builtins.sum", "builtins.round", "math.prod"})
# Static on any object the model cannot place (``obs.shape`` of an environment's result).
SHAPE_ATTRIBUTES = frozenset({"shape", "ndim", "dtype"})
STATIC_DEPTH = 8  # a name bound to a name bound to ...: beyond this, unknown
NUMPY_RANDOM_SETUP = frozenset({
    "default_rng", "Generator", "RandomState", "SeedSequence", "BitGenerator", "PCG64",
    "PCG64DXSM", "MT19937", "Philox", "SFC64", "seed", "get_state", "set_state",
    "get_bit_generator", "set_bit_generator",
})


@rule("JNP301", "JNP302", "JNP303", "JNP304", "JNP305")
def trace_only_side_effects(model):
    rebound = None  # (the module's rebound globals, {global: where another module rebinds it}), once asked
    none_tests = None  # function -> its `if PARAM is None:` statements, once a cached trace asks
    for func, traced in model.traced.items():
        transform = traced.cached_by
        if transform is None:
            continue
        rebound = (model.rebound_globals(), {}) if rebound is None else rebound
        none_tests = _none_tests(model) if none_tests is None else none_tests
        untaken = _untaken_lines(model, func, none_tests.get(func, ()))
        found = _side_effects(model, func, {"scope": getattr(func, "name", "<lambda>"), "transform": transform.shown},
                              rebound)
        yield from (f for f in found if f.line not in untaken) if untaken else found
    for func, transform in model.trace_time.items():  # called under the trace with no tracer
        rebound = (model.rebound_globals(), {}) if rebound is None else rebound
        yield from _side_effects(model, func, {"scope": func.name, "transform": transform.shown}, rebound,
                                 given_tracers=False)


def _logged(model, call, qualname):
    """The arguments a logging call shows, or None for another call: ``logging.info(...)``, or a level
    method of a Logger that ``logging.getLogger`` gives (``logger.info("loss %s", loss)``); ``log``'s
    first argument is its level, a number it does not show."""
    if qualname is not None:
        module, _, name = qualname.rpartition(".")
        logs = module == "logging" and name in LOG_LEVELS
    else:
        name = call.func.attr if type(call.func) is ast.Attribute else None
        built = model.built_by(call.func.value, every=True) if name in LOG_LEVELS else None
        logs = bool(built) and all(model.qualname(made.func) in LOGGER_FACTORIES for made in built)
    return (call.args[1:] if name == "log" else call.args) if logs else None


def _side_effects(model, func, base, rebound, given_tracers=True):
    """The trace-time effects in ``func``. Without ``given_tracers`` (a helper that traced
    code calls with no tracer), its parameters hold what its callers pass, maybe plain
    Python values: a print shows tracers only when it prints an array made there."""
    scope = model.scope(func)
    outer = scope.globals | scope.nonlocals
    stale_reported = set()
    for node in model.own_nodes(func):
        kind = type(node)
        if kind is ast.Call:
            yield from _call(model, func, node, base, given_tracers)
        elif kind is ast.Name:
            if type(node.ctx) is ast.Store and node.id in outer:
                statement = "global" if node.id in scope.globals else "nonlocal"
                yield Finding.at(node, "JNP302", dict(base, name=node.id, statement=f"'{statement} {node.id}'"))
            elif type(node.ctx) is ast.Load and node.id not in stale_reported:
                where = _rebound(model, func, scope, node, rebound)
                if where is not None:
                    stale_reported.add(node.id)
                    yield Finding.at(node, "JNP304", dict(base, name=node.id, where=where))
        elif kind is ast.Attribute and type(node.ctx) is ast.Load and type(node.value) is ast.Name \
                and model.project is not None and f"{node.value.id}.{node.attr}" not in stale_reported:
            found = model.imported_rebound(node)  # callbacks.LR_SCALE, rebound by callbacks.decay_lr()
            if found is not None:
                stale_reported.add(f"{node.value.id}.{node.attr}")
                how = f"through 'global {node.attr}' " if found[2] else ""
                where = f"{how}in {found[0]}:{found[1]}"
                yield Finding.at(node, "JNP304", dict(base, name=f"{node.value.id}.{node.attr}", where=where))
        elif kind is ast.Assign:
            for target in node.targets:
                yield from _store(model, func, target, base)
        elif kind is ast.AugAssign or kind is ast.AnnAssign:
            yield from _store(model, func, node.target, base)


def _rebound(model, func, scope, name, rebound):
    """Where the module global that ``name`` reads in traced ``func`` is rebound after code may
    have been traced with it: "elsewhere in this module" (a second top-level binding, or one
    through ``global``, that runs later), in a loop of another module (``models.NEIGHBORS =
    ...``, ``Project.rebound_elsewhere``); else None."""
    here, elsewhere = rebound
    found = model.resolve(name)
    if found and type(found[0].node) in (ast.FunctionDef, ast.AsyncFunctionDef) and found[0].node is not func:
        return _rebound_after_a_run(model, func, name, found[0].node, found[1])
    if name.id in here:
        if (name.id not in scope.globals or not _in_own_rebinding(model, name)) and model.is_module_name(name) \
                and not model.bound_only_before(name.id, func):
            return "elsewhere in this module"
        return None
    if model.project is None or not model.assigned_at_top_level(name.id) or not model.is_module_name(name):
        return None
    if name.id not in elsewhere:
        found = model.project.rebound_elsewhere(name.id)
        elsewhere[name.id] = f"in {found[0][0]}:{found[0][1]}" if found else None
    return elsewhere[name.id]


def _rebound_after_a_run(model, func, name, outer, bindings):
    """Where a local of ``outer``, the def around ``func``, that ``func`` reads (a closure) is
    rebound: by ``func`` itself through ``nonlocal`` (at trace time only; the read in that
    statement is JNP302's), or between two statements of ``outer`` that run ``func``'s cached
    trace: calls of a name bound once to a staging transform of it (``grad =
    jax.jit(jax.grad(loss))``), or of ``func`` when one decorates it. The later call reuses the
    trace, which keeps the first value; else None."""
    if type(func) is ast.Lambda or model.enclosing_function(func) is not outer:
        return None
    if name.id in model.scope(func).nonlocals:
        return None if _in_own_rebinding(model, name) else f"through 'nonlocal {name.id}' in '{func.name}'"
    if len(bindings) < 2:
        return None
    runners = {func.name} if any(model.transform_spec(d) for d in func.decorator_list) else set()
    for runner, bound in model.scope(outer).bindings.items():
        value = bound[0].value if len(bound) == 1 and bound[0].kind is BindingKind.ASSIGN else None
        if type(value) is ast.Call and model.qualname(value.func) in model.staging_transforms and any(
                type(node) is ast.Name and node.id == func.name for node in ast.walk(value)):
            runners.add(runner)
    runs = [call.lineno for call in model.own_nodes(outer) if type(call) is ast.Call and type(call.func) is ast.Name
            and call.func.id in runners and call.lineno > func.end_lineno]
    between = [b.node.lineno for b in bindings
               if runs and b.kind is not BindingKind.PARAM and min(runs) < b.node.lineno < max(runs)]
    return f"on line {between[0]}, after the call on line {min(runs)} traced it" if between else None


def _in_own_rebinding(model, name):
    """True for ``counter`` in ``counter = counter + 1`` of a function that declares it ``global``:
    that statement is JNP302's finding. Its later reads (``return x + counter``) give back what the
    trace wrote, frozen into the compiled function, and are stale."""
    statement = model.statement_of(name)
    targets = getattr(statement, "targets", None) or [getattr(statement, "target", None)]
    return any(type(node) is ast.Name and node.id == name.id and type(node.ctx) is ast.Store
               for target in targets if isinstance(target, ast.expr) for node in ast.walk(target))


def _none_tests(model):
    """function -> its ``if NAME is None:`` statements (a cheap syntactic pass over the module)."""
    found = {}
    for node in model.nodes(ast.If):
        if none_tested(node.test) is not None:
            found.setdefault(model.enclosing_function(node), []).append(node)
    return found


def _untaken_lines(model, func, none_tests):
    """The lines of ``if PARAM is None:`` blocks of ``func`` that no traced call of it runs: every
    call of it from traced code in the file passes PARAM, and not as None (``self.generate(params,
    rng=rng)`` in a jitted wrapper, where ``if rng is None: self.rng, rng = split(self.rng)`` only
    fills in a missing key for eager callers). Unknown callers (none in the file, a reference other
    than a call) leave the block taken."""
    lines = set()
    for block in none_tests:
        param = block.test.left.id
        if param in {a.arg for a in parameters(func)} and _always_passed(model, func, param):
            lines.update(range(block.body[0].lineno, block.body[-1].end_lineno + 1))
    return lines


def _always_passed(model, func, param):
    """True when every reference to ``func`` in the module is a call that passes ``param``, not as
    None, and one at least traces it: ``f(x, p)`` for a function, ``obj.f(x, p=p)`` for a method
    (any attribute of that name counts as a reference to it). A call from code nothing traces runs
    an undecorated ``func`` eagerly, so what it passes does not matter."""
    if isinstance(func, ast.Lambda):
        return False
    names = positional_names(func)
    if model.is_method(func):
        names = names[1:]  # self, bound by the attribute
        references = [node for node in model.nodes(ast.Attribute) if node.attr == func.name]
        if model.reads(func.name):
            return False  # the method named in its class body (jax.jit(generate)): calls unknown
    else:
        references = []
        for node in model.reads(func.name):
            bindings = (model.resolve(node) or (None, ()))[1]
            if any(binding.node is func for binding in bindings):
                if len(bindings) != 1:
                    return False  # a name that may hold something else
                references.append(node)
    tracing = 0
    for reference in references:
        call = model.parent(reference)
        if type(call) is not ast.Call or call.func is not reference:
            return False
        if not func.decorator_list and model.traced_function(call) is None:
            continue  # runs func eagerly
        argument = argument_for(call, names, param)
        if argument is None or type(argument) is ast.Constant and argument.value is None:
            return False
        tracing += 1
    return tracing > 0


def _call(model, func, call, base, given_tracers):
    qualname = model.qualname(call.func)
    shown = call.args if qualname == "builtins.print" else _logged(model, call, qualname)
    if shown is not None:
        known = {}
        if given_tracers and not all(_is_static(model, arg, 0, known) for arg in shown) \
                or not given_tracers and any(model.value(arg).is_array for arg in shown):  # (not sep=, end=)
            what = "print()" if qualname == "builtins.print" else f"{describe(call.func)}()"
            yield Finding.at(call, "JNP301", dict(base, what=what, fix="use jax.debug.print"))
    elif qualname == "jax.debug.print":
        for formatting, values in (_formatting(model, arg) for arg in [*call.args, *(k.value for k in call.keywords)]):
            if any(_escapes(model, value) for value in values):  # text made from a tracer, once per trace
                what = f"the {formatting} given to {describe(call.func)}"
                fix = 'pass the values as its arguments: jax.debug.print("x = {}", x)'
                yield Finding.at(call, "JNP301", dict(base, what=what, fix=fix))
                break
    elif qualname and _is_stateful(qualname):
        fix = ("pass the time in as an argument" if qualname in CLOCKS
               else "use jax.random with a key passed in as an argument")
        yield Finding.at(call, "JNP305", dict(base, func=describe(call.func), fix=fix))
    else:
        mutation = _mutation(call, qualname)
        if mutation is None:
            return
        target, stored, advanced = mutation
        owner = _outer_container(model, func, target, stored, updated=advanced)
        if owner is None and (not model.keeps_module_state(func) or model.keeps_appended(func)) \
                and _self_container(model, func, target) and any(_escapes(model, v) for v in stored):
            owner = describe(target)  # self.losses.append(loss): the tracer outlives the trace
        if owner is not None:
            yield Finding.at(call, "JNP303", dict(base, what=f"{describe(call.func)}()", name=owner))


def _mutation(call, qualname):
    """(the container ``call`` changes, what it stores there, whether the change follows the container's
    own state): a mutating method's receiver (``history.append(x)``), or the iterator ``next(batches)``
    advances, whose next item depends on how often it ran (once per trace, not per call); None."""
    if isinstance(call.func, ast.Attribute) and call.func.attr in MUTATING_METHODS:
        return call.func.value, call.args + [k.value for k in call.keywords], False
    if qualname in ADVANCING_CALLS and len(call.args) == 1:
        return call.args[0], [], True
    return None


def _formatting(model, expr):
    """(what formats text from values as ``expr`` runs, those values): an f-string, ``str()``,
    ``repr()``, a string's ``.format()`` or ``%``; (None, ()) for anything else."""
    if isinstance(expr, ast.JoinedStr):
        return "f-string", [part.value for part in expr.values if isinstance(part, ast.FormattedValue)]
    if isinstance(expr, ast.Call) and model.qualname(expr.func) in ("builtins.str", "builtins.repr"):
        return describe(expr.func) + "()", expr.args
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "format" \
            and _is_text(expr.func.value):
        return ".format()", expr.args + [k.value for k in expr.keywords]
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod) and _is_text(expr.left):
        return "%-formatting", [expr.right]
    return None, ()


def _is_text(expr):
    return isinstance(expr, ast.JoinedStr) or isinstance(expr, ast.Constant) and isinstance(expr.value, str)


def _is_static(model, expr, depth, known):
    """True when ``expr`` is known to be a plain Python value at trace time (a shape, a
    length, a type, a string or number built from them): printing it shows the real value
    once per compilation, as intended. Anything the model cannot tell is not static. ``known``
    holds the answer for each name already followed (by scope, name and depth), so a name
    bound in many branches costs its bindings once per depth, not once per path to it."""
    if depth > STATIC_DEPTH:
        return False
    depth += 1
    if isinstance(expr, ast.Starred):
        expr = expr.value
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.JoinedStr):
        return all(_is_static(model, part.value, depth, known)
                   for part in expr.values if isinstance(part, ast.FormattedValue))
    if isinstance(expr, ast.Attribute):
        return model.value(expr).kind is PYTHON or expr.attr in SHAPE_ATTRIBUTES & api.static_attributes()
    if isinstance(expr, ast.Subscript):
        return _is_static(model, expr.value, depth, known) and _is_static(model, expr.slice, depth, known)
    if isinstance(expr, ast.Slice):
        return all(part is None or _is_static(model, part, depth, known)
                   for part in (expr.lower, expr.upper, expr.step))
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        return all(_is_static(model, e, depth, known) for e in expr.elts)
    if isinstance(expr, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        return _is_static(model, expr.elt, depth, known)  # [x[a].shape[-1] for a in agents]
    if isinstance(expr, ast.BinOp):
        return _is_static(model, expr.left, depth, known) and _is_static(model, expr.right, depth, known)
    if isinstance(expr, ast.UnaryOp):
        return _is_static(model, expr.operand, depth, known)
    if isinstance(expr, ast.Call):
        name = model.qualname(expr.func)
        if name in STATIC_RESULT_BUILTINS:
            return True
        return name in STATIC_IF_ARGUMENTS_STATIC and not expr.keywords \
            and all(_is_static(model, a, depth, known) for a in expr.args)
    if isinstance(expr, ast.Name):
        value = model.value(expr)
        if value.kind is PYTHON and value.weak:
            return True  # a Python number (a static argument, a literal)
        found = model.resolve(expr)
        if found is None:
            return expr.id in ("True", "False", "None")
        key = (id(found[0]), expr.id, depth)  # the bindings a name has depend on its scope alone
        if key not in known:
            known[key] = all(b.kind in DEFINITIONS or b.kind is BindingKind.ASSIGN
                             and _is_static(model, b.value, depth, known) for b in found[1])
        return known[key]
    return False


def _is_stateful(qualname):
    module, _, name = qualname.rpartition(".")
    if module == "numpy.random":
        return name not in NUMPY_RANDOM_SETUP and qualname in api.data()["numpy_random"]
    if module == "random":
        return name in STDLIB_RANDOM
    return qualname in CLOCKS


def _store(model, func, target, base, stored=None):
    """``stored``: the expression assigned to ``target`` when the statement says which one it is
    (``self.a, b = x, y`` pairs them; ``self.a, b = split(k)`` gives each target the whole call)."""
    if stored is None:
        statement = model.parent(target)
        stored = getattr(statement, "value", None)
    if isinstance(target, (ast.Tuple, ast.List)):
        paired = isinstance(stored, (ast.Tuple, ast.List)) and len(stored.elts) == len(target.elts) \
            and not any(isinstance(e, ast.Starred) for e in target.elts + stored.elts)
        for index, element in enumerate(target.elts):
            yield from _store(model, func, element, base, stored.elts[index] if paired else stored)
    elif isinstance(target, ast.Subscript):
        owner = _outer_container(model, func, target.value, [] if stored is None else [stored],
                                 updated=isinstance(model.parent(target), ast.AugAssign))
        if owner is not None and not model.value(target.value).is_array:
            yield Finding.at(target, "JNP303", dict(base, what=f"assigning {describe(target)}", name=owner))
    elif isinstance(target, ast.Attribute) \
            and (_is_self(model, func, target.value) and not model.keeps_module_state(func)
                 or _plain_module_object(model, func, target.value)) and _keeps_trace_state(model, target, stored):
        yield Finding.at(target, "JNP303", dict(base, what=f"assigning {describe(target)}", name=target.value.id))


def _plain_module_object(model, func, expr):
    """``HOLDER`` bound at module level to an instance of a same-file class with no base (its
    attributes are plain ones, not a framework's state): storing on it from traced code outlives
    the trace, as on ``self``."""
    if type(expr) is not ast.Name or model.is_local(expr.id, func) or not model.is_module_name(expr):
        return False
    cls = model.class_of(expr)
    return cls is not None and not cls.bases and not cls.keywords


def _keeps_trace_state(model, target, stored):
    """``self.x = ...`` at trace time matters when it stores a tracer (it leaks out of the trace)
    or updates state from its old value (``self.n += 1`` counts traces, not calls). Storing a
    function, a string, a shape or anything the model cannot place is silent: written once per
    trace, it holds what every call would have written."""
    statement = model.parent(target)
    while isinstance(statement, (ast.Tuple, ast.List, ast.Starred)):
        statement = model.parent(statement)
    if isinstance(statement, ast.AugAssign):
        return True
    if stored is None:
        return False
    return _escapes(model, stored) or any(
        isinstance(node, ast.Attribute) and node.attr == target.attr and isinstance(node.value, ast.Name)
        and node.value.id == target.value.id for node in ast.walk(stored))


def _outer_container(model, func, expr, stored, updated=False):
    """The name of a list/dict/set outside ``func`` that this mutation reaches, if it matters.

    Mutating a module-level container is global state changed once per trace.
    A container of an enclosing function is often a deliberate trace-time side
    channel (collecting shapes); it is reported only when a tracer escapes into it,
    or when an item is ``updated`` from its old value (``u[0] += 1`` in a loop body
    counts traces, not iterations, as ``self.n += 1`` does). A container of a traced
    function is its trace's own, unless ``func`` runs in a trace of its own inside it
    (``jax.remat(g)()`` in a jitted ``f``): a tracer of that inner trace stored there
    outlives it.
    """
    root = expr
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    if not isinstance(root, ast.Name) or model.is_local(root.id, func):
        return None
    found = model.resolve(root)
    if found is None:
        return None
    scope, bindings = found
    if scope.is_class or not _all_containers(model, scope, bindings, frozenset()):
        return None
    if scope.node in model.traced:
        own = model.traced.get(func)  # None for a function run at trace time: it runs in the enclosing trace
        inner = {t.name for t in own.transforms} - {t.name for t in model.traced[scope.node].transforms} \
            if own is not None else set()
        held = updated and model.value(expr).holds_tracers  # u[0] += 1 on the trace's own array
        return root.id if inner and (held or any(_escapes(model, value) for value in stored)) else None
    if model.is_module_scope(scope) or updated or any(_escapes(model, value) for value in stored):
        return root.id
    return None


def _all_containers(model, scope, bindings, seen):
    """True when every binding of a name in ``scope`` is a container: an assignment of one, or a
    parameter of ``scope``'s def that every call of it in the file gives one, as a display or as a
    name bound only to one (``make_step(features)`` after ``features = []``: the closure's list
    outlives the trace). ``seen``: the parameters on the way here (a recursive call)."""
    return all(_is_container(model, binding, scope.node, seen) for binding in bindings)


def _is_container(model, binding, owner, seen):
    if binding.kind is BindingKind.PARAM and isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
        if binding.node in seen:
            return False
        seen = seen | {binding.node}
        calls = model.calls_of(owner)
        names = positional_names(owner)
        return bool(calls) and all(_gives_container(model, argument_for(call, names, binding.node.arg), seen)
                                   for call in calls)
    return binding.kind is BindingKind.ASSIGN and _builds_container(model, binding.value)


def _gives_container(model, argument, seen):
    if isinstance(argument, ast.Name):
        found = model.resolve(argument)
        return found is not None and not found[0].is_class and _all_containers(model, *found, seen)
    return _builds_container(model, argument)


def _builds_container(model, value):
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    return isinstance(value, ast.Call) and model.qualname(value.func) in CONTAINER_TYPES


def _self_container(model, func, expr):
    """``self.losses`` in a method, where the class's constructor sets ``self.losses`` to a
    list, dict or set (``self._opt.update(...)`` on an optimizer is not a mutation)."""
    if not (isinstance(expr, ast.Attribute) and _is_self(model, func, expr.value)):
        return False
    cls = model.parent(func)
    for method in getattr(cls, "body", ()):
        if isinstance(method, ast.FunctionDef) and method.name in CONSTRUCTORS:
            for stmt in ast.walk(method):
                if isinstance(stmt, ast.Assign) and _builds_container(model, stmt.value) and any(
                        isinstance(t, ast.Attribute) and t.attr == expr.attr and isinstance(t.value, ast.Name)
                        and t.value.id == "self" for t in stmt.targets):
                    return True
    return False


def _escapes(model, expr):
    """True when ``expr`` holds a tracer (also inside a literal tuple/list/dict). In a traced
    function every JAX result is one, even of constants (``jax.random.PRNGKey(0)``)."""
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        return any(_escapes(model, e) for e in expr.elts)
    if isinstance(expr, ast.Dict):
        return any(_escapes(model, v) for v in expr.values)
    value = model.value(expr)
    return value.traced or value.on_device and not _is_jitted_function(model, expr)


def _is_jitted_function(model, expr):
    """``jax.jit(f)``, or a name bound only to one: a function (the model gives it the kind of
    what calling it returns), not an array."""
    def jits(call):
        return isinstance(call, ast.Call) and model.qualname(call.func) in model.staging_transforms
    if isinstance(expr, ast.Name):
        found = model.resolve(expr)
        return bool(found) and all(b.kind is BindingKind.ASSIGN and jits(b.value) for b in found[1])
    return jits(expr)


def _is_self(model, func, expr):
    """``self`` of a method other than a constructor."""
    if not isinstance(expr, ast.Name) or isinstance(func, ast.Lambda) or func.name in CONSTRUCTORS:
        return False
    params = positional(func)
    return bool(params) and params[0].arg == expr.id == "self" and model.is_method(func)
