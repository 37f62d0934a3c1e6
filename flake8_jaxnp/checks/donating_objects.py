"""What a call of an object's jitted attribute donates (``trainer.step(state, batch)``), where the
object's class jits it in ``__init__`` with a donation option that may depend on a constructor
argument (``donate_argnums=(0,) if donate else ()``; ``wrappers``' ``donates``); and what a call of
the jitted step a same-file factory returns donates (``opt, step = make_step(lr)``, ``make_step``
returning ``opt, jax.jit(step, donate_argnums=(0, 1) if donate else ())``), where the option may
depend on the factory's argument.

An option is a value like any other: a conditional one may give either arm, so the call donates
where the argument that selects the donating arm is actually given: along the chain of calls that
built the object (``build(donate=True)`` -> ``Trainer(..., donate=donate)``), and, for a parameter of
the function that reads the buffer, where its default or a call of it in the module passes a true
literal. Where no literal says so the call is not known to donate."""
import ast

from ..facts import DONATING
from ..model.names import BindingKind
from ..model.syntax import defaults, literals, positional_names, selects_nothing

# How many calls and parameters a constructor's argument may be followed through.
_MAX_DEPTH = 4
# What ``_passed`` answers for an argument given through something unread (``*args``, ``**options``).
UNSAID = object()


def object_donations(model, func_expr):
    """(positions, names) that a call of ``obj.attr`` donates, or None (see the module's docstring)."""
    if type(func_expr) is not ast.Attribute or type(func_expr.value) is not ast.Name:
        return None
    built = _construction(model, func_expr.value, ())
    if built is None:
        return None
    call, facts, frames = built
    entry = (facts.get("donates") or {}).get(func_expr.attr)
    if entry is None:
        return None
    params, options = entry
    positions, names = set(), set()
    for option, text, condition in options:
        if condition is not None and True not in _argument(model, call, condition, frames, 0):
            continue
        value = ast.literal_eval(text)
        _select(option, value if isinstance(value, (tuple, list)) else [value], params, positions, names)
    return (positions, names) if positions or names else None


def factory_donations(model, func_expr):
    """(positions, names) that a call of ``step`` donates, ``step`` a name bound once to what a
    same-file factory def returns (or to an item of the tuple it returns): a ``jax.jit`` of a def with
    a literal donation option, or ``A if p else ()`` on a parameter ``p`` of the factory that the
    factory's call, or else ``p``'s default, makes true. None otherwise."""
    found = model.resolve(func_expr) if type(func_expr) is ast.Name else None
    if not found or len(found[1]) != 1 or found[1][0].kind not in (BindingKind.ASSIGN, BindingKind.OTHER):
        return None
    stmt = found[1][0].stmt
    if type(stmt) is not ast.Assign or len(stmt.targets) != 1 or type(stmt.value) is not ast.Call:
        return None
    call, target = stmt.value, stmt.targets[0]
    factory = model.callee(call.func)
    returned = model.returned_values(factory) if type(factory) is ast.FunctionDef else None
    if not returned or len(returned) != 1:
        return None
    jit = returned[0]
    if type(target) is ast.Tuple and found[1][0].node in target.elts:
        if type(jit) is not ast.Tuple or len(jit.elts) != len(target.elts):
            return None
        jit = jit.elts[target.elts.index(found[1][0].node)]
    elif type(target) is not ast.Name:
        return None
    jitted = model.callee(jit.args[0]) if type(jit) is ast.Call and jit.args \
        and model.qualname(jit.func) in model.staging_transforms else None
    if type(jitted) is not ast.FunctionDef:
        return None
    params, positions, names = positional_names(jitted), set(), set()
    for keyword in (k for k in jit.keywords if k.arg in DONATING):
        value = keyword.value
        if type(value) is ast.IfExp and selects_nothing(value.orelse):
            if True not in _truth(model, value.test, ((factory, call),), 0):
                continue
            value = value.body
        _select(keyword.arg, literals(value, (int, str)) or [], params, positions, names)
    return (positions, names) if positions or names else None


def _select(option, items, params, positions, names):
    """Adds to ``positions`` and ``names`` what a donation option's literal items select."""
    for item in items:
        if option == "donate_argnums" and isinstance(item, int) and 0 <= item < len(params):
            positions.add(item)
            names.add(params[item])
        elif option == "donate_argnames" and isinstance(item, str):
            names.add(item)
            positions |= {params.index(item)} if item in params else set()


def _construction(model, expr, frames):
    """(the constructor call, its class's facts, the calls it was reached through, innermost first)
    for the object an expression gives: a call of the class (``Trainer(...)``), or a name bound once
    to one, or to an item of what a same-file def returns (``_, trainer = build(cfg)``, ``build``
    returning ``model, trainer`` or ``model, Trainer(...)``)."""
    if type(expr) is ast.Call:
        facts = model.helper_facts(expr.func)
        return (expr, facts[0], frames) if facts is not None and facts[0].get("donates") else None
    found = model.resolve(expr) if type(expr) is ast.Name else None
    if not found or len(found[1]) != 1 or found[1][0].kind not in (BindingKind.ASSIGN, BindingKind.OTHER) \
            or len(frames) > _MAX_DEPTH:
        return None
    stmt = found[1][0].stmt
    if type(stmt) is not ast.Assign or len(stmt.targets) != 1 or type(stmt.value) is not ast.Call:
        return None
    call, target = stmt.value, stmt.targets[0]
    if type(target) is ast.Name:
        return _construction(model, call, frames)
    if type(target) is not ast.Tuple or found[1][0].node not in target.elts:
        return None
    index, helper = target.elts.index(found[1][0].node), model.callee(call.func)
    returned = model.returned_values(helper) if helper is not None else None
    if not returned or len(returned) != 1 or type(returned[0]) is not ast.Tuple \
            or len(returned[0].elts) != len(target.elts):
        return None
    return _construction(model, returned[0].elts[index], ((helper, call), *frames))


def _argument(model, call, condition, frames, depth):
    """The truth values (None: unknown) the constructor's ``condition`` parameter may hold."""
    index, param, default = condition
    passed = _passed(call, index, param, frames)
    if passed is UNSAID:
        return {None}
    return _truth(model, *passed, depth) if passed is not None else {_literal_truth(default)}


def _passed(call, index, param, frames):
    """(the expression a call gives a parameter, the frames to read it in), through ``**options``
    of the enclosing def when the call forwards them; None when it gives none, UNSAID when what it
    gives is not known."""
    if any(type(a) is ast.Starred for a in call.args[:index + 1]):
        return UNSAID
    if index < len(call.args):
        return call.args[index], frames
    given = next((k.value for k in call.keywords if k.arg == param), None)
    if given is not None:
        return given, frames
    forwarded = next((k.value for k in call.keywords if k.arg is None), None)
    if type(forwarded) is ast.Name and frames and frames[0][0].args.kwarg is not None \
            and frames[0][0].args.kwarg.arg == forwarded.id:
        return _passed(frames[0][1], len(frames[0][1].args), param, frames[1:])
    return UNSAID if forwarded is not None else None


def _truth(model, expr, frames, depth):
    """The truth values an expression may hold: a literal's; a parameter's, from the call that
    ``frames`` say reached its def, or (none said) its default and every call of the def in the module."""
    if type(expr) is ast.Constant:
        return {bool(expr.value)}
    found = model.resolve(expr) if type(expr) is ast.Name and depth < _MAX_DEPTH else None
    if not found or len(found[1]) != 1 or found[1][0].kind is not BindingKind.PARAM:
        return {None}
    func = model.parent(found[1][0].node)
    func = model.parent(func) if type(func) is ast.arguments else func
    if type(func) not in (ast.FunctionDef, ast.AsyncFunctionDef) or func.args.vararg is not None:
        return {None}
    params = positional_names(func)
    index = params.index(expr.id) if expr.id in params else len(func.args.args) + len(func.args.posonlyargs)
    default = defaults(func).get(expr.id)
    condition = [index, expr.id, ast.unparse(default) if default is not None else None]
    if frames and frames[0][0] is func:
        return _argument(model, frames[0][1], condition, frames[1:], depth + 1)
    calls = [c for c in model.nodes(ast.Call) if model.callee(c.func) is func]
    return {_literal_truth(condition[2])}.union(*(_argument(model, c, condition, (), depth + 1) for c in calls))


def _literal_truth(text):
    """The truth of a default's text when it is a literal, else None."""
    try:
        return bool(ast.literal_eval(text)) if text is not None else None
    except ValueError:
        return None
