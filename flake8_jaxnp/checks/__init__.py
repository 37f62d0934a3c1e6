"""Checks: one module per rule family. Each check is a function of the model that yields
Findings, declared with ``@rule(codes)``: the linter runs every check so declared whose rules'
needs (below) the module meets."""
import ast
import bisect

from .. import api
from ..facts import CALLABLE_TIMERS, DONATING, TIMERS
from ..model.instances import method_in
from ..model.kinds import JAX_TREE
from ..model.names import BindingKind
from ..model.syntax import SCOPES, named_options, positional_names, selected_arguments, walk_own
from ..model.traced import Behaviour

DESCRIBED_LENGTH = 40  # characters of source text a message quotes before it elides arguments


def rule(*codes):
    """Declare the catalogue codes a check emits, beside its name (``grep JNP505`` finds it);
    the linter collects the checks so declared, and a test holds them to the catalogue."""
    def declare(check):
        check.codes = codes
        return check
    return declare


# A rule's need (``needs`` in the catalogue, which the linter reads without importing the families):
# a function of the model that is False only for a module in which the rule can find nothing. The
# linter imports a family, and runs a check, only for a module that meets the need of one of their
# rules (an editor's save of a file that differentiates, donates and times nothing never loads those
# checks); a rule with no need runs everywhere, as a new rule does.


def differentiates(model):
    """Whether a differentiating transform traces a function of the module (JNP604 looks nowhere else)."""
    return any(t.behaviour is Behaviour.DIFFERENTIATING for traced in model.traced.values() for t in traced.transforms)


def donates(model):
    """Whether a call of the module donates (``donate_argnums=``, or a framework jit's own option,
    ``api.framework_donations``), or calls another project module's jitted function that does: JNP605
    has nothing to follow otherwise."""
    keywords = set(DONATING).union(*(options for options in api.framework_donations().values()))
    return any(k.arg in keywords for call in model.nodes(ast.Call) for k in call.keywords) \
        or calls_an_imported_jit_with(model, DONATING)


def compiles(model):
    """Whether the module uses a staging transform (a call or a decorator), calls what a call gives
    (``make_step()(x)``: it may jit anew), a ``lax`` loop that traces again per function object, or
    another module's jitted function with static arguments: JNP602 has no compilation to repeat
    otherwise."""
    compiling = model.staging_transforms | api.lax_traced_per_function()
    return any(type(call.func) is ast.Call or model.qualname(call.func) in compiling
               for call in model.nodes(ast.Call)) or any(
        (model.transform_spec(d) or ("",))[0] in model.staging_transforms
        for f in model.nodes(ast.FunctionDef, ast.AsyncFunctionDef) for d in f.decorator_list) \
        or calls_an_imported_jit_with(model, ("static_argnums", "static_argnames"))


def traces_cached_code(model):
    """Whether a transform that caches its trace traces a function of the module, or such a trace
    calls one with no tracer (``model.trace_time``): JNP301-JNP305's effects run nowhere else."""
    return any(traced.cached_by is not None for traced in model.traced.values()) or bool(model.trace_time)


def reads_a_clock(model):
    """Whether the module calls a clock or a timer of callables: JNP603 times nothing else."""
    timed = TIMERS | CALLABLE_TIMERS
    return any(model.qualname(call.func) in timed for call in model.nodes(ast.Call))


def describe(node):
    """Source text of ``node`` for messages, e.g. ``np.asarray(loss)``. A longer one elides
    whole argument lists and subscripts, the innermost first, just enough to fit
    (``np.asarray(jnp.stack(...))``); names are never cut, nor is a called transform
    (``jax.jit(step)(...)``), so a text that cannot fit otherwise stays longer."""
    text = ast.unparse(node)
    stages = _elision_stages(node) if len(text) > DESCRIBED_LENGTH else []
    if not stages:
        return text
    # the fewest stages that make it fit (all of them when none does): eliding more only shortens it
    count = 1 + bisect.bisect_left(range(1, len(stages)), True,
                                   key=lambda n: len(_elided_text(node, stages[:n])) <= DESCRIBED_LENGTH)
    return _elided_text(node, stages[:count])


def _elision_stages(node):
    """The calls (with arguments) and subscripts in ``node``, grouped by how deep they sit in
    other calls' arguments and subscripts, deepest first. A call that is itself called
    (``jax.jit(f)`` in ``jax.jit(f)(x)``) names the function, and a lone name or constant as
    argument or key (``f(x)``, ``state['params']``) names the item: they are never elided."""
    stages, stack = {}, [(node, 0)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, ast.Call):
            if not isinstance(current.func, ast.Call):
                stack.append((current.func, depth))
            if _worth_eliding([*current.args, *current.keywords]):
                stages.setdefault(depth, []).append(current)
            stack.extend((argument, depth + 1) for argument in [*current.args, *current.keywords])
        elif isinstance(current, ast.Subscript):
            stack += [(current.value, depth), (current.slice, depth + 1)]
            if _worth_eliding([current.slice]):
                stages.setdefault(depth, []).append(current)
        else:
            stack.extend((child, depth) for child in ast.iter_child_nodes(current))
    return [stages[depth] for depth in sorted(stages, reverse=True)]


def _worth_eliding(arguments):
    """More than a lone name or constant (``f(x)``, ``x[0]``; ``f(n=x)`` is more), and longer
    than the ``...`` for them."""
    lone = arguments[0] if len(arguments) == 1 else None
    while isinstance(lone, ast.Attribute):
        lone = lone.value
    return not isinstance(lone, (ast.Name, ast.Constant)) and len(", ".join(map(ast.unparse, arguments))) > 3


def _elided_text(node, stages):
    elided = {id(n) for stage in stages for n in stage}
    return ast.unparse(_copy_eliding(node, elided))


def _copy_eliding(node, elided):
    """A copy of ``node`` in which each call or subscript in ``elided`` has ``...`` for its arguments."""
    if not isinstance(node, ast.AST):
        return node
    fields = dict(ast.iter_fields(node))
    if id(node) in elided:
        fields.update({"args": [ast.Constant(...)], "keywords": []} if isinstance(node, ast.Call)
                      else {"slice": ast.Constant(...)})
    return type(node)(**{name: [_copy_eliding(v, elided) for v in value] if isinstance(value, list)
                         else _copy_eliding(value, elided) for name, value in fields.items()})


def iterates_twice(iterable):
    """False for iterables written out with fewer than two items (``(x,)``, ``range(1)``)."""
    if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
        return len(iterable.elts) >= 2 and not any(isinstance(e, ast.Starred) for e in iterable.elts)
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range":
        bounds = [a.value for a in iterable.args if isinstance(a, ast.Constant) and isinstance(a.value, int)]
        if bounds and len(bounds) == len(iterable.args) <= 3 and 0 not in bounds[2:]:
            return len(range(*bounds)) >= 2
    return True


def is_jitted(model, func):
    """A decorated jitted def of this file, a name bound to ``jax.jit(f)``, or a jitted
    function of another project module."""
    callee = model.callee(func)
    if callee is not None:
        return callee in model.jitted_callables and bool(getattr(callee, "decorator_list", ()))
    if model.array_value(func).kind is JAX_TREE:  # called, so a function: not a jitted result
        return True
    found = model.helper_facts(func)
    return found is not None and found[0].get("jitted", False)


def jitted_by(model, func):
    """(transform, its keywords, the same-file def or lambda it transforms) for a call's function
    expression ``jax.jit(f, ...)``, a name bound once to one, or a def under one transform; else None."""
    if type(func) is ast.Name:
        binding = model.one_binding(func)
        if binding is not None and binding.kind is BindingKind.DEF:
            specs = [model.transform_spec(d) for d in binding.node.decorator_list]
            if len(specs) == 1 and specs[0] is not None and specs[0][0] in model.transform_names:
                return specs[0][0], specs[0][1], binding.node
            return None
        func = binding.value if binding is not None and binding.kind is BindingKind.ASSIGN else None
    if type(func) is not ast.Call or model.qualname(func.func) not in model.transform_names or len(func.args) != 1:
        return None
    target = model.callee(func.args[0])
    return (model.qualname(func.func), func.keywords, target) if isinstance(target, (ast.FunctionDef, ast.Lambda)) \
        else None


def called_def(model, func_expr):
    """The same-file def ``f`` or ``obj.method`` names (``obj`` holding a same-file class's instance)."""
    if isinstance(func_expr, ast.Name):
        return model.callee(func_expr)
    if isinstance(func_expr, ast.Attribute) and isinstance(func_expr.value, ast.Name):
        return method_in(model.class_of(func_expr.value), func_expr.attr)
    return None


def jitted_parameters(model, func_expr, numbers_option, names_option):
    """(positions, names) that a jitted function's ``numbers_option``/``names_option`` (static_argnums/
    static_argnames, donate_argnums/donate_argnames) select, or None when it has none we can read:
    of a jitted def or a name bound to ``jax.jit(f, ...)`` of this file, or of another project module
    (its summary's ``options``)."""
    found = model.resolve(func_expr) if isinstance(func_expr, ast.Name) else None
    binding = found[1][0] if found and len(found[1]) == 1 else None
    target = transform = None
    if binding is not None and binding.kind is BindingKind.DEF:
        target, params = binding.node, positional_names(binding.node)
        specs = [model.transform_spec(d) for d in binding.node.decorator_list]
        transform, keywords = next((spec for spec in specs if spec and spec[0] in model.staging_transforms),
                                   (None, None))
    elif binding is not None and binding.kind is BindingKind.ASSIGN and isinstance(binding.value, ast.Call) \
            and model.qualname(binding.value.func) in model.staging_transforms and binding.value.args:
        target, transform = model.callee(binding.value.args[0]), model.qualname(binding.value.func)
        params, keywords = positional_names(target) if target is not None else [], binding.value.keywords
    elif binding is None and found or binding is not None and binding.kind is not BindingKind.IMPORT:
        return None
    else:
        imported = model.helper_facts(func_expr)
        options = imported[0].get("options") if imported else None
        if not options:
            return None
        keywords = [ast.keyword(arg=arg, value=ast.parse(text, mode="eval").body) for arg, text in options[0]]
        params = options[1] or []
    if keywords is None:
        return None
    if numbers_option == DONATING[0] and isinstance(target, ast.FunctionDef):
        donated = _donated_by_option(model, transform, keywords, target, params)
        if donated:
            return set(donated), {params[i] for i in donated}
    selected = selected_arguments(named_options(keywords), (numbers_option,), names_option)
    if selected is None or not (selected[0] or selected[1]):
        return None
    numbers, names = selected
    positions = {n for n in numbers if n >= 0} | {params.index(n) for n in names if n in params}
    names = set(names) | {params[n] for n in numbers if 0 <= n < len(params)}
    return positions, names


def _donated_by_option(model, transform, keywords, func, params):
    """The positions that a framework jit's own donation option donates (``eqx.filter_jit(step,
    donate="all")``; ``api.framework_donations``, "first" and "rest" of ``params``), kept to the
    parameters whose structure ``func`` gives back (``gives_back``): the others, data a step reads,
    have no output whose buffers they can become, and JAX keeps them."""
    options = api.framework_donations().get(transform, {})
    given = [(k.arg, k.value.value) for k in keywords if k.arg in options and type(k.value) is ast.Constant]
    parts = options[given[0][0]].get(given[0][1], ()) if len(given) == 1 else ()
    return [i for i, param in enumerate(params) if ("first" if i == 0 else "rest") in parts
            and model.gives_back(func, param)]


def calls_an_imported_jit_with(model, options):
    """Whether a call here, of a name passed, names another project module's jitted function given
    one of ``options`` (its summary's ``options``: ``sgd = jax.jit(_sgd, donate_argnums=0)`` in
    ``updates.py``), which ``jitted_parameters`` reads; for the donation options, also a class or a
    factory whose jitted functions donate (its facts' ``donates``, ``returned_donation``:
    ``donating_objects``)."""
    if model.project is None:
        return False
    imports = {name for name, bindings in model.scope(model.tree).bindings.items()
               if len(bindings) == 1 and bindings[0].kind is BindingKind.IMPORT}
    for call in model.nodes(ast.Call):
        root = call.func
        while type(root) is ast.Attribute:
            root = root.value
        if type(root) is not ast.Name or root.id not in imports \
                or not any(type(a) is ast.Name for a in (*call.args, *(k.value for k in call.keywords))) \
                or (model.qualname(call.func) or "").startswith(("jax.", "numpy.")):
            continue
        found = model.helper_facts(call.func)
        given = found[0].get("options") if found else None
        if given and any(arg in options for arg, _ in given[0]) \
                or found and not set(options).isdisjoint(DONATING) \
                and (found[0].get("donates") or found[0].get("returned_donation")):
            return True
    return False


def blocks(body, repeats):
    """(statements, innermost enclosing loop for which ``repeats(loop)`` holds, or None) for
    ``body`` and every statement list nested in it, not entering nested functions or classes.
    Iterative: an elif chain thousands of arms long nests that deep."""
    stack = [(body, None)]
    while stack:
        stmts, loop = stack.pop()
        yield stmts, loop
        for stmt in stmts:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            is_loop = isinstance(stmt, (ast.For, ast.AsyncFor, ast.While))
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if inner:
                    stack.append((inner, stmt if is_loop and field == "body" and repeats(stmt) else loop))
            for child in [*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]:
                stack.append((child.body, loop))


def repeats(loop):
    """False for a loop written to run at most once (``for x in (a,)``, ``while False``), or whose
    body never reaches its next iteration (``for batch in data: ...; break``)."""
    if leaves_first_pass(loop):
        return False
    if isinstance(loop, ast.While):
        return not (isinstance(loop.test, ast.Constant) and not loop.test.value)
    return iterates_twice(loop.iter)


def leaves_first_pass(loop):
    """True when ``loop``'s body leaves it on every path of its first pass: a ``break``, ``return``
    or ``raise`` among its top-level statements that no ``continue`` before it can skip."""
    body = loop.body
    for index, stmt in enumerate(body):
        if isinstance(stmt, (ast.Break, ast.Return, ast.Raise)):
            return not any(isinstance(node, ast.Continue) for node in walk_own(body[:index], SCOPES))
    return False
