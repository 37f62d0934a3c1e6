"""A top-level def's own facts, from its lines alone: its parameters, what it returns, the
parameters it converts to the host or consumes as PRNG keys on every call. Read by the module's
summary (``summaries``) and by the in-file model for this module's own defs (``callees``)."""
import ast
import json

from ... import api
from ..keys import SPLIT, consumed_parameters, key_argument, returned_keys, seeded_sample
from ..parameters import applied_parameters
from ..syntax import LOOPS, SCOPES, child_fields, positional_names, walk_own
from .flows import followed_parameters
from .returns import conversions, returned_call, returned_dtype, returned_kind, summary_qualname, unchanged_dicts
from .targets import CONDITIONAL_STATEMENTS, NESTED_SCOPE_TYPES


def function_facts(func, imports):
    """Parameters (and those a transform applied to it would trace: traceable), line, what
    it returns ("jax" when it ends in a return and every return gives a jax.numpy array,
    else None; ``follows``: the parameters a tracer of which makes it a tracer,
    ``flows.followed_parameters``), the parameters it converts to the host in its unconditional statements
    (``_conversion``), so on every call, the dtypes of what it returns (``dtypes``: ``returned_dtype``,
    when every return says the same), and those it consumes as PRNG keys on every call
    (``keys``: {parameter: how}), with the ones it hands back (``returned_keys``, see
    ``model.keys``), and the top-level name that every return calls (``returns_call``: ``return
    helper(x)``, or ``y = helper(x); return y``), whose returns the module's summary follows. One pass;
    nested defs are not entered."""
    params = positional_names(func)
    rebound, found, keyed, returned, stores, local = set(), [], [], [], {}, {}
    ends_in_return = bool(func.body) and type(func.body[-1]) is ast.Return
    stack = [(stmt, type(stmt) not in CONDITIONAL_STATEMENTS) for stmt in func.body]
    while stack:
        node, unconditional = stack.pop()
        kind = type(node)
        if kind is ast.Name:
            if type(node.ctx) is not ast.Load:
                rebound.add(node.id)
                stores[node.id] = stores.get(node.id, 0) + 1
            continue
        if kind in NESTED_SCOPE_TYPES:
            rebound.add(getattr(node, "name", None))  # (a nested def or class: a name of the function's)
            continue
        if kind is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            local[node.targets[0].id] = node.value
        if kind is ast.Call:
            key = key_argument(node)
            if type(key) is ast.Name:
                keyed.append((node, key.id))
            if unconditional:
                found.extend((conversion, node.lineno) for conversion in conversions(node, imports))
        elif kind is ast.Return:
            returned.append(node.value)
        elif kind is ast.Yield or kind is ast.YieldFrom:
            ends_in_return = False
        inner = unconditional and kind not in CONDITIONAL_STATEMENTS
        for field in child_fields(kind):
            value = getattr(node, field, None)
            if type(value) is list:
                stack.extend([(child, inner) for child in value if child is not None])  # a dict's keys hold None
            elif isinstance(value, ast.AST):  # (not Constant.value or MatchSingleton.value)
                stack.append((value, inner))
    converts = [[params.index(name), code, what, line] for (name, code, what), line in found
                if name in params and name not in rebound]
    local = unchanged_dicts(func, {n: v for n, v in local.items() if stores[n] == 1 and n not in params})
    kind = _agreed([returned_kind(value, imports, local) for value in returned]) if ends_in_return else None
    kept = [name if name not in rebound else None for name in params]
    held = _agreed([returned_dtype(value, imports, local, kept) for value in returned]) \
        if ends_in_return and not func.decorator_list else None
    keys = _consumed_keys(func, params, keyed, imports)
    unknown = ends_in_return and kind is None and not func.decorator_list  # (a decorator may return anything)
    follows = followed_parameters(func, returned, imports) if unknown else []
    facts = {"params": params, "traceable": sorted(applied_parameters(func, None, ())), "line": func.lineno,
             "returns": kind, "follows": follows, "converts": sorted(converts), "keys": keys,
             "returned_keys": returned_keys(func, keys)}
    made = _agreed([returned_call(value, imports, rebound | set(params), local, kept) for value in returned]) \
        if ends_in_return and type(kind) is not str and not func.decorator_list else None
    if made is not None:  # the object a call gives: ``returned_objects`` resolves its class
        facts["made"] = made
    if unknown and type(made) is dict and made.get("class", (0,))[0] is None and len(made["class"][1]) == 1:
        facts["returns_call"] = made["class"][1][0]  # (``summarise`` follows it where it names a def)
    if held is not None:  # (``returned_dtype``'s; most functions have none, and the summaries stay small)
        facts["dtypes"] = held
    return facts


def _agreed(values):
    """The value all ``values`` agree on, as JSON keeps it (a list for a tuple), else None. A string or
    None, what most returns give, is compared as it is: JSON text would only copy it."""
    found = {(value, False) if value is None or type(value) is str else (json.dumps(value), True)
             for value in values}
    if len(found) != 1:
        return None
    (value, as_text), = found
    return json.loads(value) if as_text else value


def _consumed_keys(func, params, keyed, imports):
    """{parameter: how} for the parameters ``func`` consumes as keys on every call: ``keyed``
    holds its calls with a name as their key argument; those of ``jax.random`` consume it
    (a split only when its keys are read: returned, or drawn from or split again)."""
    own = set(params) | {a.arg for a in func.args.kwonlyargs}  # (consumed before being bound again)
    random_calls = _random_calls([(call, name) for call, name in keyed if name in own], imports)
    if not random_calls:
        return {}
    if any(how == "split" for _, how in random_calls.values()):  # is what the split gives read?
        random_calls.update(_random_calls([(call, name) for call, name in keyed if name not in own], imports))
    read = {name for name, _ in random_calls.values()}
    for stmt in walk_own(func.body, SCOPES):
        if type(stmt) is ast.Return and stmt.value is not None:
            returned = stmt.value.elts if type(stmt.value) is ast.Tuple else [stmt.value]
            read.update(n.id for n in returned if type(n) is ast.Name)

    def key_of(call):
        found = random_calls.get(call)
        if found is None or (found[1] == "split" and not _split_read(func, call, read)):
            return None
        return key_argument(call), found[1]
    return consumed_parameters(func, own, key_of)


def _random_calls(keyed, imports):
    """{call: (key name, "draw" or "split")} for the jax.random samplers and splits, and the
    distributions' seeded samplers, among ``keyed``'s (call, key name) pairs."""
    found = {}
    for call, name in keyed:
        qualname = summary_qualname(call.func, imports)
        if qualname == SPLIT or qualname in api.random_samplers() or seeded_sample(call) is not None:
            found[call] = (name, "split" if qualname == SPLIT else "draw")
    return found


def _split_read(func, call, read):
    """Whether the keys of the split ``call`` are read: it is returned, or assigned to a
    name in ``read`` (returned as it is, or the key of a jax.random call)."""
    for stmt in [*func.body, *(s for loop in func.body if isinstance(loop, LOOPS) for s in loop.body)]:
        if getattr(stmt, "value", None) is call:
            if type(stmt) is ast.Return:
                return True
            return type(stmt) is ast.Assign and any(
                type(n) is ast.Name and n.id in read for target in stmt.targets for n in ast.walk(target))
    return False
