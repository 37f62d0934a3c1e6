"""What a call of an object's jitted attribute donates (``trainer.step(state, batch)``), where the
object's class jits it in ``__init__`` with a donation option that may depend on a constructor
argument (``donate_argnums=(0,) if donate else ()``; ``wrappers``' ``donates``); and what a call of
the jitted step a factory of this module or another returns donates (``opt, step = make_step(lr)``,
``make_step`` returning ``opt, jax.jit(step, donate_argnums=(0, 1) if donate else ())``; the
summary's ``returned_donation``), where the option may depend on the factory's argument.

An option is a value like any other: a conditional one may give either arm, so the call donates
where the argument that selects the donating arm is actually given: along the chain of calls that
built the object (``build(donate=True)`` -> ``Trainer(..., donate=donate)``), and, for a parameter of
the function that reads the buffer, where its default or a call of it in the module passes a true
literal. A condition may read a field of a config object (``if cfg.donate``): the object's
construction gives it (``dataclasses.replace(CFG, donate=False)``), or its dataclass's literal default
(``donate: bool = True``, in this module or another). Where no literal says so the call is not known
to donate."""
import ast

from ..model.names import BindingKind
from ..model.project.wrappers import returned_donation
from ..model.syntax import defaults, positional_names

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
    return _donated(model, call, frames, *entry)


def factory_donations(model, func_expr):
    """(positions, names) that a call of ``step`` donates, ``step`` a name bound once to what a factory
    of this module or another returns (or to the item of the tuple it returns) where every return
    gives a jit of a nested def with donation options (``returned_donation``, kept in the factory's
    summary): a literal option, or one whose condition the factory's call makes true. None otherwise."""
    found = model.resolve(func_expr) if type(func_expr) is ast.Name else None
    if not found or len(found[1]) != 1 or found[1][0].kind not in (BindingKind.ASSIGN, BindingKind.OTHER):
        return None
    stmt = found[1][0].stmt
    if type(stmt) is not ast.Assign or len(stmt.targets) != 1:
        return None
    call, target, name = stmt.value, stmt.targets[0], found[1][0].node
    if type(target) is ast.Tuple and (name not in target.elts or any(type(e) is ast.Starred for e in target.elts)):
        return None
    if type(call) is ast.Tuple and type(target) is ast.Tuple and len(call.elts) == len(target.elts) \
            and not any(type(e) is ast.Starred for e in call.elts):  # step, other = make(cfg), other
        call, target = call.elts[target.elts.index(name)], name
    if type(call) is not ast.Call:
        return None
    donated = _factory_donation(model, call.func)
    if donated is None:
        return None
    at, params, options = donated
    position = target.elts.index(name) if type(target) is ast.Tuple else None
    if type(target) not in (ast.Tuple, ast.Name) or position != at:
        return None
    return _donated(model, call, (), params, options)


def _factory_donation(model, func_expr):
    """``returned_donation`` of the factory a call names: a def of this module, read here, or another
    module's function, from its summary."""
    factory = model.callee(func_expr)
    if type(factory) is ast.FunctionDef:
        return returned_donation(factory, lambda call: bool(call.args)
                                 and model.qualname(call.func) in model.staging_transforms)
    facts = model.helper_facts(func_expr)
    return facts[0].get("returned_donation") if facts is not None else None


def _donated(model, call, frames, params, options):
    """(positions, names) that the ``options`` ([[option, literal text, condition]]) of a jitted def
    with parameters ``params`` donate where ``call`` (reached through ``frames``) makes each condition
    true, or None."""
    positions, names = set(), set()
    for option, text, condition in options:
        if condition is None or True in _argument(model, call, condition, frames, 0):
            value = ast.literal_eval(text)
            _select(option, value if isinstance(value, (tuple, list)) else [value], params, positions, names)
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
    """The truth values (None: unknown) the called def's ``condition`` parameter may hold (of its field,
    when the condition names one: ``cfg.donate``)."""
    index, param, default, *field = condition
    passed = _passed(call, index, param, frames)
    if passed is UNSAID or passed is None and field:
        return {None}
    return _truth(model, *passed, depth, *field) if passed is not None else {_literal_truth(default)}


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


def _truth(model, expr, frames, depth, field=None):
    """The truth values an expression may hold, or its ``field`` (``cfg.donate``): a literal's; a
    parameter's, from the call that ``frames`` say reached its def, or (none said) its default and every
    call of the def in the module; a field of a name bound once to a construction (``_field_truth``), unless
    the module may change it (``_may_change``)."""
    if type(expr) is ast.Constant and field is None:
        return {bool(expr.value)}
    if type(expr) is ast.Attribute and field is None:
        return _truth(model, expr.value, frames, depth, expr.attr)
    if type(expr) is ast.Call and field is not None and depth < _MAX_DEPTH:
        return _field_truth(model, expr, frames, depth, field)
    found = model.resolve(expr) if type(expr) is ast.Name and depth < _MAX_DEPTH else None
    if not found or len(found[1]) != 1 or field is not None and _may_change(model, expr, found[0], field):
        return {None}
    binding = found[1][0]
    if binding.kind is BindingKind.ASSIGN and field is not None and type(binding.stmt) is ast.Assign:
        return _truth(model, binding.stmt.value, frames, depth + 1, field)
    if binding.kind is not BindingKind.PARAM:
        return {None}
    func = model.parent(binding.node)
    func = model.parent(func) if type(func) is ast.arguments else func
    if type(func) not in (ast.FunctionDef, ast.AsyncFunctionDef) or func.args.vararg is not None:
        return {None}
    params = positional_names(func)
    index = params.index(expr.id) if expr.id in params else len(func.args.args) + len(func.args.posonlyargs)
    default = defaults(func).get(expr.id)
    condition = [index, expr.id, ast.unparse(default) if default is not None else None, *([field] if field else [])]
    if frames and frames[0][0] is func:
        return _argument(model, frames[0][1], condition, frames[1:], depth + 1)
    calls = [c for c in model.nodes(ast.Call) if model.callee(c.func) is func]
    kept = _truth(model, default, (), depth + 1, field) if field and default is not None \
        else {_literal_truth(condition[2])}
    return kept.union(*(_argument(model, c, condition, (), depth + 1) for c in calls))


def _may_change(model, read, scope, field):
    """Whether the module may change ``field`` of what the name ``read`` (bound in ``scope``) holds after
    its construction: it stores that field on any object (``cfg.donate = False``, also through an alias or
    in a helper or a method: ``alias.donate``, ``self.donate``) or calls ``setattr``; or a statement
    hands the object to a call made for its effect (``switch_off(cfg)``, ``cfg.disable()``: another
    module's function or method may store the field) or binds another name to it (``alias = cfg``); or a
    call of what is not a def of this module receives it before ``read`` (``lr = prepare(cfg)``)."""
    if any(type(node.ctx) is not ast.Load and node.attr == field for node in model.nodes(ast.Attribute)) \
            or any(type(node.func) is ast.Name and node.func.id == "setattr" for node in model.nodes(ast.Call)):
        return True
    for node in model.nodes(ast.Name):
        if node.id != read.id or type(node.ctx) is not ast.Load or (model.resolve(node) or (None,))[0] is not scope:
            continue
        parent = model.parent(node)
        call = model.parent(parent) if type(parent) is ast.Attribute else parent
        if type(parent) in (ast.Assign, ast.AnnAssign, ast.NamedExpr) \
                or type(call) is ast.Call and type(model.parent(call)) is ast.Expr \
                or type(parent) in (ast.Call, ast.keyword) and _hands_on_before(model, node, read):
            return True
    return False


def _hands_on_before(model, node, read):
    """Whether ``node`` is an argument of a call that runs before ``read`` (earlier in the file, or in a
    loop around both) of what is neither a def of this module (whose stores ``_may_change`` reads) nor
    ``dataclasses.replace`` (a copy)."""
    call = model.parent(node) if type(model.parent(node)) is ast.Call else model.parent(model.parent(node))
    if node is read or node is call.func or model.qualname(call.func) == "dataclasses.replace" \
            or type(model.callee(call.func)) in (ast.FunctionDef, ast.AsyncFunctionDef):
        return False
    return (node.lineno, node.col_offset) < (read.lineno, read.col_offset) \
        or bool(_loops_around(model, node) & _loops_around(model, read))


def _loops_around(model, node):
    """The loops a node is in."""
    loops = set()
    while (node := model.parent(node)) is not None:
        if type(node) in (ast.For, ast.While):
            loops.add(node)
    return loops


def _field_truth(model, call, frames, depth, field):
    """The truth values ``field`` may hold in the object a call builds: what the call gives it by
    keyword (``dataclasses.replace(CFG, donate=False)``, ``TrainConfig(donate=True)``); else the
    replaced object's, or the literal the class's field defaults to (a call of the class with no
    positional argument)."""
    if any(k.arg is None for k in call.keywords):
        return {None}
    given = next((k.value for k in call.keywords if k.arg == field), None)
    if given is not None:
        return _truth(model, given, frames, depth + 1)
    if model.qualname(call.func) == "dataclasses.replace" and len(call.args) == 1:
        return _truth(model, call.args[0], frames, depth + 1, field)
    return {_literal_truth(model.field_literal(call.func, field))} if not call.args else {None}


def _literal_truth(text):
    """The truth of a default's text when it is a literal, else None."""
    try:
        return bool(ast.literal_eval(text)) if text is not None else None
    except ValueError:
        return None
