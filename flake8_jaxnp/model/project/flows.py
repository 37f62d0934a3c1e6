"""Which of a function's parameters each of its calls passes on, from its text alone.

The project's reach (``modules.Project.callers``) follows traces from module to
module through these records: a call passes a parameter's values on when an
argument is that parameter or is computed from it by array operations
(``y = jnp.dot(p, x); log_stats(y)``: ``y`` derives from ``p`` and ``x``; each name of a
tuple target from its item, ``params, loss = self._train_step(params, x)``), so when
the parameter is a tracer, so is the argument. Whatever the text cannot settle
derives from nothing (precision first): a name bound by anything but an
assignment of a derived value, a call of anything but an array function or a
derived value's method, a static attribute (``x.shape``), a conditional
expression.
"""
import ast
import json
from functools import lru_cache

from ... import api
from ...patterns import Pattern
from ..library import array_function, body_call
from ..syntax import (FUNCTION_NODES, STAR, STATIC_NAMES, STATIC_NUMBERS, child_fields, imported_qualname, literals,
                      named_options, none_tested, parameters, positional_names, split_attributes, walk_own)
from ..applied import APPLY_OPTIONS
from .targets import (BINDING_STATEMENTS, CONDITIONAL_STATEMENTS, EITHER, HOLDER, HOST_METHODS, INSTANCE_METHOD, ITEM,
                      LINEN_APPLY, NESTED_SCOPE_TYPES, OBJECT, PARAMETER_METHOD, PASSED_FUNCTION, RETURNED,
                      binding_counts, bound_by, call_target, held_function, looked_up)

# The last names of the control flow that calls functions it is given (``jax.lax.scan``: ``_body_calls``).
_CONTROL_FLOW_NAMES = frozenset(name.rsplit(".", 1)[1] for name in api.control_flow_operands())
# Loops whose target may take each value of a dict (``_iterated_items``).
_LOOPS_OVER_ITEMS = frozenset({ast.For, ast.AsyncFor, ast.comprehension})
# Modules whose functions give a tracer when any argument is one.
_OPAQUE = object()  # a binding whose value derives from nothing the text can name
# A module that says this may give its traced code a function to call as state.apply_fn.
_APPLY_FN = b"apply_fn"
# Text that an ``apply_fn=`` keyword and a read of ``.apply_fn`` cannot do without. Between
# two tokens Python allows blanks, continuations and, inside brackets, newlines and comments:
# a comment (``#``) counts as maybe. (Each run of blanks is scanned once: linear on any text.)
_APPLY_FN_KEYWORD = Pattern(rb"\bapply_fn[ \t\f\r\n\\]*(?:=(?!=)|#)")
_APPLY_FN_ATTRIBUTE = Pattern(rb"\.[ \t\f\r\n\\]*(?:apply_fn\b|#)")
# Text that ``model.apply(variables, x)`` cannot do without (read as the two above).
_APPLY_ATTRIBUTE = Pattern(rb"\.[ \t\f\r\n\\]*(?:apply\b|#)")


def parameter_calls(func, imports, local_functions, apply_fn=None, instances=None, module_instances=None,
                    around=(frozenset(), {})):
    """[[import binding or None, attribute path, [[position, parameters, bare]], [[keyword,
    parameters, bare]], line, always, transform, argnums]] for each call in ``func`` (nested functions
    included, as a trace runs them) of an imported name or of a top-level function of
    the module (binding None, path [its name]) that passes on some of ``func``'s
    parameters, or that runs on every call of ``func`` (always: the callee then runs
    under whatever trace runs ``func``, whatever it is given; or the name of the parameter
    PARAM of ``if PARAM is None:`` around it, on every call that leaves PARAM None): each argument with the
    parameters its value derives from, and whether it is one parameter as it was passed
    in (bare), and the transform the call applies (``jax.grad(loss)(p)``: "jax.grad"; else
    None) with the positions it differentiates (``_argnums``). Calls into JAX, NumPy and the frameworks are left out:
    they are never the project's. ``apply_fn``: what ``state.apply_fn(...)`` calls in the
    module (``given_apply_fn``), or None. ``instances``: {parameter: (import binding, attribute
    path) of the imported class it holds an instance of}: calling it runs that ``__call__``.
    A method of a parameter that the function never rebinds (``model.loss(x)``) is recorded
    as ``[PARAMETER_METHOD, "model", "loss"]``, and a call of it (``model(x)``,
    ``jax.vmap(model)(xs)``) as ``[PARAMETER_METHOD, "model", "__call__"]``.
    ``module_instances``: the same for the module's names (``instances_of_imported_classes``):
    ``model.apply(variables, x)`` runs a linen Module's ``__call__`` (path ``[..., LINEN_APPLY]``).
    ``around``: what the def around a nested ``func`` gives it (``enclosing``): a call of one of
    its parameters is recorded as ``[PASSED_FUNCTION, "forward"]`` (of a local bound to a lookup in a dict of
    functions, as that lookup), of a method of one
    (``model.apply(p, x)``) as ``[PASSED_FUNCTION, "model", INSTANCE_METHOD, "apply"]``, of one of its defs as
    ``[None, ["make_step.loss_fn"]]``."""
    own, (outer, siblings) = {arg.arg for arg in parameters(func)}, around
    # self, whose attributes __init__ may have stored parameters in (a nested def's: its method's)
    holder = [outer[HOLDER]] if HOLDER in outer else positional_names(func)[:1]
    calls, bindings, rebound_at, handed, items = _calls_and_bindings(
        func, imports, local_functions | siblings.keys(), own, apply_fn)
    kept, objects = [], {}  # (call -> the parameter holding the object it calls)
    for node, target, always in calls:
        runs = transformed_instance(node, imports) or node.func  # jax.vmap(model)(xs) runs model(xs)
        called = getattr(split_attributes(runs)[0], "id", None)  # (None: jax.grad(f)(x))
        if type(runs) is ast.Subscript:  # LOSSES[name](x), unless a local name shadows LOSSES
            target = _item_target(runs, holder, outer, bindings, imports)
        elif target is None and type(runs) is ast.Call:  # make_step(cfg)(x), MAKERS[name](cfg)(x): the def made
            target = held_function(runs, imports, bindings, local_functions)
        elif apply_fn and _calls_apply_fn(node):
            pass  # state.apply_fn(...): what the module's apply_fn= keywords give
        elif called in outer and type(outer[called]) is str and called not in bindings and [called] != holder \
                and runs is node.func and type(runs) is ast.Attribute and type(runs.value) is ast.Name:  # model.m(x)
            target = (None, [PASSED_FUNCTION, outer[called], INSTANCE_METHOD, runs.attr])  # (what callers pass)
        elif target is None and _applies_an_instance(node):  # model.apply(variables, x)
            known = {} if module_instances is None else module_instances
            target = _applied_method(node, _applied_class(called, bindings, known, imports), imports)
        elif instances and called in instances and type(runs) is ast.Name:  # step(model, x): model(x)
            binding, path = instances[called]
            target = (list(binding), [*path, "__call__"])
            if called in own:
                objects[id(node)] = called
        elif type(runs) is ast.Attribute and [called] == holder and not bindings.get(called) \
                and f".{runs.attr}" in outer:  # self.loss(p, x): what the class's calls give __init__'s loss
            held = outer[f".{runs.attr}"]  # (or the lookup it stored: self.loss_fn = LOSSES[name])
            target = (None, [PASSED_FUNCTION, held]) if type(held) is str else held
        elif called in own and not bindings[called] and type(node.func) is ast.Attribute \
                and type(node.func.value) is ast.Name:  # model.loss(x): asked of the calls when reached
            target = (None, [PARAMETER_METHOD, called, node.func.attr])
        elif called in own and not bindings[called] and type(runs) is ast.Name:  # model(x): as its callers say
            target = (None, [PARAMETER_METHOD, called, "__call__"])
        elif called in outer and called not in bindings and type(runs) is ast.Name:
            held = outer[called]  # forward(p, x): what the outer def's callers pass (or the lookup it holds)
            target = (None, [PASSED_FUNCTION, held]) if type(held) is str else held
        elif called in bindings:  # a local or a parameter shadows the name (fn = LOSSES[name]: a lookup)
            values = bindings[called] if called not in own and type(runs) is ast.Name else ()
            once = values[0] if len(values) == 1 else None  # (for name, fn in FNS.items(): what FNS[name] runs)
            target = _instance_call(runs, bindings, imports) or (
                _item_target(items[called], holder, outer, bindings, imports) if once is not None and called in items
                else held_function(once, imports, bindings, local_functions)
                if once is not None and once is not _OPAQUE else None)
        elif type(module_instances) is dict and called in module_instances and called not in own \
                and _runs_instance(runs) and runs is node.func:  # STREAM() of STREAM = KeyStream(0)
            binding, path = module_instances[called]
            target = (list(binding), [*path, *((INSTANCE_METHOD, runs.attr) if type(runs) is ast.Attribute
                                               else ("__call__",))])
        if target is not None and target[0] is None and len(target[1]) == 1 and target[1][0] in siblings \
                and target[1][0] not in bindings:  # jax.grad(loss_fn)(p): the outer def's own loss_fn
            target = (None, [siblings[target[1][0]]])
        if target is not None:  # (each one of several a stored attribute may hold)
            either = target[1][1:] if target[0] is None and target[1][:1] == [EITHER] else [target]
            kept.extend((node, (binding, path), always) for binding, path in either)
    calls = kept
    if not calls:
        return []
    derived = _derivations([a for node, target, _ in calls for a in _arguments(node, target)], bindings, own, imports)
    under = _transformed_nested(handed, imports)
    found = []
    for node, target, always in calls:
        at = (node.lineno, node.col_offset)
        if type(always) is str and rebound_at.get(always, (node.lineno + 1,)) <= at:
            always = False  # (key = fold_in(key, 1) before the call: not what the caller left out)
        # x = check(x): a call that runs once, before any rebinding of a parameter, gets the parameter
        unbound = {name for name in own if always is True and at < rebound_at.get(name, (0, 0))}
        seen = {**derived, **{name: {name} for name in unbound}} if unbound else derived
        passed = [[where, sorted(params), type(value) is ast.Name and value.id in own
                   and (not bindings[value.id] or value.id in unbound)]
                  for where, value, params in ((where, value, _derived_from(value, seen, imports))
                                               for where, value in _arguments(node, target)) if params]
        positions = [entry for entry in passed if type(entry[0]) is int]
        keywords = [entry for entry in passed if type(entry[0]) is str] \
            + ([[OBJECT, [objects[id(node)]], True]] if id(node) in objects else [])
        if positions or keywords or always:
            found.append([target[0], target[1], positions, keywords, node.lineno, always,
                          imported_qualname(node.func.func, imports) if type(node.func) is ast.Call
                          else next((t for start, end, t in under if start <= at <= end), None), _argnums(node.func)])
    return found


def _argnums(transformed):
    """The positions that a transform applied in place (``jax.grad(loss, argnums=1)(p, x)``) is told to
    differentiate: its ``argnums``, [0] when it names none; None when they cannot be read, or for a
    call of anything else (what it differentiates is then every argument given a tracer)."""
    if type(transformed) is not ast.Call or len(transformed.args) != 1:
        return None
    options = named_options(transformed.keywords)
    positions = literals(options["argnums"], int) if "argnums" in options else [0]
    return positions if positions is not None and min(positions, default=0) >= 0 else None


def _transformed_nested(handed, imports):
    """[(start, end, transform)] for the defs nested in a function that it hands to a transform by
    name (``jax.value_and_grad(loss_fn)(p)``, ``grad_fn = jax.grad(loss_fn)``; ``handed``: [(the def,
    what is called with it)]): the calls between start and end run under that transform, so
    what they call is differentiated too. Another call given the def (``functools.partial(loss_fn, x)``,
    ``np.vectorize(loss_fn)``) is no transform."""
    found, transforms = [], _function_transforms()
    for nested, called in handed:
        transform = next((name for name in (imported_qualname(func, imports) for func in called)
                          if name in transforms), None)
        if transform is not None:
            found.append(((nested.lineno, nested.col_offset), (nested.end_lineno, nested.end_col_offset), transform))
    return found


def followed_parameters(func, returned, imports):
    """The positions of the parameters a tracer of which makes each of ``returned`` (the values
    of ``func``'s returns) one traced array: an operator (``x @ w``, ``-h``) on values computed
    from it by array operations (``h = jnp.tanh(x); return h * w``); [] when a return is
    anything else (a name or a call may give a pytree)."""
    if not returned or not all(type(v) is ast.BinOp or type(v) is ast.UnaryOp and type(v.op) is not ast.Not
                               for v in returned):
        return []
    names = positional_names(func)
    bindings = _calls_and_bindings(func, imports, (), set(names))[1]
    derived = _derivations([(None, value) for value in returned], bindings, set(names), imports)
    common = set.intersection(*(_derived_from(value, derived, imports) for value in returned))
    return sorted(names.index(name) for name in common if name in names)  # (not through a call: RETURNED)


def _runs_instance(func):
    """``model`` or ``model.loss``: what calling an object, or a method of it, runs."""
    return type(func) is ast.Name or type(func) is ast.Attribute and type(func.value) is ast.Name


def may_apply_an_instance(source):
    """Whether ``source`` (a module, or the part of it a summary reads) may call
    ``model.apply(...)``: what that runs is for the whole module to say (which class the
    name holds), so only then are the module's bindings read (``UnreadInstances``: the roots'
    part of a module asks for them, and is read whole, only where a root applies a name it
    does not bind)."""
    return b"apply" in source and (not source.isascii() or bool(_APPLY_ATTRIBUTE.search(source)))


def may_call_given_apply_fn(source):
    """Whether the module may both give ``apply_fn=`` and call ``state.apply_fn(...)``: only
    then does what it calls (``given_apply_fn``, the whole module's to say) change a flow,
    so only then is the module summarised whole. A text that is not ASCII may spell the
    name otherwise (Python reads ``ａpply_fn`` as ``apply_fn``): there the word alone counts."""
    if _APPLY_FN not in source:
        return False
    return not source.isascii() or bool(_APPLY_FN_KEYWORD.search(source) and _APPLY_FN_ATTRIBUTE.search(source))


def _instance_call(func, bindings, imports):
    """The call target of ``model(x)`` (``func``: what the call runs) with ``model`` bound
    once, to ``Model(...)`` of an imported class: ``Model.__call__`` (path ``[..., "Model",
    "__call__"]``); None for anything else."""
    found = _constructed_class(bindings.get(func.id, ()), imports) if type(func) is ast.Name else None
    return (found[0], [*found[1], "__call__"]) if found is not None else None


def _constructed_class(values, imports):
    """(import binding, attribute path) of the imported class whose call is the one value a
    name is bound to (``model = Model(...)``), else None."""
    target = call_target(values[0].func, imports, ()) if len(values) == 1 and type(values[0]) is ast.Call else None
    return (target[0], target[1]) if target is not None and target[0] else None


def transformed_instance(call, imports):
    """The Name ``model`` of ``jax.vmap(model)(xs)`` (a transform of the API data given one
    name, without static arguments), whose ``__call__`` runs with the call's arguments when
    it holds an object (Equinox's batching), or ``self.loss`` of ``jax.grad(self.loss)(p)``;
    else None."""
    inner = call.func
    if type(inner) is not ast.Call or len(inner.args) != 1 or not _runs_instance(inner.args[0]):
        return None
    return inner.args[0] if _transformed_target(call, imports, ()) is None \
        and _plainly_transformed(inner, imports) else None


def _arguments(call, target):
    """(position or keyword, value) for a call's arguments (``**options`` left out); for a
    call that runs ``model.apply`` (``target``'s path ends with ``LINEN_APPLY``: also
    ``state.apply_fn``), those after the variables, as ``__call__`` gets them, without
    apply's own options."""
    if LINEN_APPLY in target[1][-2:]:  # (also with a method: [..., LINEN_APPLY, "encode"])
        return [*enumerate(call.args[1:]),
                *((k.arg, k.value) for k in call.keywords if k.arg and k.arg not in APPLY_OPTIONS)]
    return [*((i, a) for i, a in enumerate(call.args) if a is not None),  # (None: a control flow operand not given)
            *((k.arg, k.value) for k in call.keywords if k.arg)]


def _applies_an_instance(call):
    """``name.apply(variables, ...)``."""
    return type(call.func) is ast.Attribute and call.func.attr == "apply" and type(call.func.value) is ast.Name \
        and bool(call.args)


def _applied_method(call, target, imports):
    """The target of ``model.apply(variables, ...)`` whose ``__call__`` is ``target``, given
    its ``method=``: ``target`` itself without one, path ``[..., "Model", LINEN_APPLY, "encode"]``
    for ``method="encode"`` or ``method=Model.encode`` (the instance's class), None for any
    other (a function, another class's method)."""
    given = [k.value for k in call.keywords if k.arg == "method"]
    if target is None or not given:
        return target
    if type(given[0]) is ast.Constant and type(given[0].value) is str:
        return target[0], [*target[1], given[0].value]
    named = call_target(given[0], imports, ())
    if named is None or list(named[0]) != list(target[0]) or list(named[1][:-1]) != list(target[1][:-1]):
        return None
    return target[0], [*target[1], named[1][-1]]


def _applied_class(name, bindings, module_instances, imports):
    """(import binding, ``[..., "Model", LINEN_APPLY]``) for ``name.apply(...)`` with ``name`` bound
    once, in the function or else in the module, to ``Model(...)`` of an imported class; else None."""
    found = _constructed_class(bindings[name], imports) if name in bindings else module_instances.get(name)
    return (list(found[0]), [*found[1], LINEN_APPLY]) if found is not None else None


def _calls_apply_fn(call):
    return type(call.func) is ast.Attribute and call.func.attr == "apply_fn"


def given_apply_fn(tree, imports, local_functions):
    """(import binding or None, attribute path) for what ``state.apply_fn(...)`` calls in the
    module ``tree``: the function that every ``apply_fn=`` keyword of the module names
    (``TrainState.create(apply_fn=forward, ...)``), an imported function or a top-level one, or
    ``model.apply`` with ``model`` bound to an imported class's ``Model(...)`` (path ``[...,
    "Model", LINEN_APPLY]``, which the reach follows for a linen Module); None when the
    keywords name different things, or a name bound more than once anywhere in the module
    (precision first)."""
    given = {ast.dump(node.value): node.value for node in walk_own([tree], ())
             if type(node) is ast.keyword and node.arg == "apply_fn"}
    if len(given) != 1:
        return None
    value = given.popitem()[1]
    root, parts = split_attributes(value)
    if root is None:
        return None
    found = instances_of_imported_classes(tree, imports).get(root.id) if parts == ["apply"] else None
    if found is not None:  # model = Model(); apply_fn=model.apply
        return list(found[0]), [*found[1], LINEN_APPLY]
    target = call_target(value, imports, local_functions)
    return target if target is not None and binding_counts(tree).get(root.id) == 1 else None


def instances_of_imported_classes(tree, imports):
    """{name: (import binding, attribute path)} for the names that the module ``tree`` binds
    once in all (nested functions included), to a call of an imported class (``model =
    MLP()``), or so it seems: what ``name.apply(...)`` runs is then that class's to say."""
    counts, found = binding_counts(tree), {}
    for node in walk_own([tree], ()):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name \
                and counts[node.targets[0].id] == 1:
            target = _constructed_class([node.value], imports)
            if target is not None:
                found[node.targets[0].id] = (tuple(target[0]), tuple(target[1]))
    return found


class UnreadInstances:
    """What ``instances_of_imported_classes`` says, for a module read in part: no name known
    yet. Notes whether a flow asks for a name (``model.apply(...)``, ``model`` not bound in the
    function): the module is then read whole to say which class they hold."""

    def __init__(self):
        self.asked = False

    def get(self, name):  # (no name is known yet)
        self.asked = True


def _calls_and_bindings(func, imports, local_functions, own, apply_fn=None):
    """One walk of ``func``'s body: ([(call, target, whether it runs on every call of
    ``func``, or the parameter PARAM when it runs on every call that leaves PARAM None: under
    ``if PARAM is None:``)] for the calls of project names (and of ``state.apply_fn``, given what it
    calls), {name: [the values bound to it, or _OPAQUE]}; a parameter starts with no value
    bound), {name: the earliest (line, column) where a binding of it may take effect}: an
    assignment's end (its value is read first), any other binding's start, and [(a nested def, what
    ``func`` calls with the def's name as first argument)] (``jax.grad(loss_fn)``): the name read
    where the call is, or in a def around it (two nested defs may share a name)."""
    calls, bindings, assigned, rebound_at, items = [], {name: [] for name in own}, set(), {}, {}
    defs, handed, outer = {}, {}, {}  # by (def, name): the nested def, what is called with the name; def -> around it

    def rebind(name, node, end=False):
        at = (node.end_lineno, node.end_col_offset) if end else (node.lineno, node.col_offset)
        rebound_at[name] = min(rebound_at.get(name, at), at)
    stack = [(stmt, True, func) for stmt in func.body]  # (a statement runs when the statement around it does)
    while stack:
        node, always, scope = stack.pop()
        kind = type(node)
        if kind is ast.If and always is True and none_tested(node.test) in own:  # if key is None: key = next_key()
            stack.extend([(child, node.test.left.id, scope) for child in node.body]
                         + [(child, False, scope) for child in node.orelse])
            continue
        if kind is ast.Call:
            if node.args and type(node.args[0]) is ast.Name:
                handed.setdefault((scope, node.args[0].id), []).append(node.func)
            if apply_fn is not None and _calls_apply_fn(node):
                if not any(type(a) is ast.Starred for a in node.args):
                    calls.append((node, apply_fn, always))
            elif not any(type(a) is ast.Starred for a in node.args):
                for run in (node, *_body_calls(node, imports)):  # lax.scan(step, init, xs) runs step(init, xs[i])
                    target = call_target(run.func, imports, local_functions) \
                        or _transformed_target(run, imports, local_functions) or looked_up(run.func, imports)
                    if target is not None or _runs_instance(run.func) or _applies_an_instance(run) \
                            or type(run.func) in (ast.Subscript, ast.Call) \
                            or transformed_instance(run, imports) is not None:  # model(x), self.fns[k](x), make(c)(x)
                        calls.append((run, target, always))  # (asked below)
        elif kind is ast.Name:
            if type(node.ctx) is not ast.Load and id(node) not in assigned:
                bindings.setdefault(node.id, []).append(_OPAQUE)
                rebind(node.id, node)
            continue
        elif kind is ast.Assign:  # x, y = clean(x, y): the call reads x before the rebinding
            for target in node.targets:
                for name, value in _unpacked(target, node.value):
                    bindings.setdefault(name.id, []).append(value)
                    assigned.add(id(name))
                    rebind(name.id, node, end=True)
        elif kind in (ast.AugAssign, ast.AnnAssign) and type(node.target) is ast.Name and node.value is not None:
            value = node.value if kind is ast.AnnAssign else ast.copy_location(
                ast.BinOp(node.target, node.op, node.value), node)
            bindings.setdefault(node.target.id, []).append(value)
            assigned.add(id(node.target))
            rebind(node.target.id, node, end=True)
        elif kind is ast.arg:
            if node.arg not in own:  # a nested function's: it holds whatever its caller passes
                bindings.setdefault(node.arg, []).append(_OPAQUE)
                rebind(node.arg, node)
        elif kind in _LOOPS_OVER_ITEMS:
            items.update(_iterated_items(node))
        elif kind in BINDING_STATEMENTS:
            if kind is ast.FunctionDef:
                defs[(scope, node.name)] = node
            for name in bound_by(node):
                bindings.setdefault(name, []).append(_OPAQUE)
                rebind(name, node)
        inner = always if kind not in CONDITIONAL_STATEMENTS and kind not in NESTED_SCOPE_TYPES else False
        if kind in FUNCTION_NODES:
            outer[node], scope = scope, node
        for field in child_fields(kind):
            value = getattr(node, field, None)
            if type(value) is list:
                stack.extend([(child, inner, scope) for child in value if child is not None])
            elif isinstance(value, ast.AST):
                stack.append((value, inner, scope))
    given = {}  # nested def -> what is called with its name
    for (scope, name), called in handed.items():
        while scope is not None and (scope, name) not in defs:
            scope = outer.get(scope)
        if scope is not None:
            given.setdefault(defs[(scope, name)], []).extend(called)
    return calls, bindings, rebound_at, list(given.items()), items


def _body_calls(call, imports):
    """The calls of its bodies that a control-flow ``call`` makes (``library.body_call``: ``lax.scan(step,
    init, xs)`` runs ``step(init, xs[i])``); none for any other call."""
    func = call.func
    if (func.attr if type(func) is ast.Attribute else getattr(func, "id", None)) not in _CONTROL_FLOW_NAMES:
        return ()
    qualname = imported_qualname(func, imports)
    runs = (body_call(call, qualname, int(position), call.args[int(position)])
            for position in api.control_flow_operands().get(qualname, ()) if int(position) < len(call.args))
    return [run for run in runs if run is not None]


def _iterated_items(loop):
    """{name: ``FNS[_]``} for the name a loop binds to each value of a dict (``for name, fn in FNS.items()``,
    ``for fn in FNS.values()``, also in a comprehension): a call of the name runs what a lookup in it may."""
    each, target = loop.iter, loop.target
    if type(each) is not ast.Call or each.args or each.keywords or type(each.func) is not ast.Attribute:
        return {}
    name = target.elts[1] if each.func.attr == "items" and type(target) is ast.Tuple and len(target.elts) == 2 \
        else target if each.func.attr == "values" else None
    key = ast.copy_location(ast.Name("_", ast.Load()), each)
    return {name.id: ast.copy_location(ast.Subscript(each.func.value, key, ast.Load()), each)} \
        if type(name) is ast.Name else {}


def _item_target(subscript, holder, outer, bindings, imports):
    """The call target of what ``subscript`` may give: an item of the dict of functions that ``__init__``
    stored on ``self`` (``self.metric_fns[name]``, ``enclosing``'s ``".metric_fns[]"``), or of an imported or
    module dict (``LOSSES[name]``, unless a local name shadows it: ``targets.looked_up``); else None."""
    held = subscript.value
    if type(held) is ast.Attribute and type(held.value) is ast.Name and [held.value.id] == holder \
            and not bindings.get(held.value.id) and f".{held.attr}{ITEM}" in outer:
        return outer[f".{held.attr}{ITEM}"]
    return looked_up(subscript, imports, bindings)


def _unpacked(target, value):
    """(name, the value it gets, or _OPAQUE) for each name the target of ``target = value``
    binds: an element of a tuple or list target gets that item of the value (``params, loss =
    step(params, x)``: ``step(...)[1]``), one under a star an unknown list."""
    kind = type(target)
    if kind is ast.Name:
        return [(target, value)]
    if kind is ast.Starred:
        return [(name, _OPAQUE) for name, _ in _unpacked(target.value, _OPAQUE)]
    if kind not in (ast.Tuple, ast.List):
        return []
    starred = any(type(element) is ast.Starred for element in target.elts)
    return [pair for i, element in enumerate(target.elts) for pair in _unpacked(
        element, _OPAQUE if starred or value is _OPAQUE else ast.copy_location(
            ast.Subscript(value, ast.copy_location(ast.Constant(i), value), ast.Load()), value))]


def _transformed_target(call, imports, local_functions):
    """What ``call_target`` says of ``f`` in ``jax.grad(f)(x)``: a transform of the API data
    given ``f`` alone, without static arguments, runs ``f`` with the call's arguments (their
    tracers stay tracers in ``f``); None for any other call."""
    inner = call.func
    if type(inner) is not ast.Call or len(inner.args) != 1 or type(inner.args[0]) is ast.Starred \
            or not _plainly_transformed(inner, imports):
        return None
    return call_target(inner.args[0], imports, local_functions) or looked_up(inner.args[0], imports)


def _plainly_transformed(inner, imports):
    """Whether the call ``inner`` applies a function transform without static arguments."""
    return imported_qualname(inner.func, imports) in _function_transforms() \
        and not any(k.arg is None or k.arg in (*STATIC_NUMBERS, STATIC_NAMES) for k in inner.keywords)


@lru_cache(maxsize=1)
def _function_transforms():
    """The transforms that take the function first, JAX's and the frameworks' (generated), but
    those that lift a class (``nn.scan(Cell, ...)(...)`` makes a Module: its arguments are fields)."""
    return frozenset(api.transforms()) | frozenset(
        name for name, measured in api.framework_transforms().items() if not measured["lifts_class"])


def _derivations(arguments, bindings, own, imports):
    """{name: the parameters its value derives from} for the names that ``arguments``
    read, directly or through the values bound to them (an empty set for a name bound
    to something the text cannot settle, or to a value derived from nothing)."""
    relevant, pending = set(), [value for _, value in arguments]
    while pending:
        for node in walk_own([pending.pop()], ()):
            if type(node) is ast.Name and node.id not in relevant and node.id in bindings:
                relevant.add(node.id)
                pending.extend(v for v in bindings[node.id] if v is not _OPAQUE)
    settled = {name for name in relevant if _OPAQUE in bindings[name]}
    derived = {name: ({name} if name in own and name not in settled else set()) for name in relevant}
    order = sorted(relevant - settled, key=lambda n: min((v.lineno, v.col_offset) for v in bindings[n])
                   if bindings[n] else (0, 0))
    changed = True
    while changed:  # grows monotonically; in source order most names settle in one round
        changed = False
        for name in order:
            found = set(derived[name])
            for value in bindings[name]:
                found |= _derived_from(value, derived, imports)
            if found != derived[name]:
                derived[name], changed = found, True
    for name in order:  # a binding derived from nothing may hold a Python value there: nothing
        if any(not _derived_from(v, derived, imports) for v in bindings[name]):
            derived[name] = set()
    return derived


def _project_call(call, imports):
    """(import binding, attribute path) of the imported project function that ``call`` runs, else None."""
    target = call_target(call.func, imports, ())
    return target if target is not None and target[0] is not None and target[0] is not imports.get(STAR) else None


def _derived_from(expr, derived, imports, item=None):
    """The parameters whose tracers would make ``expr`` a tracer (see the module's docstring);
    through a call of an imported project function (its result's item ``item``), as RETURNED."""
    kind = type(expr)
    if kind is ast.Name:
        return derived.get(expr.id, set())
    if kind is ast.BinOp:
        return _derived_from(expr.left, derived, imports) | _derived_from(expr.right, derived, imports)
    if kind is ast.UnaryOp and type(expr.op) is not ast.Not:
        return _derived_from(expr.operand, derived, imports)
    if kind is ast.Compare and not any(type(op) in (ast.Is, ast.IsNot, ast.In, ast.NotIn) for op in expr.ops):
        return set().union(*(_derived_from(e, derived, imports) for e in [expr.left, *expr.comparators]))
    if kind is ast.Subscript:  # (x, 3)[1]: that item alone
        value, index = expr.value, expr.slice
        item = index.value if type(index) is ast.Constant and type(index.value) is int else None
        if type(value) in (ast.Tuple, ast.List) and item is not None \
                and not any(type(e) is ast.Starred for e in value.elts):
            return _derived_from(value.elts[item], derived, imports) \
                if -len(value.elts) <= item < len(value.elts) else set()
        if type(value) is ast.Call and _project_call(value, imports) is not None:
            return _derived_from(value, derived, imports, item) if item is not None else set()
        return _derived_from(value, derived, imports)
    if kind is ast.Attribute:
        static = expr.attr in api.static_attributes() and expr.attr != "at"  # x.at[i].set(v) is an array
        return set() if static else _derived_from(expr.value, derived, imports)
    if kind in (ast.Tuple, ast.List):
        return set().union(*(_derived_from(e, derived, imports) for e in expr.elts))
    if kind is ast.Call:
        arguments = [*expr.args, *(k.value for k in expr.keywords)]
        if type(expr.func) is ast.Call and _plainly_transformed(expr.func, imports) \
                and api.transforms().get(imported_qualname(expr.func.func, imports), {"arrays": True})["arrays"]:
            return set().union(*(_derived_from(a, derived, imports) for a in arguments))  # jax.grad(f)(p, x)
        name = imported_qualname(expr.func, imports)
        through = _project_call(expr, imports) if name is None or not array_function(name) else None
        if through is not None and not any(type(a) is ast.Starred for a in expr.args):
            given = set().union(*(_derived_from(a, derived, imports) for a in arguments))
            return {f"{param}{RETURNED}{json.dumps([list(through[0]), through[1], item])}"
                    for param in given if RETURNED not in param}
        if name is not None:
            array = array_function(name)
        else:  # a method of a derived value: x.sum(), x.at[i].set(v); a Module applied to one: model.apply(p, x)
            array = type(expr.func) is ast.Attribute and expr.func.attr not in HOST_METHODS \
                and (bool(_derived_from(expr.func.value, derived, imports)) or _applies_an_instance(expr))
        if not array or any(type(a) is ast.Starred for a in expr.args):
            return set()
        found = _derived_from(expr.func.value, derived, imports) if name is None else set()
        return found.union(*(_derived_from(a, derived, imports) for a in arguments))
    return set()
