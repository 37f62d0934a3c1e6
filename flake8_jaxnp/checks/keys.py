"""JNP601: a PRNG key consumed twice the same way (two draws, two splits) gives the same
random bits twice; JNP606: a draw and a split of one key share bits.

A forward pass per function tracks which local names hold a key that a
sampler, ``split`` or a same-file function that always consumes its parameter
has already consumed; only rebinding the name makes it fresh. A split none of
whose outputs is read, or whose outputs only reach callees the model cannot
see consuming them, consumes nothing it can assert. Branches
keep what both paths consumed, loops are followed into their second iteration
when nothing can leave them early, and anything the pass cannot follow (try,
match, nested functions) forgets what it knew. A key made again from the same seed on every
iteration of a loop is the loop form (``remade_keys``).
"""
import ast

from .. import api
from ..findings import Finding
from ..model.names import BindingKind
from ..model.keys import (SPLIT, consumed_parameters, every_call_consumers, key_argument, returned_keys,
                          seeded_sample, unbound_after)
from ..model.syntax import (COMPREHENSIONS, SCOPES, TRIES, argument_for, child_fields, positional, positional_names,
                            walk_own)
from . import describe, iterates_twice, repeats, rule
from .remade_keys import remade_key_findings

# What JNP601's second consumption gives, measured on JAX 0.10.2 (tests/benchmarks/key_streams.py):
# one sampler called the same way on one key returns the same numbers; two samplers on one key read
# the same bits (normal and uniform: r = 0.977, bernoulli(key, p) is uniform(key) < p); and
# split(key, n) is the first n subkeys of split(key, m) for m > n. A draw and a split of one key
# (JNP606) share bits only: its catalogue entry says what was measured.
SAME_NUMBERS = "; the same sampler called the same way on the same key gives the same numbers again"
SAME_BITS = "; both draw from the same random bits, so their numbers are not independent"
SAME_SUBKEYS = "; split() of the same key gives the same subkeys again (split(key, n) is the first n of split(key, m))"
# A split whose outputs only callees not known to consume a key read: it repeats the subkeys of a
# split before it (JNP601), but consumes nothing another use could repeat (the callee may draw nothing).
UNSEEN = "unseen split"
_VERBS = {"draw": "drawn from", "split": "split"}  # how JNP606 says the key was consumed before
_EXITS = (ast.Break, ast.Continue, ast.Return)
_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})


@rule("JNP601", "JNP606")
def prng_key_reuse(model):
    consumers = _Consumers(model).calls()  # call -> (key expression, how it consumes it)
    branches = _branch_calls(model, consumers) if consumers else {}
    scopes = {}  # scope -> nodes that hold one of its consumer calls (or lax.cond calls whose branches do)
    for call in (*consumers, *branches):
        scope = model.enclosing_function(call)
        scope = model.tree if scope is None else scope
        holders = scopes.setdefault(scope, set())
        node = call
        while node is not None and node is not scope and node not in holders:
            holders.add(node)
            node = model.parent(node)
    findings = {}  # a branch's consumption is seen by the branch's own pass and by its caller's
    for scope, holders in scopes.items():
        if not isinstance(scope, ast.Lambda):
            for finding in _KeyFlow(model, scope, consumers, holders, branches).run():
                if getattr(findings.get((finding.line, finding.col)), "code", None) != "JNP601":
                    findings[(finding.line, finding.col)] = finding
    for finding in remade_key_findings(model, consumers):
        findings.setdefault((finding.line, finding.col), finding)
    yield from findings.values()


def _branch_calls(model, consumers):
    """{lax.cond or lax.switch call: ([(branch function, the consumer calls it makes on every call)],
    its operands)} for the calls one of whose branches, a lambda or a def of the same scope, consumes a key."""
    found = {}
    for call in model.nodes(ast.Call):
        qualname = model.qualname(call.func)
        if qualname == "jax.lax.switch" and len(call.args) >= 2 and isinstance(call.args[1], (ast.List, ast.Tuple)):
            functions, operands = call.args[1].elts, call.args[2:]
        elif qualname == "jax.lax.cond" and len(call.args) >= 3:
            functions, operands = (call.args[1:3], call.args[3:]) if len(call.args) != 5 else \
                ((call.args[2], call.args[4]), None)  # the old cond(pred, t_operand, t_fun, f_operand, f_fun)
        else:
            continue
        scope = model.enclosing_function(call)
        branches = []
        for expr in functions:
            function = expr if isinstance(expr, ast.Lambda) else model.callee(expr)
            if function is None or model.enclosing_function(function) is not scope:
                break
            branches.append((function, every_call_consumers(function, consumers)))
        else:
            if operands is not None and any(calls for _, calls in branches):
                found[call] = (branches, operands)
    return found


class _Consumers:
    """The module's calls that consume a key, each with the expression of the key it consumes:
    samplers, splits whose outputs are used, and same-file functions that consume a parameter
    on every call. A key handed to any other callee is not a consumption the model can assert
    (a model called with ``enable_dropout=False`` never draws from it)."""

    def __init__(self, model):
        self.model = model
        self.samplers = api.random_samplers()
        self.consumed = {}  # call -> (the key expression it consumes, "draw" or "split"), or None
        self.consuming = {}  # def -> {parameter: how} it consumes on every call (None while computing)
        self.may_consume = set()  # the functions whose parameters a call of them may consume
        # The names that can reach another module's function (helper_facts): those a module-level import binds once.
        self.imports = {name for name, bindings in model.scope(model.tree).bindings.items()
                        if len(bindings) == 1 and bindings[0].kind is BindingKind.IMPORT} \
            if model.project is not None else set()

    def calls(self):
        """{call: (key expression, "draw" or "split", positions of its result that hand the key
        back)} for every call that consumes a key; none in a module without a sampler, a split
        or a call of another module's function that consumes a key, as a same-file function
        consumes only through one of those."""
        calls = self.model.nodes(ast.Call)
        qualname, consuming = self.model.qualname, self.samplers | {SPLIT}
        direct = [call for call in calls if qualname(call.func) in consuming
                  or seeded_sample(call) is not None or self._imported_consumer(call) is not None]
        if not direct:
            return {}
        self.may_consume = self._functions_reaching(direct, calls)
        # any other call consumes only by running a same-file function that may consume
        direct, callee, functions = set(direct), self.callee, self.may_consume - {None}
        return {call: self.consumed[call] for call in calls
                if (call in direct or callee(call.func) in functions) and self.key_of(call) is not None}

    def _functions_reaching(self, direct, calls):
        """The functions that hold one of the ``direct`` calls or call (through same-file calls)
        one that does: only their parameters can be consumed."""
        model = self.model
        callers = {}  # same-file function -> the functions whose calls name it
        for call in calls:
            callee = self.callee(call.func)
            if callee is not None:
                callers.setdefault(callee, []).append(model.enclosing_function(call))
        reaching = {model.enclosing_function(call) for call in direct}
        pending = list(reaching)
        while pending:
            for caller in callers.get(pending.pop(), ()):
                if caller not in reaching:
                    reaching.add(caller)
                    pending.append(caller)
        return reaching

    def callee(self, func):
        """The same-file def a call runs: the one its function expression names, or the own
        ``__init__`` of the class that a name bound once by a class statement refers to."""
        found = self.model.callee(func)
        if found is not None or type(func) is not ast.Name:
            return found
        binding = self.model.resolve(func)
        if not binding or len(binding[1]) != 1 or binding[1][0].kind is not BindingKind.CLASS:
            return None
        inits = [s for s in binding[1][0].node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"]
        return inits[0] if len(inits) == 1 else None

    def _imported_consumer(self, call):
        """The summary facts of a plain function of another project module that ``call`` runs
        and that consumes a key parameter, or None (inside a jitted one the runtime mode sees
        only tracers: it could not confirm the reuse)."""
        root = call.func
        while type(root) is ast.Attribute:
            root = root.value
        if type(root) is not ast.Name or root.id not in self.imports:
            return None  # (asked of every call: the cheap test first)
        if self.model.callee(call.func) is not None \
                or (self.model.qualname(call.func) or "").startswith(("jax.", "numpy.")) \
                or not any(type(a) is ast.Name for a in (*call.args, *(k.value for k in call.keywords))):
            return None
        found = self.model.helper_facts(call.func)
        if found is not None and found[1] is not None and found[0].get("keys") and not found[0]["jitted"]:
            return found[0]
        return None

    def key_of(self, call):
        """The expression of the key ``call`` consumes, or None (also while it is being found: a
        split whose outputs feed it again, as ``key, sub = split(key)`` in a loop does)."""
        if call not in self.consumed:
            self.consumed[call] = None
            self.consumed[call] = self._consumption(call)
        found = self.consumed[call]
        return found and found[0]

    def _consumption(self, call):
        """(key expression, how, the positions of the call's result that hand the consumed key
        back) for a sampler, a used split, or a project function that consumes a parameter."""
        qualname = self.model.qualname(call.func)
        if qualname in self.samplers or seeded_sample(call) is not None:
            return key_argument(call), "draw", ()
        if qualname == SPLIT:
            outputs = self._split_outputs(call)
            return None if outputs == "unread" else (key_argument(call), "split" if outputs == "read" else UNSEEN, ())
        callee = self.callee(call.func)
        if isinstance(callee, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if callee not in self.may_consume:
                return None
            names = positional_names(callee)
            if (isinstance(call.func, ast.Attribute) or callee.name == "__init__") and names \
                    and names[0] in ("self", "cls"):
                names = names[1:]
            posonly = {a.arg for a in callee.args.posonlyargs}
            consumed = self._consumed_parameters(callee)
            return _passed_key(call, names, consumed, returned_keys(callee, consumed), posonly)
        facts = self._imported_consumer(call)
        if facts is not None:
            return _passed_key(call, facts["params"], facts["keys"], facts["returned_keys"], ())
        return None

    def _consumed_parameters(self, func):
        """{parameter: how} for the parameters ``func`` consumes on every call (``consumed_parameters``)."""
        if func in self.consuming:
            return self.consuming[func] or {}
        self.consuming[func] = None  # a recursive helper consumes nothing known
        rebound = {name for name, bindings in self.model.scope(func).bindings.items()
                   if any(b.kind is not BindingKind.PARAM for b in bindings)}
        params = {a.arg for a in positional(func) + func.args.kwonlyargs} - rebound
        found = self.consuming[func] = consumed_parameters(func, params, self._consumed) if params else {}
        return found

    def _consumed(self, call):
        found = self.consumed[call][:2] if self.key_of(call) is not None else None
        return found if found is None or found[1] != UNSEEN else None

    def _split_outputs(self, call):
        """Who reads the split's outputs: "unread" (``split(key)`` as a statement, names nothing
        reads, ``_, _ = split(key)``, or names bound again before anything reads them), "unseen"
        (only callees not known to consume a key, such as a model whose dropout may be off, read
        them), or "read". A module's public names may be read by importers, so there only
        ``_``-prefixed ones count as unread."""
        model = self.model
        statement = model.parent(call)
        if isinstance(statement, ast.Expr):
            return "unread"
        if self._handed_to_unknown(call):
            return "unseen"
        if not isinstance(statement, ast.Assign) or statement.value is not call:
            return "read"
        targets = [n for target in statement.targets for n in ast.walk(target) if not isinstance(n, ast.expr_context)]
        if not all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Starred)) for n in targets):
            return "read"  # an attribute or item outlives the function
        scope = model.enclosing_function(call)
        scope = model.tree if scope is None else scope
        own = model.scope(scope)
        names = {n.id for n in targets if isinstance(n, ast.Name)}
        if names & (own.globals | own.nonlocals):
            return "read"
        if self._overwritten(statement, names, scope):
            return "unread"
        if scope is model.tree and any(not name.startswith("_") for name in names):
            return "read"  # importers may read them
        reads = [read for name in names for read in self._reads_within(scope, name)]
        return "read" if not all(self._handed_to_unknown(read) for read in reads) else "unseen" if reads else "unread"

    def _overwritten(self, statement, names, scope):
        """Whether each of ``names`` (what ``statement`` binds) is bound again by a plain
        assignment before anything reads it (``unbound_after``): later in the same block, or
        after an ``if`` or ``with`` that the block falls out of, or not read before the function
        ends. A read by a nested function or a ``try`` around the statement (a handler may read
        them) leaves the split used."""
        model = self.model
        if any(model.enclosing_function(read) is not (None if scope is model.tree else scope)
               for name in names for read in self._reads_within(scope, name)) \
                or any(isinstance(node, TRIES) for node in self._ancestors(statement, scope)):
            return False
        pending, node = set(names), statement
        while True:
            parent = model.parent(node)
            block = next(getattr(parent, field) for field in ("body", "orelse") if node in getattr(parent, field, ()))
            pending = unbound_after(block[block.index(node) + 1:], pending)
            if pending is not None and not pending:
                return True
            if pending is not None and parent is scope and scope is not model.tree:
                return True  # the function returns without reading them
            if pending is None or parent is scope or not isinstance(parent, (ast.If, ast.With, ast.AsyncWith)):
                return False
            node = parent

    def _ancestors(self, node, scope):
        """The nodes between ``node`` and ``scope``."""
        node = self.model.parent(node)
        while node is not None and node is not scope:
            yield node
            node = self.model.parent(node)

    def _reads_within(self, scope, name):
        """The reads of ``name`` anywhere inside ``scope``, nested functions included."""
        reads = self.model.reads(name)
        return reads if scope is self.model.tree else [read for read in reads if self._inside(read, scope)]

    def _inside(self, node, scope):
        while node is not None and node is not scope:
            node = self.model.parent(node)
        return node is scope

    def _handed_to_unknown(self, expr):
        """Whether ``expr`` is an argument of a call that is neither a ``jax.random`` function nor
        a same-file function consuming that argument."""
        call = self.model.parent(expr)
        if isinstance(call, ast.keyword):
            call = self.model.parent(call)
        if not isinstance(call, ast.Call) or expr is call.func:
            return False
        if (self.model.qualname(call.func) or "").startswith("jax.random."):
            return False
        return self.key_of(call) is not expr


def _passed_key(call, names, consumed, returned, posonly):
    """(argument, how, positions it is handed back at) for the first parameter of ``consumed``
    ({parameter: how}) that ``call`` passes plainly; ``returned``: [[position, parameter]]."""
    for param, how in consumed.items():
        argument = argument_for(call, names, param, param not in posonly)
        if argument is not None:
            return argument, how, tuple(position for position, name in returned if name == param)
    return None


def _stored_names(node):
    """Names a statement or expression binds, not counting nested functions' own bindings."""
    names = set()
    stack = [node]
    while stack:
        current = stack.pop()
        kind = type(current)
        if kind is ast.Name:
            if type(current.ctx) is not ast.Load:
                names.add(current.id)
        elif kind in _DEFINITIONS:
            names.add(current.name)
        elif kind is ast.Import or kind is ast.ImportFrom:
            names.update((a.asname or a.name).split(".")[0] for a in current.names)
        elif kind is not ast.Lambda and kind is not ast.Constant:
            for field in child_fields(kind):
                value = getattr(current, field, None)
                if type(value) is list:
                    stack.extend(child for child in value if child is not None)
                elif isinstance(value, ast.AST):
                    stack.append(value)
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

    def __init__(self, model, scope, consumers, holders, branches):
        self.model = model
        self.consumers = consumers
        self.branches = branches  # lax.cond/switch call -> (its branches and their consumer calls, its operands)
        self.holders = holders  # expressions and statements that contain a consumer call
        own_scope = model.scope(scope)
        self.outer = own_scope.globals | own_scope.nonlocals  # names other code can rebind
        self.body = scope.body
        self.findings = {}
        self.samplers = api.random_samplers()

    def run(self):
        self._block(self.body, {})
        return list(self.findings.values())

    # ---- statements -------------------------------------------------------------
    def _block(self, stmts, used):
        for stmt in stmts:
            used = self._stmt(stmt, used)
        return used

    def _stmt(self, stmt, used):
        """``used``: name -> (kind of consumption, the call) for keys consumed on every path
        (the latest consumption on the first path)."""
        if not used and stmt not in self.holders:
            return used  # nothing consumed yet, and nothing to consume in it
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
            return _joined([self._block(branch, dict(used)) for branch in branches])
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            return self._loop(stmt, used)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self._expression(item.context_expr, used)
                if item.optional_vars is not None:
                    used = _forget(used, _stored_names(item.optional_vars))
            return self._block(stmt.body, used)
        if isinstance(stmt, (*TRIES, ast.Match)):
            for block in _blocks(stmt):
                self._block(block, {})  # reuse inside each block still counts
            return _forget(used, _stored_names(stmt)) if used else used
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.expr) and not _is_target(stmt, child):
                self._expression(child, used)
        used = _forget(used, _stored_names(stmt)) if used else used
        return self._handed_back(stmt, used)

    def _handed_back(self, stmt, used):
        """``key, x = step(key)`` where ``step`` returns the key it consumed: ``key`` holds a
        consumed key."""
        value = getattr(stmt, "value", None)
        found = self.consumers.get(value) if type(stmt) is ast.Assign and len(stmt.targets) == 1 else None
        if not found or not found[2] or not isinstance(found[0], ast.Name):
            return used
        target = stmt.targets[0]
        names = {-1: target} if type(target) is ast.Name else dict(enumerate(target.elts)) \
            if type(target) in (ast.Tuple, ast.List) and not any(type(e) is ast.Starred for e in target.elts) else {}
        for position in found[2]:
            name = names.get(position)
            if type(name) is ast.Name and name.id not in self.outer:
                used = {**used, name.id: ((found[1], value, None),)}
        return used

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
            self._block(loop.body, {name: tuple((kind, call, loop) for kind, call, _ in consumptions)
                                    for name, consumptions in second.items()})
        if used:  # what the body rebinds no longer holds the key consumed before the loop
            used = _forget(used, _stored_names(ast.Module(body=loop.body, type_ignores=[])))
        return self._block(loop.orelse, _meet(used, after_first))

    # ---- expressions -------------------------------------------------------------
    def _expression(self, expr, used):
        if expr not in self.holders:
            return
        nodes = tuple(_own_nodes(expr))  # one walk for the calls and the comprehensions
        calls = sorted((n for n in nodes if n in self.consumers or n in self.branches),
                       key=lambda n: (n.end_lineno, n.end_col_offset))  # inner calls run first
        per_item = {}  # call -> the comprehension that runs it once per item
        for comprehension in (n for n in nodes if isinstance(n, COMPREHENSIONS)):
            once = set(map(id, _own_nodes(comprehension.generators[0].iter)))
            for node in _own_nodes(comprehension):
                if node in self.consumers and id(node) not in once:
                    per_item[node] = comprehension  # inner comprehensions come later and win
        for call in calls:
            if call in self.branches:
                joined = self._branches(*self.branches[call], used)
                used.clear()
                used.update(joined)
                continue
            key, kind, _ = self.consumers[call]
            if not isinstance(key, ast.Name) or key.id in self.outer:
                continue
            if call in per_item:  # it may run for no item: what it consumes is not kept
                if self._per_item(per_item[call], call, key, kind) and used.get(key.id):
                    self._report(key, used[key.id], kind, call)
                continue
            self._consume(used, key.id, key, kind, call)

    def _consume(self, used, name, key, kind, call):
        """``call`` consumes ``key`` (held by ``name``): reported against what ``used`` says
        ``name`` held consumed, and kept there when of a new kind."""
        previous = used.get(name, ())
        if previous:
            self._report(key, previous, kind, call)
        if all(kind != earlier for earlier, *_ in previous):
            used[name] = (*previous, (kind, call, None))

    def _branches(self, branches, operands, used):
        """What a lax.cond or lax.switch consumes: each branch, as a branch of an ``if``, from what
        was consumed before the call; a branch's parameter stands for the operand passed there.
        Returns what every branch left consumed."""
        after = []
        for function, calls in branches:
            params = [a.arg for a in positional(function)]
            state = dict(used)
            for call in calls:
                key, kind, _ = self.consumers[call]
                if not isinstance(key, ast.Name):
                    continue
                name = key.id
                if name in params:
                    position = params.index(name)
                    operand = operands[position] if position < len(operands) else None
                    if type(operand) is not ast.Name:
                        continue
                    name = operand.id
                elif name in self.model.scope(function).bindings:
                    continue  # the branch's own local
                if name not in self.outer:
                    self._consume(state, name, key, kind, call)
            after.append(state)
        return _joined(after)

    def _per_item(self, comprehension, call, key, kind):
        """A key consumed inside a comprehension that does not bind it is consumed once per item;
        whether it is the function's own key (no comprehension around the call binds it)."""
        bound = set()
        for generator in comprehension.generators:
            bound |= _stored_names(generator.target)
        bound |= {n.target.id for n in _own_nodes(comprehension) if isinstance(n, ast.NamedExpr)}
        first = comprehension.generators[0]
        if key.id not in bound and len(comprehension.generators) == 1 and not first.ifs \
                and iterates_twice(first.iter):
            self._report(key, ((kind, call, comprehension),), kind, call)
        outer = self.model.parent(comprehension)
        while isinstance(outer, (ast.expr, ast.comprehension)) and key.id not in bound:
            if isinstance(outer, COMPREHENSIONS):
                bound |= {name for generator in outer.generators for name in _stored_names(generator.target)}
            outer = self.model.parent(outer)
        return key.id not in bound

    def _report(self, key, previous, kind, call):
        """JNP601 when ``previous`` (the key's consumptions: (kind, call, the loop or comprehension
        that repeats it, or None)) holds one of the same kind as ``call``'s, else JNP606 (a draw
        and a split of one key)."""
        same = next((entry for entry in previous if entry[0] == kind and kind != UNSEEN
                     or {entry[0], kind} == {"split", UNSEEN}), None)
        other = same or next((entry for entry in previous if UNSEEN not in (entry[0], kind)), None)
        if other is None:
            return  # an unseen split and a draw, or two unseen splits: nothing shows the keys were drawn from
        _, earlier, loop = other
        if loop is not None:
            how = f"is consumed again on every iteration of the loop on line {loop.lineno} without a new split"
        else:
            how = f"was already {_VERBS.get(other[0], 'consumed') if same is None else 'consumed'} by " \
                  f"{describe(earlier.func)}() on line {earlier.lineno}"
        if same is None:
            code = "JNP606"
        else:
            code = "JNP601"
            how += SAME_SUBKEYS if kind != "draw" else SAME_NUMBERS if self._same_draw(earlier, call) else SAME_BITS
        place = (key.lineno, key.col_offset)
        if self.findings.get(place, Finding(0, 0, "JNP606")).code == "JNP606":
            self.findings[place] = Finding.at(key, code, {"name": key.id, "how": how})

    def _same_draw(self, first, second):
        """Whether two draws are one ``jax.random`` sampler called the same way (the same call
        repeated, or two with the same source text)."""
        return self.model.qualname(first.func) in self.samplers and (
            first is second or ast.dump(first) == ast.dump(second))


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


def _joined(after):
    """What every path consumed: ``after`` holds each path's state."""
    joined = {name: _join([state] + [other[name] for other in after[1:]]) for name, state in after[0].items()
              if all(name in other for other in after[1:])}
    return {name: state for name, state in joined.items() if state}


def _join(states):
    """The consumptions of a key that every path made, by kind; a key that every path consumed, but
    not in one same way, is consumed in an unknown way (a later use shares bits with it, at least)."""
    first, *others = states
    kept = tuple(entry for entry in first if all(any(kind == entry[0] for kind, *_ in other) for other in others))
    if kept or any(all(kind == UNSEEN for kind, *_ in state) for state in states):
        return kept
    return (("unknown", *first[0][1:]),)


def _meet(a, b):
    """What both paths consumed."""
    return {name: state for name, state in a.items() if name in b}
