"""JNP205/JNP306: methods jitted with ``self`` traced (a plain object cannot be), or with
``self`` static (the compiled code keeps the attribute values it saw)."""
import ast
import bisect
from functools import partial

from .. import api
from ..findings import Finding
from ..model.parameters import traces_the_class
from ..model.syntax import SCOPES, bound_names, named_options, positional, positional_names, static_parameters, walk_own
from . import blocks, describe, jitted_by, repeats, rule

NOT_SELF_METHODS = frozenset({"builtins.staticmethod", "builtins.classmethod"})


# The jit transforms that take only arrays and pytrees of them (a framework's own jit filters the rest).
JAX_JITS = frozenset({"jax.jit", "jax.pmap"})
STATIC_OPTIONS = frozenset({"static_argnums", "static_argnames"})


@rule("JNP205")
def traced_self_method(model):
    yield from _rejected_arguments(model)
    for cls in model.nodes(ast.ClassDef):
        plain = model.untraceable_class(cls)
        for method in cls.body:
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = positional(method)
            qualnames = [model.qualname(d) for d in method.decorator_list]
            yield from _traced_class(model, cls, method, qualnames)
            if not plain or not params or params[0].arg != "self" or NOT_SELF_METHODS & set(qualnames):
                continue
            for decorator in method.decorator_list:
                spec = model.transform_spec(decorator)
                if spec and spec[0] in model.staging_transforms and _traces_self(method, spec[1]):
                    yield Finding.at(decorator, "JNP205", {
                        "transform": spec[0], "traces": f"on method '{cls.name}.{method.name}' traces 'self'",
                        "cls": cls.name, "fix": "jit a function of the arrays, or register the class"})


def _traced_class(model, cls, method, qualnames):
    """A jit under @classmethod is given the class first, which it cannot trace."""
    for index, decorator in enumerate(method.decorator_list):
        spec = model.transform_spec(decorator)
        if spec and spec[0] in model.staging_transforms and traces_the_class(method, qualnames, index, spec[1]):
            yield Finding.at(decorator, "JNP205", {
                "transform": spec[0], "traces": f"under @classmethod '{cls.name}.{method.name}' traces the class",
                "cls": f"the class {cls.name}", "fix": "mark the class static (static_argnums=0)"})


def _rejected_arguments(model):
    """An object that ``jax.jit`` refuses (``rejected_by_jax_jit``: a linen Module, ``eqx.nn.MLP``,
    measured; an object of a same-file class JAX cannot flatten) given as a traced argument of a jitted
    function: ``jax.jit(f)(model, x)``, ``fast(model, x)`` with ``fast = jax.jit(f)``, ``step(model, x)``
    with ``@jax.jit def step``. A method's positions are read with and without ``self``: ``jax.jit(obj.apply,
    static_argnames="cfg")`` takes ``cfg`` first, ``jax.jit(Class.apply)`` takes ``self`` first."""
    for call in model.nodes(ast.Call):
        jitted = jitted_by(model, call.func)
        if jitted is None or jitted[0] not in JAX_JITS:
            continue
        transform, keywords, target = jitted
        method = type(model.parent(target)) is ast.ClassDef
        readings = [positional_names(target, bound=bound) for bound in {False, method}]
        static = [(params, static_parameters(named_options(keywords), params)) for params in readings] \
            if all(k.arg for k in keywords) else [([], None)]
        for position, argument in enumerate(call.args if all(names is not None for _, names in static) else ()):
            if type(argument) is ast.Starred:
                break
            found = None if any(position < len(params) and params[position] in names for params, names in static) \
                else model.rejected_by_jax_jit(argument) if type(argument) in (ast.Name, ast.Call) else None
            if found is not None:
                yield Finding.at(call, "JNP205", {
                    "transform": transform, "traces": f"traces its argument {position}",
                    "cls": found, "fix": "mark it static, pass its arrays (model.apply's variables), "
                                         "or use the framework's own jit (eqx.filter_jit, nnx.jit)"})
                break


def _traces_self(method, keywords):
    """False when self is static (static_argnums=0 or static_argnames='self') or the options
    cannot be read (``**options`` included)."""
    if any(k.arg is None for k in keywords):
        return False
    static = static_parameters(named_options(keywords), positional_names(method))
    return static is not None and "self" not in static


@rule("JNP306")
def stale_static_self(model):
    """JNP306: an attribute of an object that a jitted function keeps static (a method's ``self``,
    or a static argument) and reads, assigned after a call."""
    static_options = None  # whether a jit here may keep an argument static: asked once, of a plain class
    for cls in model.nodes(ast.ClassDef):
        if not model.plain_class(cls):
            continue
        methods = {method.name: _attributes_of(method, "self") for method in cls.body
                   if isinstance(method, ast.FunctionDef) and _static_self(model, method)}
        if static_options is None and not methods:
            static_options = any(k.arg in STATIC_OPTIONS for call in model.nodes(ast.Call) for k in call.keywords) \
                or _holds_objects_static(model)
        if methods or static_options:
            yield from _reassignments(model, cls, methods)
    stores, calls = {}, {}  # def or module -> {name: lines} it stores an attribute of / calls a method of
    for node in model.nodes(ast.Attribute):
        if type(node.value) is ast.Name:
            parent = model.parent(node)
            found = stores if type(node.ctx) is ast.Store else \
                calls if type(parent) is ast.Call and parent.func is node else None
            if found is not None:
                names = found.setdefault(model.enclosing_function(node) or model.tree, {})
                names.setdefault(node.value.id, set()).add(node.lineno)
    for scope in [model.tree, *model.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]:
        stored, called = stores.get(scope, {}), calls.get(scope, {})
        both = {name: stored[name] | called[name] for name in stored.keys() & called.keys()
                if len(model.scope(scope).bindings.get(name, ())) == 1}
        if both:
            yield from _kept_by_jitted_calls(model, scope, both)


def _kept_by_jitted_calls(model, scope, candidates):
    """``trainer.lr = ...`` after a block ran ``trainer.train_step(...)``, where the object's class (of
    any module) jits a bound method in ``__init__`` whose trace reads ``self.lr`` (the ``("kept", ...)``
    members of the object's Value): the compiled code keeps the value it read. Asked only of names
    the scope, binding them once, both calls a method of and stores an attribute of (``candidates``:
    name -> the lines where it does, a superset: a class body's count for the def around it); only
    statements spanning one of those lines are walked."""
    yield from _stores_after_runs(scope, _attribute_stored, partial(_kept_run, model, candidates),
                                  "as its bound self", sorted(set().union(*candidates.values())))


def _attribute_stored(node):
    """[(name, attribute)] when ``node`` stores ``name.attribute``."""
    return [(node.value.id, node.attr)] if type(node) is ast.Attribute and type(node.ctx) is ast.Store \
        and type(node.value) is ast.Name else ()


def _kept_run(model, candidates, node):
    """(what runs, (name, attribute) for the attributes it keeps) when ``node`` calls a method of a name
    of ``candidates`` whose object keeps what that method's jitted trace read; ``node`` is a call."""
    if type(node.func) is ast.Attribute and type(node.func.value) is ast.Name \
            and node.func.value.id in candidates and model.may_hold_arrays(node):  # (a source)
        kept = model.value(node.func.value).member(("kept", node.func.attr))
        return f"{describe(node.func)}()", [(node.func.value.id, attr) for (_, attr), _ in
                                            (kept.members if kept is not None else ())]
    return None, ()


# The nodes that may store an attribute: ``obj.attr = ...``, or a call of a method that assigns it.
_STORING = frozenset({ast.Attribute, ast.Call})


def _stores_after_runs(scope, stored, run, held="static", lines=None):
    """JNP306 at each node that assigns an attribute of an object (``stored(node)``: the (name,
    attribute) pairs it assigns) after a statement of the same block ran a jitted function that keeps
    that attribute (``run(node)``: (what runs, the pairs it keeps)), ``held`` saying how the object was
    given (static, or bound as a jitted method's self); with ``lines``, only the statements spanning one
    of them are walked. A name bound again holds another object (built afresh on each iteration). The
    last statement walked is not searched for runs: no store of its block follows it (a compound one,
    ``if __name__ == "__main__":`` around a whole script, is walked again for each block inside)."""
    for stmts, loop in blocks(scope.body, repeats):
        run_order = _in_order_run(stmts, loop)
        walked = [lines is None or _spans_one(stmt, lines) for stmt in run_order]
        last = max((position for position, walks in enumerate(walked) if walks), default=-1)
        used, found = {}, set()  # (name, attribute) kept by a jitted function run so far in this block -> what ran
        for position, later in enumerate(run_order[:last + 1]):
            if used:
                rebound = bound_names(later)
                used = {key: ran for key, ran in used.items() if key[0] not in rebound}
            if not walked[position]:
                continue
            for node in walk_own([later], SCOPES) if used else ():  # (no store matters before a jitted run)
                if type(node) not in _STORING:
                    continue
                key = next((key for key in stored(node) if key in used), None)
                if key is not None and node not in found:
                    found.add(node)
                    yield Finding.at(node, "JNP306", {"name": key[0], "attr": key[1], "compiled": used[key],
                                                      "held": held})
            for node in walk_own([later], SCOPES) if position < last else ():
                if type(node) is ast.Call:  # (only a call runs one: the walks are hot)
                    compiled, kept = run(node)
                    used.update((key, compiled) for key in kept if key not in used)


def _spans_one(stmt, lines):
    """Whether ``stmt`` spans one of ``lines`` (sorted): a search, not a scan, as every statement of
    every block asks."""
    first = bisect.bisect_left(lines, stmt.lineno)
    return first < len(lines) and lines[first] <= stmt.end_lineno


def _in_order_run(stmts, loop):
    """A block's statements in the order they run: a repeating loop's body twice, since a store at
    its top runs again after a call at its end on the iteration before."""
    return [*stmts, *stmts] if loop is not None and stmts is loop.body else stmts


def _static_self(model, method):
    params = positional(method)
    if not params or params[0].arg != "self":
        return False
    static = _static_names(model, method)
    return static is not None and "self" in static


def _static_names(model, func):
    """The parameters that the staging transform decorating ``func`` keeps static, or None."""
    for decorator in func.decorator_list:
        spec = model.transform_spec(decorator)
        if spec and spec[0] in model.staging_transforms:
            return static_parameters(named_options(spec[1]), positional_names(func))
    return None


def _holds_objects_static(model):
    """Whether this module applies a jit measured to keep an object it is given static, keyed by the
    object (``framework_static_objects``: ``eqx.filter_jit``, or ``filter_jit`` imported by its name),
    as a decorator or a call."""
    holding = api.framework_static_objects()
    applied = (*(call.func for call in model.nodes(ast.Call)),
               *(d for func in model.nodes(ast.FunctionDef, ast.AsyncFunctionDef) for d in func.decorator_list))
    return any(model.qualname(expr) in holding for expr in applied) if holding else False


def _static_object_reads(model, func_expr, cls):
    """{position: the attributes it reads of that static argument, an object of ``cls``} for the jitted
    function a call runs: a def under a staging transform, or a name bound to ``jax.jit(f,
    static_argnums=...)`` of a def or a lambda, every parameter of one under a jit that keeps an object
    it is given static (``framework_static_objects``: ``eqx.filter_jit``) where JAX cannot flatten the
    objects of ``cls`` (a registered pytree's arrays are traced there); not a method (its ``self`` is
    read by ``_static_self``)."""
    jitted = jitted_by(model, func_expr)
    if jitted is None or jitted[0] not in model.staging_transforms or any(k.arg is None for k in jitted[1]) \
            or not isinstance(jitted[2], ast.Lambda) and model.is_method(jitted[2]):
        return {}
    names = positional_names(jitted[2])
    if jitted[0] in api.framework_static_objects():
        static = names if model.untraceable_class(cls) else ()
    else:
        static = static_parameters(named_options(jitted[1]), names) or ()
    return {names.index(param): _attributes_of(jitted[2], param) for param in static if param in names}


def _attributes_of(func, param):
    return {node.attr for node in ast.walk(func) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == param and isinstance(node.ctx, ast.Load)}


def _reassignments(model, cls, methods):
    """Assignments ``obj.attr = ...`` (or a call of a method of ``cls`` that assigns ``self.attr``)
    after a statement of the same block ran a jitted function that keeps ``obj`` static and reads
    ``attr`` (``obj.method(...)``, ``f(obj, x)``), where ``obj`` is bound once, to ``cls(...)``, or
    is ``self`` in a method of ``cls`` (``fit`` calling ``self.step(x)``, then ``self.a = ...``)."""
    for scope, name in _instances(model, cls):
        if len(model.scope(scope).bindings.get(name, ())) != 1:
            continue  # rebound: which object is meant cannot be told
        yield from _stores_after_runs(scope, partial(_stored_attributes, name=name, cls=cls, jitted=methods),
                                      partial(_run_with_static, model, name=name, cls=cls, methods=methods))


def _instances(model, cls):
    """(scope, name) where ``name`` holds an instance of ``cls``: ``obj = cls(...)`` (in a def or at
    module level) and ``self`` in each undecorated method of ``cls`` whose first parameter it is."""
    for call in model.nodes(ast.Call):
        if not (isinstance(call.func, ast.Name) and call.func.id == cls.name):
            continue
        found = model.resolve(call.func)
        stmt = model.statement_of(call)
        if not found or [b.node for b in found[1]] != [cls] or not isinstance(stmt, ast.Assign) \
                or stmt.value is not call or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            continue
        scope = model.enclosing_function(stmt)
        yield (model.tree if scope is None else scope), stmt.targets[0].id
    for method in cls.body:
        if isinstance(method, ast.FunctionDef) and not method.decorator_list \
                and positional_names(method)[:1] == ["self"]:
            yield method, "self"


def _stored_attributes(node, name, cls, jitted):
    """(name, attribute) for the attributes of ``name``'s object that ``node`` assigns: ``obj.attr = ...``,
    or ``obj.method(...)`` of a method of ``cls`` whose body assigns ``self.attr`` (not one of the
    ``jitted`` methods: they assign only while traced)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name \
            and isinstance(node.ctx, ast.Store):
        return [(name, node.attr)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
        method = next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == node.func.attr), None)
        if method is not None and method.name not in jitted and positional_names(method)[:1] == ["self"]:
            return sorted({(name, n.attr) for n in ast.walk(method) if isinstance(n, ast.Attribute) and isinstance(
                n.value, ast.Name) and n.value.id == "self" and isinstance(n.ctx, ast.Store)})
    return []


def _run_with_static(model, node, name, cls, methods):
    """(what runs, (name, attribute) for the attributes of ``name``'s object it keeps) when ``node`` runs
    a jitted method of it (``obj.method(...)``, ``obj(...)``) or passes it as a static argument
    (``f(obj, x)``); ``node`` is a call."""
    if isinstance(node.func, ast.Name) and node.func.id == name:
        method = "__call__"
    elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
        method = node.func.attr
    else:
        given = [i for i, arg in enumerate(node.args) if isinstance(arg, ast.Name) and arg.id == name]
        reads = _static_object_reads(model, node.func, cls) if given else {}  # (the call's own test first)
        kept = [reads[i] for i in given if i in reads]
        return f"{describe(node.func)}()" if kept else None, {(name, attr) for attr in set().union(*kept)}
    return f"{cls.name}.{method}()", {(name, attr) for attr in methods.get(method, ())}
