"""JNP601: a PRNG key consumed twice gives the same random bits twice.

A forward pass per function tracks which local names hold a key that a
sampler (or ``split``) has already consumed; only rebinding the name makes it
fresh, and a split none of whose outputs is read consumes nothing. Branches
keep what both paths consumed, loops are followed into their second iteration
when nothing can leave them early, and anything the pass cannot follow (try,
match, nested functions) forgets what it knew.
"""
import ast

from .. import api
from ..findings import Finding
from ..model.syntax import COMPREHENSIONS, SCOPES, walk_own
from . import describe, iterates_twice, repeats, rule

SPLIT = "jax.random.split"
_EXITS = (ast.Break, ast.Continue, ast.Return)


@rule("JNP601")
def prng_key_reuse(model):
    consumers = _consumer_calls(model)
    scopes = {}  # scope -> nodes that hold one of its consumer calls
    for call in consumers:
        scope = model.enclosing_function(call)
        scope = model.tree if scope is None else scope
        holders = scopes.setdefault(scope, set())
        node = call
        while node is not None and node is not scope and node not in holders:
            holders.add(node)
            node = model.parent(node)
    for scope, holders in scopes.items():
        if not isinstance(scope, ast.Lambda):
            yield from _KeyFlow(model, scope, consumers, holders).run()


def _consumer_calls(model):
    """{call: 'sample' | 'split'} for the module's calls that consume a key."""
    samplers = api.random_samplers()
    found = {}
    read = {}  # scope -> the names read anywhere inside it
    for call in model.nodes(ast.Call):
        qualname = model.qualname(call.func)
        if qualname in samplers:
            found[call] = "sample"
        elif qualname == SPLIT and not _split_unused(model, call, read):
            found[call] = "split"
    return found


def _split_unused(model, call, read):
    """Whether none of the split's outputs is used: ``split(key)`` as a statement, or assigned only
    to names that nothing in the function reads (``_, _ = split(key)``). Such a split draws bits
    nobody sees, so the key's next use repeats nothing. A module's public names may be read
    by importers, so there only ``_``-prefixed ones count as unread."""
    statement = model.parent(call)
    if isinstance(statement, ast.Expr):
        return True
    if not isinstance(statement, ast.Assign) or statement.value is not call:
        return False
    targets = [n for target in statement.targets for n in ast.walk(target) if not isinstance(n, ast.expr_context)]
    if not all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Starred)) for n in targets):
        return False  # an attribute or item outlives the function
    scope = model.enclosing_function(call)
    scope = model.tree if scope is None else scope
    if scope not in read:
        read[scope] = {n.id for n in ast.walk(scope) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    own = model.scope(scope)
    names = {n.id for n in targets if isinstance(n, ast.Name)}
    exported = set() if scope is not model.tree else {name for name in names if not name.startswith("_")}
    return not names & (read[scope] | own.globals | own.nonlocals | exported)


def _key_argument(call):
    if call.args and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == "key"), None)


def _stored_names(node):
    """Names a statement or expression binds, not counting nested functions' own bindings."""
    names = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Name) and not isinstance(current.ctx, ast.Load):
            names.add(current.id)
        elif isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(current.name)
            continue
        elif isinstance(current, ast.Lambda):
            continue
        elif isinstance(current, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in current.names)
        stack.extend(ast.iter_child_nodes(current))
    return names


def _own_nodes(node):
    """``node`` and its descendants, not entering nested functions or classes."""
    yield node
    yield from walk_own(ast.iter_child_nodes(node), SCOPES)


def _repeats(loop):
    """True when the loop certainly reaches a second iteration once its body ran without leaving."""
    return repeats(loop) and not any(
        isinstance(n, _EXITS) for n in _own_nodes(loop) if n is not loop and n not in loop.orelse)


class _KeyFlow:
    """The forward pass over one function (or the module) body."""

    def __init__(self, model, scope, consumers, holders):
        self.model = model
        self.consumers = consumers
        self.holders = holders  # expressions and statements that contain a consumer call
        own_scope = model.scope(scope)
        self.outer = own_scope.globals | own_scope.nonlocals  # names other code can rebind
        self.body = scope.body
        self.findings = {}

    def run(self):
        self._block(self.body, {})
        return list(self.findings.values())

    # ---- statements -------------------------------------------------------------
    def _block(self, stmts, used):
        for stmt in stmts:
            used = self._stmt(stmt, used)
        return used

    def _stmt(self, stmt, used):
        """``used``: name -> (kind of consumption, the call) for keys consumed on every path."""
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in stmt.decorator_list:
                self._expression(decorator, used)
            return _forget(used, {stmt.name})
        if isinstance(stmt, ast.If):
            branches = []
            while True:  # an elif chain as one list: it may be thousands of arms long
                self._expression(stmt.test, used)
                branches.append(stmt.body)
                if len(stmt.orelse) != 1 or not isinstance(stmt.orelse[0], ast.If):
                    branches.append(stmt.orelse)
                    break
                stmt = stmt.orelse[0]
            after = [self._block(branch, dict(used)) for branch in branches]
            return {name: state for name, state in after[0].items()
                    if all(name in other and other[name][0] == state[0] for other in after[1:])}
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            return self._loop(stmt, used)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self._expression(item.context_expr, used)
                if item.optional_vars is not None:
                    used = _forget(used, _stored_names(item.optional_vars))
            return self._block(stmt.body, used)
        if isinstance(stmt, (ast.Try, getattr(ast, "TryStar", ast.Try), ast.Match)):
            for block in _blocks(stmt):
                self._block(block, {})  # reuse inside each block still counts
            return _forget(used, _stored_names(stmt))
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.expr) and not _is_target(stmt, child):
                self._expression(child, used)
        return _forget(used, _stored_names(stmt)) if used else used

    def _loop(self, loop, used):
        if isinstance(loop, ast.While):
            self._expression(loop.test, used)
            head = dict(used)
        else:
            self._expression(loop.iter, used)
            head = _forget(used, _stored_names(loop.target))
        after_first = self._block(loop.body, dict(head))
        if _repeats(loop):
            second = after_first if isinstance(loop, ast.While) else _forget(after_first, _stored_names(loop.target))
            self._block(loop.body, {name: (kind, call, loop) for name, (kind, call, *_) in second.items()})
        stored = _stored_names(ast.Module(body=loop.body, type_ignores=[]))
        return self._block(loop.orelse, _meet(_forget(used, stored), after_first))

    # ---- expressions -------------------------------------------------------------
    def _expression(self, expr, used):
        if expr not in self.holders:
            return
        calls = sorted((n for n in _own_nodes(expr) if n in self.consumers),
                       key=lambda n: (n.end_lineno, n.end_col_offset))  # inner calls run first
        per_item = {}  # call -> the comprehension that runs it once per item
        for comprehension in (n for n in _own_nodes(expr) if isinstance(n, COMPREHENSIONS)):
            once = set(map(id, _own_nodes(comprehension.generators[0].iter)))
            for node in _own_nodes(comprehension):
                if node in self.consumers and id(node) not in once:
                    per_item[node] = comprehension  # inner comprehensions come later and win
        for call in calls:
            key = _key_argument(call)
            if not isinstance(key, ast.Name) or key.id in self.outer:
                continue
            if call in per_item:
                self._per_item(per_item[call], call, key)
                continue
            kind = self.consumers[call]
            previous = used.get(key.id)
            if previous is not None and previous[0] == kind:
                self._report(key, previous)
            else:
                used[key.id] = (kind, call)

    def _per_item(self, comprehension, call, key):
        """A key consumed inside a comprehension that does not bind it is consumed once per item."""
        bound = set()
        for generator in comprehension.generators:
            bound |= _stored_names(generator.target)
        bound |= {n.target.id for n in _own_nodes(comprehension) if isinstance(n, ast.NamedExpr)}
        first = comprehension.generators[0]
        if key.id not in bound and len(comprehension.generators) == 1 and not first.ifs \
                and iterates_twice(first.iter):
            self._report(key, (self.consumers[call], call, comprehension))

    def _report(self, key, previous):
        _, call, loop = (*previous, None)[:3]
        if loop is not None:
            how = f"is consumed again on every iteration of the loop on line {loop.lineno} without a new split"
        else:
            how = f"was already consumed by {describe(call.func)}() on line {call.lineno}"
        self.findings.setdefault((key.lineno, key.col_offset), Finding.at(key, "JNP601", {"name": key.id, "how": how}))


def _blocks(stmt):
    if isinstance(stmt, ast.Match):
        return [case.body for case in stmt.cases]
    return [stmt.body, stmt.orelse, stmt.finalbody] + [handler.body for handler in stmt.handlers]


def _is_target(stmt, child):
    return isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and (
        child in getattr(stmt, "targets", ()) or child is getattr(stmt, "target", None)) \
        and isinstance(child, (ast.Name, ast.Tuple, ast.List))


def _forget(used, names):
    return {name: state for name, state in used.items() if name not in names}


def _meet(a, b):
    """What both paths consumed, the same way."""
    return {name: state for name, state in a.items() if name in b and b[name][0] == state[0]}
