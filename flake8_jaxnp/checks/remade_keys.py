"""JNP601's loop form: a key made anew from the same seed on every iteration of a loop
(``for step in ...: key = jax.random.PRNGKey(0)``) is the same key every iteration, so whatever
the loop draws from it, or splits from it, repeats. Reported at the key's first consumption after
it is made, where the runtime mode sees the same key data consumed again on the next iteration.
A def that makes its key so on every call is the same form when the def runs many times: a lax
loop's body (``lax.fori_loop(0, n, body, x)``), or a def a loop calls and carries the result of.

A fixed key is often deliberate: one seed per configuration of a sweep, one evaluation key per
epoch, a demo showing that a key gives the same numbers. So the loop must not be a handful of
literal steps (``handful_steps``), something in the loop must draw from the key or its subkeys,
and what the consumption gives must reach a name the loop carries to its next iteration
(``params = update(params, noise)``: the same noise trains every step).
"""
import ast

from .. import api
from ..findings import Finding
from ..model.keys import SPLIT, reads_besides_key
from ..model.syntax import COMPREHENSIONS, LOOPS, SCOPES, TRIES, block_children, bound_names, child_nodes, walk_own
from . import called_def, describe, repeats
from .transfers import model_handful_steps

MAKERS = frozenset({"jax.random.PRNGKey", "jax.random.key"})
# The lax loops, whose last traced function (``api.lax_bodies``) is the body each step runs.
LAX_LOOPS = frozenset({"jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.scan"})
# What a loop-invariant seed may be written with: names, attributes, constants and arithmetic.
_SEED_NODES = (ast.Name, ast.Attribute, ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop,
               ast.expr_context)
_MADE_AGAIN = {"draw": "draws the same numbers", "split": "gives the same subkeys"}
# ... when its shape or count changes with the loop (``for m, k in problems: uniform(key(0), (m, k))``):
# split(key, n) is the first n of split(key, m) only with jax_threefry_partitionable on.
_MADE_AGAIN_OTHER_SHAPE = {"draw": "draws from the same random bits",
                           "split": "gives the same first subkeys (with jax_threefry_partitionable on, the default "
                                    "since JAX 0.5, split(key, n) is the first n of split(key, m))"}


def remade_key_findings(model, consumers):
    """JNP601 Findings for the first consumption of each key a repeating loop makes again from the
    same seed; ``consumers``: call -> (key expression, how it consumes it, ...), as ``prng_key_reuse`` has."""
    made = [call for call in model.nodes(ast.Call) if _is_maker(model, call)] if consumers else []
    # the names a maker's value is assigned to: only their reads are traced back (the rest cost nothing)
    names = {name for call in made if type(model.parent(call)) in (ast.Assign, ast.AnnAssign)
             for name in bound_names(model.parent(call))}
    uses, memo = {}, {}  # maker call -> [(consumer call, key expression, how)]; _made_by's memo
    for call, (key, how, *_) in consumers.items() if made else ():
        if how not in _MADE_AGAIN:
            continue  # an unseen split: nothing shows a draw from its subkeys
        named = type(key) is ast.Name and key.id in names
        maker = key if _is_maker(model, key) else _made_by(model, key, memo) if named else None
        if maker is not None:
            uses.setdefault(maker, []).append((call, key, how))
    drawn = {}  # statement -> the names that the keys of its draws read
    for call, (key, how, *_) in consumers.items() if uses else ():
        if _draws(model, call, how):
            drawn.setdefault(model.statement_of(call), set()).update(n.id for n in ast.walk(key) if type(n) is ast.Name)
    for maker, consumptions in uses.items():
        repeated = _repetition(model, maker, consumptions, drawn)
        if repeated is None:
            continue
        bound, where, outside = repeated
        call, key, how = min(consumptions, key=lambda use: (use[0].lineno, use[0].col_offset))
        again = _MADE_AGAIN_OTHER_SHAPE if reads_besides_key(call, key, bound) else _MADE_AGAIN
        repeated = f"from the same seed {where}, so {describe(call.func)}() {again[how]} each time"
        if key is maker:
            name, text = describe(maker), f"makes the same key {repeated}; make the key once {outside}"
        else:
            name = key.id
            text = f"is made again by {describe(maker)} on line {maker.lineno} {repeated}; make it once {outside}"
        yield Finding.at(key, "JNP601", {"name": name, "how": text})


def _repetition(model, maker, consumptions, drawn):
    """(the names that change on each run of the body that makes the key, where it runs again, where
    to make it instead) when the maker runs again with the same seed in a body that runs many times
    and what its key draws reaches what the next run reads: a loop's body reaching a name the loop carries; a def's body
    reaching its return, when the def is the body of a lax loop (its return is the next step's carry,
    or a scan's stacked output) or a loop calls it and carries what it returns; else None."""
    loop = _loop_around(model, maker)
    if loop is not None:
        bound = bound_names(loop)
        if _same_seed(model, maker, bound) and _draws_into_carried(model, loop, loop.body, consumptions, drawn):
            return bound, f"on every iteration of the loop on line {loop.lineno}", "before the loop"
        return None
    function = _function_around(model, maker)
    if function is None:
        return None
    bound = bound_names(*function.body) | {a.arg for a in ast.walk(function.args) if type(a) is ast.arg}
    if not _same_seed(model, maker, bound) \
            or not _draws_into_carried(model, function, function.body, consumptions, drawn):
        return None
    where = _runs_again(model, function)
    return (bound, where, f"outside {function.name}()") if where is not None else None


def _function_around(model, maker):
    """The def whose every call runs the maker's statement (only ``with`` statements between), or None."""
    node = model.statement_of(maker)
    parent = model.parent(node)
    while isinstance(parent, (ast.With, ast.AsyncWith)):
        node, parent = parent, model.parent(parent)
    return parent if type(parent) is ast.FunctionDef and node in parent.body else None


def _runs_again(model, function):
    """Where ``function`` runs many times: as the body of a lax loop (``lax.fori_loop(0, n, body, x)``),
    or called (``step(x)``, ``obj.step(x)``) on every iteration of a repeating loop that carries what
    the call gives (``x = step(x)``); None when nothing in the module shows it."""
    for call in model.nodes(ast.Call):
        qualname = model.qualname(call.func)
        if qualname in LAX_LOOPS:
            position = api.lax_bodies()[qualname][-1]
            body = call.args[position] if len(call.args) > position else None
            if type(body) is ast.Name and model.callee(body) is function:
                return f"on every step of {describe(call.func)}() on line {call.lineno}"
        elif called_def(model, call.func) is function:
            for loop in _loops_around(model, call):
                if _draws_into_carried(model, loop, loop.body, [(call, call, "draw")], {}):
                    return f"on every call of {function.name}(), which the loop on line {loop.lineno} makes"
    return None


def _loops_around(model, node):
    """The repeating loops of ``node``'s own function whose body holds it, not a handful of literal steps."""
    child, parent = node, model.parent(node)
    while parent is not None and not isinstance(parent, (*SCOPES, ast.Module)):
        if isinstance(parent, LOOPS) and child in parent.body and repeats(parent) \
                and model_handful_steps(model, parent) is None:
            yield parent
        child, parent = parent, model.parent(parent)


def _is_maker(model, expr):
    return type(expr) is ast.Call and model.qualname(expr.func) in MAKERS and bool(expr.args or expr.keywords)


def _made_by(model, name, memo):
    """The maker call of the plain assignment ``name = jax.random.PRNGKey(...)`` whose value the
    read ``name`` gets: the nearest earlier statement binding the name, in its block or the blocks
    around it (a loop around the read passes on what came before it); None when that statement is
    anything else. ``memo``: (statement, name) -> the answer for a read in that statement, each
    block's positions and each statement's stored names, so the reads of one long block cost one
    walk back in all."""
    node, visited, found = model.statement_of(name), [], None
    while (node, name.id) not in memo:
        visited.append(node)
        parent = model.parent(node)
        place = _position(memo, parent, node) if parent is not None else None
        if place is None:
            break
        block, index = place
        if index:
            node = block[index - 1]
            if name.id in _stored(memo, node):
                found = _assigned_maker(model, node)
                break
        elif isinstance(parent, (*SCOPES, ast.Module)) \
                or isinstance(parent, (ast.For, ast.AsyncFor)) and name.id in bound_names(parent.target):
            break  # a parameter, a name of the enclosing function, or the loop's own
        else:
            node = parent
    else:
        found = memo[(node, name.id)]
    for stmt in visited:
        memo[(stmt, name.id)] = found
    return found


def _stored(memo, stmt):
    """``bound_names(stmt)``, walked once per statement (a loop before many reads is walked once)."""
    found = memo.get(stmt)
    if found is None:
        found = memo[stmt] = bound_names(stmt)
    return found


def _position(memo, parent, node):
    """(the statement list of ``parent`` that holds ``node``, its index there), or None."""
    for block in _blocks(parent):
        positions = memo.get(id(block))
        if positions is None:
            positions = memo[id(block)] = {stmt: index for index, stmt in enumerate(block)}
        if node in positions:
            return block, positions[node]
    return None


def _assigned_maker(model, stmt):
    """The maker call ``stmt`` assigns to a plain name alone, or None."""
    targets = stmt.targets if type(stmt) is ast.Assign else [getattr(stmt, "target", None)]
    plain = type(stmt) in (ast.Assign, ast.AnnAssign) and len(targets) == 1 and type(targets[0]) is ast.Name
    return stmt.value if plain and _is_maker(model, stmt.value) else None


def _blocks(stmt):
    """The statement lists a statement (a handler, a case) holds directly."""
    return [getattr(stmt, field) for field in ("body", "orelse", "finalbody")
            if type(getattr(stmt, field, None)) is list]


def _loop_around(model, maker):
    """The loop whose every iteration runs the maker's statement (only ``with`` statements between),
    when it certainly repeats and is not a demo of a handful of literal steps; else None."""
    node = model.statement_of(maker)
    parent = model.parent(node)
    while isinstance(parent, (ast.With, ast.AsyncWith)):
        node, parent = parent, model.parent(parent)
    if not isinstance(parent, LOOPS) or node not in parent.body or not repeats(parent) \
            or model_handful_steps(model, parent) is not None:
        return None
    return parent


def _same_seed(model, maker, bound):
    """Whether the maker's arguments are the same on every run: names not in ``bound`` (what the loop
    or def binds; nor a ``global`` or ``nonlocal`` elsewhere), attributes nothing in the module assigns, constants."""
    rebound = bound | {name for n in model.nodes(ast.Global, ast.Nonlocal) for name in n.names}
    for argument in (*maker.args, *(k.value for k in maker.keywords)):
        for node in ast.walk(argument):
            if not isinstance(node, _SEED_NODES) or type(node) is ast.Name and node.id in rebound \
                    or type(node) is ast.Attribute and _assigned_attribute(model, node.attr):
                return False
    return True


def _assigned_attribute(model, attr):
    return any(n.attr == attr and type(n.ctx) is not ast.Load for n in model.nodes(ast.Attribute))


def _draws(model, call, how):
    """Whether a consumption draws: a sampler, or a helper (whose splits feed its own draws); a split
    itself only hands on subkeys, which may reach nothing that draws (a model with dropout off)."""
    return how == "draw" or model.qualname(call.func) != SPLIT


def _draws_into_carried(model, repeater, body, consumptions, drawn):
    """Whether the key's consumptions, or what they give, are drawn from in ``body`` (a loop's or a
    def's), and what they give reaches what the next run reads: a name the loop carries to its next
    iteration, or the def's return; following the body's assignments in source order.
    ``drawn``: statement -> the names its draws' keys read."""
    carried = set() if isinstance(repeater, SCOPES) else _carried(repeater)
    if not carried and not isinstance(repeater, SCOPES):
        return False
    sources = {}  # statement -> (it draws, the key names its consumptions read)
    for call, key, how in consumptions:
        draws, names = sources.get(model.statement_of(call), (False, set()))
        sources[model.statement_of(call)] = (draws or _draws(model, call, how),
                                             names | ({key.id} if type(key) is ast.Name else set()))
    tainted, drew, returned = set(), False, False
    statements = sorted((n for n in walk_own(body, SCOPES, block_children) if isinstance(n, ast.stmt)),
                        key=lambda n: (n.lineno, n.col_offset))
    for stmt in statements:
        reads, stores = _header_names(stmt)
        source = sources.get(stmt)
        if source is not None or reads & tainted:
            if source is not None:
                drew, tainted = drew or source[0], tainted | source[1]
            drew = drew or bool(drawn.get(stmt, set()) & tainted)
            tainted |= stores
            returned = returned or type(stmt) is ast.Return and stmt.value is not None
    return drew and (returned if isinstance(repeater, SCOPES) else bool(tainted & carried))


def _header_names(stmt):
    """(names read, names bound) by ``stmt`` itself: a simple statement whole, a compound one's
    header (a loop's iterable and target, a ``with``'s items, a test)."""
    parts = [child for child in child_nodes(stmt)
             if not isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case))]
    nodes = [n for part in parts for n in walk_own([part], SCOPES)]
    own = {name for n in nodes if isinstance(n, COMPREHENSIONS)
           for generator in n.generators for name in bound_names(generator.target)}
    names = [n for n in nodes if type(n) is ast.Name and n.id not in own]  # not a comprehension's own variables
    return {n.id for n in names if type(n.ctx) is ast.Load}, {n.id for n in names if type(n.ctx) is not ast.Load}


def _carried(loop):
    """The names the loop body binds and reads before binding them in the same iteration: their
    value comes from the iteration before (a ``while`` test reads them all so). A name the body
    binds on every path that goes on (a ``try`` whose handlers ``continue`` or raise, both arms of an
    ``if``) before reading it is reset by each iteration, not carried (a tuning loop's running best)."""
    read_first = _header_names(loop)[0] if isinstance(loop, ast.While) else set()
    _read_first(loop.body, _header_names(loop)[1], read_first)
    return read_first & bound_names(*loop.body)


def _read_first(block, bound, read_first):
    """Adds to ``read_first`` the names ``block`` reads before binding them, given the names
    ``bound`` before it; returns the names bound when the block goes on past its end, or None when
    no path does (it ends in ``continue``, ``break``, ``return`` or ``raise``)."""
    bound = set(bound)
    for stmt in block:
        if isinstance(stmt, SCOPES):
            bound.add(stmt.name)
            continue
        if type(stmt) is ast.If:  # an elif chain as one list of arms: it may be thousands long
            arms = []
            while True:
                read_first |= _header_names(stmt)[0] - bound
                arms.append(stmt.body)
                if len(stmt.orelse) != 1 or type(stmt.orelse[0]) is not ast.If:
                    arms.append(stmt.orelse)
                    break
                stmt = stmt.orelse[0]
            ends = [_read_first(arm, bound, read_first) for arm in arms]
        else:
            reads, stores = _header_names(stmt)
            read_first |= reads - bound
            ends = _ends(stmt, bound, stores, read_first)
        going_on = [end for end in ends if end is not None]
        if not going_on:
            return None
        bound = set.intersection(*going_on)
    return bound


def _ends(stmt, before, stores, read_first):
    """The names bound at the end of each way ``stmt`` (all but an ``if``) goes on, None for a way
    that leaves the block; ``before``: the names bound before it, ``stores``: those its header binds."""
    if isinstance(stmt, (ast.Break, ast.Continue, ast.Return, ast.Raise)):
        return [None]
    bound = before | stores
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [_read_first(stmt.body, bound, read_first)]
    if isinstance(stmt, TRIES):
        body = _read_first(stmt.body, bound, read_first)
        ends = [None if body is None else _read_first(stmt.orelse, body, read_first)]
        ends += [_read_first(handler.body, bound, read_first) for handler in stmt.handlers]
        if not stmt.finalbody:
            return ends
        going_on = [end for end in ends if end is not None]
        after = _read_first(stmt.finalbody, set.intersection(*going_on) if going_on else bound, read_first)
        return [after] if going_on else [None]
    for part in _parts(stmt):  # a loop, which may run no iteration, or a match, which may match no case
        _read_first(part, bound, read_first)
    return [before if isinstance(stmt, (ast.For, ast.AsyncFor)) else bound]  # no iteration binds no target


def _parts(stmt):
    """The statement lists of a compound statement, handlers and cases included."""
    found = _blocks(stmt)
    found += [handler.body for handler in getattr(stmt, "handlers", ())]
    found += [case.body for case in getattr(stmt, "cases", ())]
    return found
