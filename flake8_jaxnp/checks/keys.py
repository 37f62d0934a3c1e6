"""JNP601: a PRNG key consumed twice the same way (two draws, two splits) gives the same
random bits twice; JNP606: a draw and a split of one key share bits.

A forward pass per function tracks which local names hold a key that a
sampler, ``split`` or a same-file function that always consumes its parameter
has already consumed; only rebinding the name makes it fresh. A split none of
whose outputs is read, or whose outputs only reach callees the model cannot
see consuming them, consumes nothing it can assert. Branches
keep what both paths consumed, loops are followed into their second iteration
when nothing can leave them early (a comprehension's element is a loop's body for the keys its
items bind), and anything the pass cannot follow (try,
match, nested functions it does not see run) forgets what it knew. A call that runs a lambda or a
def of the same scope consumes what it consumes: a ``lax.cond`` one of its branches, a tree map its
function once per leaf (a key the function closes over is consumed per leaf), any other call (``f(x)``,
``jax.grad(f)(x)``) the keys ``f`` closes over. A key made again from the same seed on every
iteration of a loop, or on every call of a def that runs many times, is the loop form (``remade_keys``);
a method that consumes a key field its class rotates, storing nothing back, consumes it again on its next call.
"""
import ast

from .. import api
from ..facts import TREE_MAPS
from ..findings import Finding
from ..model.names import BindingKind
from ..model.keys import carried_parameters, deferred, every_call_consumers, key_name, reads_besides_key, rotation
from ..model.syntax import (COMPREHENSIONS, SCOPES, TRIES, bound_names, parameters, positional, positional_names,
                            walk_own)
from . import describe, iterates_twice, repeats, rule
from .key_consumers import UNSEEN, VMAP, Consumers, conditional
from .key_states import base_name, both_paths, every_path, forget, held_key, items_stored
from .remade_keys import remade_key_findings

# What JNP601's second consumption gives, measured on JAX 0.10.2 (tests/benchmarks/key_streams.py):
# one sampler called the same way on one key returns the same numbers; two samplers on one key read
# the same bits (normal and uniform: r = 0.977, bernoulli(key, p) is uniform(key) < p); split() called
# the same way gives the same subkeys; and split(key, n) is the first n subkeys of split(key, m) for
# m > n only with jax_threefry_partitionable on (with it off, measured too, no prefix is kept). A draw
# and a split of one key (JNP606) share bits only: its catalogue entry says what was measured.
SAME_NUMBERS = "; the same sampler called the same way on the same key gives the same numbers again"
SAME_BITS = "; both draw from the same random bits, so their numbers are not independent"
SAME_SUBKEYS = "; split() of the same key gives the same subkeys again"
FIRST_SUBKEYS = "; split() of the same key gives the same first subkeys again (with jax_threefry_partitionable " \
    "on, the default since JAX 0.5, split(key, n) is the first n of split(key, m))"
_VERBS = {"draw": "drawn from", "split": "split"}  # how JNP606 says the key was consumed before
_EXITS = (ast.Break, ast.Continue, ast.Return)


@rule("JNP601", "JNP606")
def prng_key_reuse(model):
    finder = Consumers(model)
    consumers = finder.calls()  # call -> (key expression, how it consumes it)
    branches = _branch_calls(model, consumers, finder) if consumers else {}
    broadcasts = {call: vmap for call in consumers for vmap in [finder.broadcast_by(call)] if vmap is not None}
    scopes = {}  # scope -> nodes that hold one of its consumer calls (or calls that run a function that does)
    for call in (*consumers, *branches):
        scope = model.enclosing_function(call)
        scope = model.tree if scope is None else scope
        holders = scopes.setdefault(scope, set())
        node = call
        while node is not None and node is not scope and node not in holders:
            holders.add(node)
            node = model.parent(node)
    findings = {}  # a branch's consumption is seen by the branch's own pass and by its caller's
    carried = _carried(model, finder) if consumers else {}
    for scope, holders in scopes.items():
        if not isinstance(scope, ast.Lambda):
            flow = _KeyFlow(model, scope, consumers, holders, branches, broadcasts, finder, carried.get(scope, ()))
            for finding in flow.run():
                if getattr(findings.get((finding.line, finding.col)), "code", None) != "JNP601":
                    findings[(finding.line, finding.col)] = finding
    for finding in (*remade_key_findings(model, consumers), *_unreplaced_fields(model, consumers, finder)):
        findings.setdefault((finding.line, finding.col), finding)
    yield from findings.values()


def _carried(model, finder):
    """{def: [(the position of the part of its result a jax.lax loop hands back to it on the next step,
    the parameter that part reaches, the loop's call)]} (``carried_parameters``: ``scan(step, ...)``
    runs ``step`` again on the carry it returned)."""
    found, loops = {}, api.lax_body_carries()
    for call in model.nodes(ast.Call):
        qualname = model.qualname(call.func)
        for func, parts in carried_parameters(call, qualname, finder.callee) if qualname in loops else ():
            found.setdefault(func, []).extend((at, name, call) for at, name in parts.items())
    return found


def _branch_calls(model, consumers, finder):
    """{lax.cond, lax.switch, tree map or other call: ([(function, the consumer calls it makes on
    every call)], its operands, the call that repeats the function per leaf or element, or None)}
    for the calls that run a function, a lambda or a def of the same scope, that consumes a key: one
    of a cond's branches, a tree map's function once per leaf, or the function a call runs
    (``loss(p)``, ``jax.grad(loss)(p)``: ``finder.runs``) once, with no operand: its parameters are the
    call's to consume, the keys it closes over are read here; under ``jax.vmap`` once per element
    of the batch, which all get the keys it closes over. Only the functions of a call one of which
    holds a consumer call are walked (whether they yield, what they consume on every call)."""
    found, holding = {}, {model.enclosing_function(call) for call in consumers}
    for call in model.nodes(ast.Call):
        qualname, (run, _, given) = model.qualname(call.func), finder.runs(call)
        repeater = None
        if qualname == "jax.lax.switch" and len(call.args) >= 2 and isinstance(call.args[1], (ast.List, ast.Tuple)):
            functions, operands = call.args[1].elts, call.args[2:]
        elif qualname == "jax.lax.cond" and len(call.args) == 5:
            continue  # the old cond(pred, t_operand, t_fun, f_operand, f_fun)
        elif qualname == "jax.lax.cond" and len(call.args) >= 3:
            functions, operands = call.args[1:3], call.args[3:]
        elif qualname in TREE_MAPS and len(call.args) >= 2:
            functions, operands, repeater = call.args[:1], None, call
        elif type(run) in (ast.Name, ast.Lambda) and given is not None:
            functions, operands, repeater = [run], (), next(iter(finder.batching(call)), None)
        else:
            continue
        scope = model.enclosing_function(call)
        functions = [expr if isinstance(expr, ast.Lambda) else model.callee(expr) for expr in functions]
        if None in functions or any(model.enclosing_function(function) is not scope for function in functions) \
                or holding.isdisjoint(functions) or any(deferred(function) for function in functions):
            continue  # (another scope's, none holding a consumer call, or a generator: nothing to follow)
        branches = [(function, every_call_consumers(function, consumers.__contains__)) for function in functions]
        if any(calls for _, calls in branches) and (operands is not None or _many_leaves(model, call.args[1:])):
            found[call] = (branches, operands, repeater)
    return found


def _unreplaced_fields(model, consumers, finder):
    """JNP601 where a method consumes, on every call, a field of its object that its class rotates
    (``Consumers.rotated_field``: a key stream's ``next()`` splits ``self.key`` and stores a fresh
    one there) but stores nothing back (``fork()`` returning ``split(self.key, n)``): a second call,
    or the rotation after it, consumes the same key again. A method that reads ``self`` for anything but
    a field (``self.explore()``, ``helper(self)``) may rotate the field itself, and is left out."""
    for call, (key, kind, _) in consumers.items():
        if kind == UNSEEN or conditional(kind) or key_name(key) is None or "." not in key_name(key):
            continue
        method = model.enclosing_function(call)
        cls = model.parent(method) if method is not None else None
        if type(cls) is not ast.ClassDef or method.name == "__init__" or rotation(method, model.qualname) is not None \
                or call not in every_call_consumers(method, consumers.__contains__) \
                or not _reads_only_fields(model, method):
            continue
        rotator = next((m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and getattr(finder.rotated_field(m), "attr", None) == key.attr), None)
        if rotator is not None:
            how = f"is consumed on every call of {method.name}() and never replaced, while {rotator.name}() on line " \
                  f"{rotator.lineno} splits it and stores a fresh one: a second call, or {rotator.name}() after it, " \
                  f"consumes the same key again"
            yield Finding.at(key, "JNP601", {"name": ast.unparse(key),
                                             "how": how + (FIRST_SUBKEYS if kind == "split" else SAME_NUMBERS)})


def _reads_only_fields(model, method):
    """Whether ``method`` reads ``self`` only for fields it does not call (``self.key``)."""
    for node in walk_own(method.body, ()):
        if type(node) is ast.Name and node.id == "self":
            field = model.parent(node)
            runner = model.parent(field)
            if type(field) is not ast.Attribute or type(runner) is ast.Call and runner.func is field:
                return False
    return True


def _many_leaves(model, trees):
    """False for trees that hold fewer than two leaves: written out so (``[x]``), or one array."""
    return all(iterates_twice(tree) and not model.value(tree).is_array for tree in trees)


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

    def __init__(self, model, scope, consumers, holders, branches, broadcasts, finder, carried=()):
        self.model = model
        self.carried = carried  # (result position, the parameter it reaches, the lax loop) (``_carried``)
        # its ``fields``: consumer call -> the field of its object its method consumes, reported there
        self.finder = finder
        self.fields = finder.fields
        self.plain = None  # the names of the scope read only for their attributes (``_holder``), once asked
        self.consumers = consumers
        self.branches = branches  # lax.cond/switch call -> (its branches and their consumer calls, its operands, ...)
        self.broadcasts = broadcasts  # consumer call -> the jax.vmap that gives its key to every element
        self.holders = holders  # expressions and statements that contain a consumer call
        own_scope = self.scope_names = model.scope(scope)
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
            return forget(used, {stmt.name})
        if isinstance(stmt, ast.If):
            branches = []
            while True:  # an elif chain as one list: it may be thousands of arms long
                self._expression(stmt.test, used)
                branches.append(stmt.body)
                if len(stmt.orelse) != 1 or not isinstance(stmt.orelse[0], ast.If):
                    branches.append(stmt.orelse)
                    break
                stmt = stmt.orelse[0]
            return every_path([self._block(branch, dict(used)) for branch in branches])
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            return self._loop(stmt, used)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self._expression(item.context_expr, used)
                if item.optional_vars is not None:
                    used = forget(used, bound_names(item.optional_vars))
            return self._block(stmt.body, used)
        if isinstance(stmt, (*TRIES, ast.Match)):
            for block in _blocks(stmt):
                self._block(block, {})  # reuse inside each block still counts
            return forget(used, bound_names(stmt) | {name for name in used if "." in name}) if used else used
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.expr) and not _is_target(stmt, child):
                self._expression(child, used)
        used = forget(used, bound_names(stmt) | items_stored(stmt)) if used else used
        if type(stmt) is ast.Return and stmt.value is not None:
            self._carries_back(stmt.value, used)
        return self._handed_back(stmt, used)

    def _carries_back(self, value, used):
        """``return key, y`` in a jax.lax loop's body whose next step gets that part of the result back
        in a parameter it consumes on every run: a key this step consumed is consumed again there."""
        for at, parameter, loop in self.carried:
            part = value if at == -1 else value.elts[at] if type(value) is ast.Tuple and at < len(value.elts) else None
            name = held_key(part) if part is not None else None
            kind = self.finder.parameters_consumed(self.scope_names.function).get(parameter) \
                if used.get(name) and base_name(name) not in self.outer else None
            if kind is not None:
                self._report(part, tuple((how, call, loop) for how, call, _ in used[name]), kind, loop)

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
            head = forget(used, bound_names(loop.target))
        after_first = self._block(loop.body, dict(head))
        if _repeats(loop):
            self._again(loop, loop.body, after_first)
            for body, arm in _fixed_arms(loop, self._steady_parameters(loop)):
                self._in_arm(loop, body, arm, head)
        if used:  # what the body rebinds no longer holds the key consumed before the loop
            used = forget(used, bound_names(*loop.body))
        return self._block(loop.orelse, both_paths(used, after_first))

    def _steady_parameters(self, loop):
        """The scope's parameters that nothing in ``loop`` can change: read in it only by the tests of its
        body's ``if`` statements, so neither bound, mutated (``pending.clear()``) nor handed to a call, and
        no global or nonlocal name (which a function the loop calls may rebind)."""
        func = self.scope_names.function
        if not self.scope_names.is_function or isinstance(func, ast.Lambda):
            return set()
        tests = {id(node) for stmt in loop.body if type(stmt) is ast.If for node in ast.walk(stmt.test)}
        elsewhere = {node.id for node in ast.walk(loop) if type(node) is ast.Name and id(node) not in tests}
        return {arg.arg for arg in parameters(func)} - self.outer - elsewhere

    def _again(self, loop, body, after):
        """The loop's ``body`` run again with the consumptions ``after`` its previous iteration."""
        second = after if isinstance(loop, ast.While) else forget(after, bound_names(loop.target))
        self._block(body, {name: tuple((kind, call, loop) for kind, call, _ in consumptions)
                           for name, consumptions in second.items()})

    def _in_arm(self, loop, body, arm, head):
        """The loop with one arm of an ``if`` whose test the loop cannot change in place of the ``if``:
        once an iteration takes the arm, every iteration does, so what it consumes is consumed again on
        the next. Only what is found in the arm is kept (code after it also runs when it is not taken)."""
        kept = dict(self.findings)
        after_first = self._block(body, dict(head))
        self.findings = dict(kept)
        self._again(loop, body, after_first)
        lines = range(arm[0].lineno, arm[-1].end_lineno + 1)
        self.findings = {**kept, **{place: finding for place, finding in self.findings.items()
                                    if place not in kept and place[0] in lines}}

    # ---- expressions -------------------------------------------------------------
    def _expression(self, expr, used):
        self._forget_fields(expr, used)
        if expr not in self.holders:
            return
        nodes = tuple(_own_nodes(expr))  # one walk for the calls and the comprehensions
        calls = sorted((n for n in nodes if n in self.consumers or n in self.branches),
                       key=lambda n: (n.end_lineno, n.end_col_offset))  # inner calls run first
        per_item = {}  # call -> the comprehension that runs it once per item
        elements = {}  # comprehension -> what one run of its element consumed of the keys it binds
        for comprehension in (n for n in nodes if isinstance(n, COMPREHENSIONS)):
            once = set(map(id, _own_nodes(comprehension.generators[0].iter)))
            for node in _own_nodes(comprehension):
                if node in self.consumers and id(node) not in once:
                    per_item[node] = comprehension  # inner comprehensions come later and win
        for call in calls:
            if call in self.branches:
                branches, operands, repeater = self.branches[call]
                if repeater is not None:
                    self._per_leaf(repeater, *branches[0], used)
                if operands is not None:  # not a tree map, which may see no leaf
                    joined = self._branches(branches, operands, used, call)
                    used.clear()
                    used.update(joined)
                if call not in self.consumers:
                    continue
            key, kind, _ = self.consumers[call]
            name = self._holder(key)
            if name is None or base_name(name) in self.outer:
                continue
            if call in per_item:  # it may run for no item: what it consumes is not kept
                comprehension = per_item[call]
                if self._per_item(comprehension, call, key, kind):
                    if used.get(name):
                        self._report(key, used[name], kind, call)
                elif self._every_item(comprehension, call, base_name(name)):  # the element is a loop's body
                    self._consume(elements.setdefault(comprehension, {}), name, key, kind, call)
                continue
            self._consume(used, name, key, kind, call)
            if call in self.finder.rotations:
                used.pop(name)  # the method stored a fresh key in the field
            if call in self.broadcasts:
                self._report(key, ((kind, call, self.broadcasts[call]),), kind, call)
        self._forget_fields(expr, used)

    def _holder(self, key):
        """The name that holds ``key`` (``held_key``), or ``obj.key`` for a field that only rotations
        store (``Consumers.rotations``) of a name read only for its attributes (not handed anywhere,
        so only calls made on it can store the field)."""
        name = held_key(key)
        if name is not None or type(key) is not ast.Attribute or type(key.value) is not ast.Name \
                or key.attr not in self.finder.rotated:
            return name
        if self.plain is None:
            loads = [n for n in ast.walk(ast.Module(self.body, [])) if type(n) is ast.Name and type(n.ctx) is ast.Load]
            attributes = {id(n.value) for n in ast.walk(ast.Module(self.body, [])) if type(n) is ast.Attribute}
            self.plain = {n.id for n in loads} - {n.id for n in loads if id(n) not in attributes}
        return f"{key.value.id}.{key.attr}" if key.value.id in self.plain else None

    def _forget_fields(self, expr, used):
        """Forget the fields held (``obj.key``) that a call of ``expr`` may store: a method called on
        the object but a rotation, and unless the object is the scope's own (``_owned``), any call
        but a ``jax``/``numpy`` function given no function of the module or a consumer running a def
        that calls no function of the module."""
        held = [name for name in used if "." in name]
        for call in (n for n in _own_nodes(expr) if type(n) is ast.Call) if held else ():
            if call in self.finder.rotations:
                continue
            on = call.func.value.id if type(call.func) is ast.Attribute and type(call.func.value) is ast.Name else None
            kept = self._stores_nothing(call)
            for name in held:
                if name in used and (base_name(name) == on or not kept and not self._owned(base_name(name))):
                    del used[name]

    def _owned(self, name):
        """Whether every binding of ``name`` in the scope builds an object of a class of the module
        (``C(...)``): with its reads only for attributes (``_holder``), no other code reaches it."""
        bindings = self.scope_names.bindings.get(name, ())
        return bool(bindings) and all(
            b.kind is BindingKind.ASSIGN and type(b.value) is ast.Call and type(b.value.func) is ast.Name
            and self.model.one_binding(b.value.func, BindingKind.CLASS) is not None for b in bindings)

    def _stores_nothing(self, call):
        qualname, callee = self.model.qualname(call.func) or "", self.finder.callee
        if qualname.startswith(("jax.", "numpy.")):
            given = (*call.args, *(k.value for k in call.keywords))
            return not any(type(a) is ast.Lambda or callee(a) is not None for a in given)
        function = self.finder.function_run(call) if call in self.consumers else None
        return isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and not any(
            type(n) is ast.Call and callee(n.func) is not None
            or type(n) is ast.Attribute and type(n.ctx) is not ast.Load for n in ast.walk(function))

    def _consume(self, used, name, key, kind, call):
        """``call`` consumes ``key`` (held by ``name``): reported against what ``used`` says
        ``name`` held consumed, and kept there when of a new kind."""
        previous = used.get(name, ())
        if previous:
            self._report(key, previous, kind, call)
        if all(kind != earlier for earlier, *_ in previous):
            used[name] = (*previous, (kind, call, None))

    def _branches(self, branches, operands, used, runner):
        """What a lax.cond or lax.switch consumes: each branch, as a branch of an ``if``, from what
        was consumed before the call; a branch's parameter stands for the operand passed there.
        Returns what every branch left consumed. What the one function a call runs consumes is
        that call's consumption (``runner``)."""
        after = []
        for function, calls in branches:
            params = positional_names(function)
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
                    self._consume(state, name, key, kind, runner if len(branches) == 1 else call)
            after.append(state)
        return every_path(after)

    def _per_leaf(self, tree_map, function, calls, used):
        """A tree map runs its function once per leaf (``jax.vmap`` once per element of the batch): a
        key the function closes over (neither its parameter nor its local) is consumed once per leaf,
        and again after what consumed it before. A call given the leaf itself, not only its shape,
        draws from it the same way for every leaf (``permutation(key, leaf)`` shuffles a dataset's
        leaves alike, keeping them aligned). The map may see no leaf: what it consumes is not kept."""
        own = self.model.scope(function)
        leaves = {a.arg for a in positional(function)}
        for call in calls:
            key, kind, _ = self.consumers[call]
            if isinstance(key, ast.Name) and key.id not in own.bindings and key.id not in self.outer \
                    and key.id not in own.globals | own.nonlocals and not reads_besides_key(call, key, leaves):
                self._report(key, ((kind, call, tree_map),), kind, call)
                if used.get(key.id):
                    self._report(key, used[key.id], kind, call)

    def _per_item(self, comprehension, call, key, kind):
        """A key consumed inside a comprehension that does not bind it is consumed once per item;
        whether it is the function's own key (no comprehension around the call binds it)."""
        bound = set()
        for generator in comprehension.generators:
            bound |= bound_names(generator.target)
        bound |= {n.target.id for n in _own_nodes(comprehension) if isinstance(n, ast.NamedExpr)}
        first, name = comprehension.generators[0], base_name(held_key(key))
        if name not in bound and len(comprehension.generators) == 1 and not first.ifs \
                and iterates_twice(first.iter):
            self._report(key, ((kind, call, comprehension),), kind, call)
        outer = self.model.parent(comprehension)
        while isinstance(outer, (ast.expr, ast.comprehension)) and name not in bound:
            if isinstance(outer, COMPREHENSIONS):
                bound |= {name for generator in outer.generators for name in bound_names(generator.target)}
            outer = self.model.parent(outer)
        return name not in bound

    def _every_item(self, comprehension, call, name):
        """Whether ``call`` runs on every run of ``comprehension``'s element, with ``name`` bound
        afresh by its ``for`` targets (which no ``:=`` may bind again): the element's calls consume a
        key of the item in order, as the statements of a ``for`` loop's body do."""
        if name not in {bound for generator in comprehension.generators for bound in bound_names(generator.target)}:
            return False
        node = self.model.parent(call)
        while node is not comprehension:
            if isinstance(node, (ast.IfExp, ast.BoolOp, ast.comprehension)):
                return False  # (under a condition, or in a generator: its ``if`` runs before the element)
            node = self.model.parent(node)
        return True

    def _report(self, key, previous, kind, call):
        """JNP601 when ``previous`` (the key's consumptions: (kind, call, the loop or comprehension
        that repeats it, or None)) holds one of the same kind as ``call``'s, else JNP606 (a draw
        and a split of one key)."""
        same = next((entry for entry in previous if entry[0] == kind and kind != UNSEEN
                     or {entry[0], kind} == {"split", UNSEEN}), None)
        other = same or next((entry for entry in previous if UNSEEN not in (entry[0], kind)
                              and not conditional(entry[0]) and not conditional(kind)), None)
        if other is None:
            return  # an unseen split and a draw, or two unseen splits: nothing shows the keys were drawn from
        _, earlier, loop = other
        if conditional(kind) and loop is not None and (type(loop) not in (ast.For, ast.While)
                                                       or not kind[3].isdisjoint(bound_names(loop))):
            return  # what a guard reads may change on each run: its calls may not all consume the key
        kind = kind[0] if conditional(kind) else kind
        if loop is not None:
            how = f"is consumed again {self._repeated_by(loop)} without a new split"
        else:
            how = f"was already {_VERBS.get(other[0], 'consumed') if same is None else 'consumed'} by " \
                  f"{describe(earlier.func)}() on line {earlier.lineno}"
        if same is None:
            code = "JNP606"
        else:
            code = "JNP601"
            alike = self._called_alike(earlier, call, key, loop)
            if kind != "draw":
                how += SAME_SUBKEYS if alike else FIRST_SUBKEYS
            else:
                how += SAME_NUMBERS if alike and self.model.qualname(call.func) in self.samplers else SAME_BITS
        spot = self.fields.get(call, key)  # a field (``self.key``) is reported where the method reads it
        place = (spot.lineno, spot.col_offset)
        if self.findings.get(place, Finding(0, 0, "JNP606")).code == "JNP606":
            self.findings[place] = Finding.at(spot, code, {"name": ast.unparse(spot), "how": how})

    def _called_alike(self, first, second, key, loop):
        """Whether two consumptions are one call made the same way: the same call repeated, or two
        with the same source text, reading nothing beside the key that the loop or comprehension
        repeating them (``loop``) binds (``for m in sizes: normal(key, (m,))`` draws other shapes)."""
        if loop is second:  # a lax loop's next step, reached through its carry: another call
            return False
        if type(loop) is ast.Call:  # a tree map (each leaf may have its own shape) or a vmap (one shape)
            function = loop.args[0] if type(loop.args[0]) is ast.Lambda else self.model.callee(loop.args[0])
            leaves = {a.arg for a in positional(function)} if function is not None else None
            if leaves is not None and self.model.qualname(loop.func) == VMAP:
                return not reads_besides_key(second, key, leaves)
            return leaves is not None and not any(type(n) is ast.Name and n.id in leaves
                                                  for n in ast.walk(second) if n is not key)
        return (first is second or ast.dump(first) == ast.dump(second)) \
            and not (loop is not None and reads_besides_key(second, key, bound_names(loop)))

    def _repeated_by(self, repeater):
        """Where a consumption repeats: a loop, a comprehension, a tree map's call or a vmap's."""
        if type(repeater) is not ast.Call:
            return f"on every iteration of the loop on line {repeater.lineno}"
        if self.model.qualname(repeater.func) in api.lax_body_carries():
            return f"on the next step of {describe(repeater.func)}() on line {repeater.lineno}, which hands it back"
        if self.model.qualname(repeater.func) == VMAP:
            return f"for every element of the batch that {describe(repeater.func)}() on line {repeater.lineno} maps"
        return f"for every leaf of {describe(repeater.func)}() on line {repeater.lineno}"


def _fixed_arms(loop, steady):
    """(the loop's body with an ``if`` replaced by one of its arms, that arm) for each ``if`` of the
    body whose test is one of the ``steady`` names the loop cannot change (``if use_numpy:``, ``if not fold:``)."""
    for at, stmt in enumerate(loop.body):
        if type(stmt) is not ast.If:
            continue
        test = stmt.test.operand if type(stmt.test) is ast.UnaryOp and type(stmt.test.op) is ast.Not else stmt.test
        if type(test) is ast.Name and test.id in steady:
            for arm in (stmt.body, stmt.orelse) if stmt.orelse else (stmt.body,):
                yield [*loop.body[:at], *arm, *loop.body[at + 1:]], arm


def _blocks(stmt):
    if isinstance(stmt, ast.Match):
        return [case.body for case in stmt.cases]
    return [stmt.body, stmt.orelse, stmt.finalbody] + [handler.body for handler in stmt.handlers]


def _is_target(stmt, child):
    return isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and (
        child in getattr(stmt, "targets", ()) or child is getattr(stmt, "target", None)) \
        and isinstance(child, (ast.Name, ast.Tuple, ast.List))
