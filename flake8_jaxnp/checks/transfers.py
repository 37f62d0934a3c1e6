"""JNP101-JNP104: device-host transfers repeated on every iteration of an untraced loop.

A transfer counts only where it runs on every iteration: in the body of a
for/while loop (or its while test), or in a comprehension's element, filter or
inner iterable. A transfer under an ``if`` inside the loop, or after an
``if ...: continue`` that may skip it, is the recommended every-N-steps pattern
and is not reported; neither is code in traced functions (their loops unroll
at trace time) nor code in a def nested in the loop. A sync in a loop that
holds another loop (per-epoch logging around the step loop) is the boundary
of that inner loop and is not reported either; uploads of unchanged data are.
The header of a loop nested in the loop (``for i in range(n)`` with a device
``n``) runs once per outer iteration: that is the inner loop's boundary too.
A for loop over a handful of values written out in the source (``for flag in
(False, True)``, at most ten) or over a literal ``range`` of at most five steps
(``for _ in range(3)``, the demo loop of documentation and tests; ``for epoch
in range(10)`` may well train) is not a hot loop; an enclosing loop may still
be, and nested ones count as hot once their steps multiply past ten. A loop whose body
leaves on its first pass counts as one step. A value checked by a test assertion
(``self.assertEqual(int(x), 3)``, or an ``assert`` statement in a ``test*``
function or a ``test_*.py``/``*_test.py`` file) must be read. Unchanged NumPy
data passed to a jitted function is uploaded on every call, like ``jnp.asarray``.
A conversion of the same array on every iteration (``float(loss)`` in ``for split in
splits``, nothing in the loop rebinding ``loss``) waits only the first time: it counts
once per run of that loop, so under an every-N ``if`` it is exempt like one in the block.
A loop inside an every-N block (``if step % N == 0:``) of a loop that does its steps outside
the block is an evaluation that runs once per N steps: its conversions are exempt too, unless
it advances what the steps carry (then it is the training loop itself).
"""
import ast

from .. import api
from ..facts import FORMATTERS, SCALAR_CONVERSIONS, TREE_MAPS
from ..model import dtypes
from ..model.kinds import JAX, UNKNOWN
from ..model.names import BindingKind
from ..model.syntax import (COMPREHENSIONS, LOOPS, SCOPES, TEST_FUNCTION_PREFIX, has_continue, is_assertion_call,
                            is_test_file, statement_children, walk_own)
from ..model.values import is_string
from ..findings import Finding
from . import describe, leaves_first_pass, rule
from .uploads import UPLOADS, jitted_upload, jitted_upload_what, numpy_arguments, numpy_data, same_data, same_upload

LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"})
LOG_MODULES = ("logging.", "absl.logging.")
# A for loop over at most this many values written out in the source is not a hot loop.
HANDFUL = 10
# A for loop over a literal range of at most this many steps is a demo, not a hot loop.
DEMO_RANGE = 5


# Nodes that can move data between host and device, or ask for a truth value.
CANDIDATES = frozenset({ast.Call, ast.JoinedStr, ast.BinOp, ast.If, ast.While, ast.IfExp, ast.Assert,
                        ast.comprehension, ast.UnaryOp, ast.BoolOp})


@rule("JNP101", "JNP102", "JNP103", "JNP104")
def host_transfers_in_loops(model):
    loops = _Loops(model)
    # Only what a loop holds can repeat: nothing else is asked about values, so a
    # function nothing traces and that loops nowhere near a candidate is never analysed.
    for node in loops.on_loop_lines(model.nodes(*CANDIDATES)):
        if not model.may_hold_arrays(node):
            continue
        found = _transfer(model, node)
        if found is None:
            continue
        reported, code, what = found
        loop = _repeating_loop(model, loops, reported, periodic=code == "JNP104")
        if loop is not None and code != "JNP104" and _unchanged_by(model, loops, reported, loop):
            loop = _repeating_loop(model, loops, loop)  # once per run of the loop, the first time
        if loop is None or model.traced_function(reported) is not None:
            continue
        if code != "JNP104" and (loops.around_inner_loop(loop, reported) or _in_inner_loop_header(model, reported, loop)
                                 or _checked_by_assertion(model, reported) or _in_every_n_block(model, loops, loop)):
            continue
        if code == "JNP104" and reported is not node:  # a jitted call: the first NumPy argument the loop repeats
            reported = next((data for data in numpy_arguments(model, node) if same_data(model, loops, data, loop)),
                            None)
            if reported is None:
                continue
            what = jitted_upload_what(reported, node)
        elif code == "JNP104" and not same_upload(model, loops, node, loop):
            continue
        yield Finding.at(reported, code, {"what": what})


class _Loops:
    """Facts about loop bodies, each computed once per loop or block, so that many
    transfers in one loop cost one walk of it, not one walk each."""

    def __init__(self, model):
        self.model = model
        self._inner = {}  # loop -> loops its body runs (at any depth, not in nested defs)
        self._first_continue = {}  # id(block) -> index of its first statement that may `continue`
        self._positions = {}  # id(block) -> {id(statement): index}
        self._names = {}  # loop -> (names it rebinds, {name: its Load nodes})

    def on_loop_lines(self, nodes):
        """The ``nodes`` whose first line some loop's (or comprehension's) lines include: no loop
        holds the others. A cheap filter (one index per node) before asking the model about values."""
        spans = sorted((loop.lineno, loop.end_lineno) for loop in self.model.nodes(*LOOPS, *COMPREHENSIONS))
        looped, last = bytearray(spans[-1][1] + 1 if spans else 0), 0  # line number -> 1 in a loop
        for start, end in spans:  # each line marked once, however deep the loops nest
            start = max(start, last + 1)
            if start <= end:
                looped[start:end + 1] = bytes([1]) * (end + 1 - start)
                last = end
        lines = len(looped)
        return [node for node in nodes  # (a comprehension has no position: its target's line)
                if (line := node.target.lineno if type(node) is ast.comprehension else node.lineno) < lines
                and looped[line]]

    def around_inner_loop(self, loop, node):
        """True when ``loop``'s body runs another loop that does not contain ``node``."""
        if not isinstance(loop, LOOPS):
            return False
        inner = self._inner.get(loop)
        if inner is None:
            inner = self._inner[loop] = _inner_loops(loop)
        holding = 0  # inner loops that contain node: its ancestors below ``loop``
        parent = self.model.parent(node)
        while parent is not None and parent is not loop:
            holding += parent in inner
            parent = self.model.parent(parent)
        return len(inner) > holding

    def skipped_by_earlier_continue(self, block_owner, stmt):
        """True when a statement before ``stmt`` in its block may skip the rest of the
        iteration (``if step % 100: continue``), so ``stmt`` does not run on every iteration.

        break, return and raise end the loop instead: until then ``stmt`` runs every time.
        """
        for field in ("body", "orelse", "finalbody"):
            block = getattr(block_owner, field, None)
            if isinstance(block, list):
                position = self.position(block, stmt)
                if position is not None:
                    return self._first_continue_in(block) < position
        return False

    def position(self, block, stmt):
        """The index of ``stmt`` in the statement list ``block``, or None (a dict lookup,
        not a scan: bodies can hold thousands of statements)."""
        positions = self._positions.get(id(block))
        if positions is None:
            positions = self._positions[id(block)] = {id(s): i for i, s in enumerate(block)}
        return positions.get(id(stmt))

    def _first_continue_in(self, block):
        first = self._first_continue.get(id(block))
        if first is None:
            first = self._first_continue[id(block)] = next(
                (i for i, s in enumerate(block) if isinstance(s, (ast.If, ast.Try, ast.With, ast.Match))
                 and has_continue(s)), len(block))
        return first

    def names(self, loop):
        """(names the loop rebinds, {name: Load nodes of it in the loop})."""
        facts = self._names.get(loop)
        if facts is None:
            rebound, loads = set(), {}
            for node in ast.walk(loop):
                if isinstance(node, ast.Name):
                    if isinstance(node.ctx, ast.Load):
                        loads.setdefault(node.id, []).append(node)
                    else:
                        rebound.add(node.id)
            facts = self._names[loop] = (rebound, loads)
        return facts


def _inner_loops(loop):
    """Every loop statement inside ``loop``'s body, outside nested defs and classes."""
    return {node for node in walk_own(loop.body, SCOPES, statement_children) if isinstance(node, LOOPS)}


def _value(model, expr):
    """What ``expr`` holds on every iteration: in a while test that the first run and the later
    ones see differently (``i = 0`` before the loop, ``i, x = step(i, x)`` in it), the later. Asked
    about arrays only: no forward pass runs where no array can enter (``array_value``)."""
    value = model.array_value(expr)
    if value.kind is not UNKNOWN or not model.may_hold_arrays(expr):
        return value
    return model.value_on_repeat(expr) or value


def _on_device(model, expr):
    return _value(model, expr).on_device


def _any_on_device(model, exprs):
    """True when an expression, or an element of a literal list/tuple among them, is on the device."""
    for expr in exprs:
        if isinstance(expr, ast.Starred):
            expr = expr.value
        if isinstance(expr, (ast.List, ast.Tuple)):
            if _any_on_device(model, expr.elts):
                return True
        elif _on_device(model, expr):
            return True
    return False


def _transfer(model, node):
    """(node to report, code, what) when ``node`` moves a device value to the host or NumPy data up."""
    if isinstance(node, ast.Call):
        return _call(model, node)
    if isinstance(node, ast.JoinedStr):
        if _any_on_device(model, [v.value for v in node.values if isinstance(v, ast.FormattedValue)]):
            return node, "JNP103", "an f-string"
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and is_string(node.left):
        if _any_on_device(model, [node.right]):
            return node, "JNP103", "%-formatting"
    for test in _truth_tested(model, node):
        if _value(model, test).kind is JAX:  # a bare jitted pytree may be a tuple: its truth is Python's
            later = "" if model.array_value(test).kind is JAX else " (a JAX array from the loop's second test on)"
            return test, "JNP102", f"the truth value of {describe(test)}{later}"
    return None


def _call(model, call):
    qualname = model.qualname(call.func)
    args = list(call.args)
    every = args + [k.value for k in call.keywords]
    converts = _conversion(qualname)
    if converts == "JNP101":
        if _any_on_device(model, every):
            return call, "JNP101", describe(call)
    elif converts == "JNP102":
        if _any_on_device(model, args):
            return call, "JNP102", describe(call)
    elif qualname in TREE_MAPS and len(args) > 1:
        converts = _conversion(model.qualname(_leafwise(args[0])))
        if converts is not None and _any_on_device(model, args[1:]):
            return call, converts, describe(call)  # jax.tree.map(np.asarray, state.params): every leaf
    elif qualname in FORMATTERS:
        if _any_on_device(model, args):
            return call, "JNP103", f"{qualname[len('builtins.'):]}()"
    elif qualname in UPLOADS:
        if args and numpy_data(model, args[0]):
            return call, "JNP104", describe(call)
    elif _is_log_call(model, call, qualname):
        if _any_on_device(model, every):
            return call, "JNP103", f"{describe(call.func)}()"
    elif isinstance(call.func, ast.Attribute):
        method, owner = call.func.attr, call.func.value
        if method in ("item", "tolist") and not args and _on_device(model, owner):
            return call, "JNP102" if method == "item" else "JNP101", describe(call)
        if method == "format" and is_string(owner) and _any_on_device(model, every):
            return call, "JNP103", "str.format()"
    found = _helper_transfer(model, call) if _any_on_device(model, args) else None
    return found or jitted_upload(model, call)


def _helper_transfer(model, call):
    """A call of another project module's function that converts the device array it is
    given in its unconditional statements, so on every call. (A helper in this module is
    left alone: the runtime mode sees its transfer at the helper's line, not the loop's.)"""
    found = model.helper_facts(call.func) if model.callee(call.func) is None else None
    if found is None:
        return None
    facts, where = found
    if facts.get("jitted"):  # its conversions run while tracing, on tracers: JNP201/JNP301 there
        return None
    for position, code, what, line in facts["converts"]:
        if position < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:position + 1]) \
                and _on_device(model, call.args[position]):
            return call, code, f"{describe(call.func)}(), which calls {what} on its argument ({where}:{line}),"
    return None


def _conversion(qualname):
    """The rule of a function that brings the array it is given to the host: JNP101 for a copy into NumPy
    (``np.asarray``, ``jax.device_get``, ``np.float32``), JNP102 for a Python scalar (``float``); else None."""
    if qualname in api.data()["numpy_fails_on_tracer"] or qualname == "jax.device_get" or _is_numpy_dtype(qualname):
        return "JNP101"
    if qualname in SCALAR_CONVERSIONS or (qualname or "").startswith("math."):
        return "JNP102"
    return None


def _leafwise(mapped):
    """The function that ``mapped``, given to a tree map, applies to each leaf: itself, or the one a lambda
    calls on its only parameter and nothing else (``lambda p: np.asarray(p)``)."""
    if type(mapped) is ast.Lambda and type(mapped.body) is ast.Call and not mapped.body.keywords \
            and len(mapped.args.args) == 1 and not mapped.args.posonlyargs and len(mapped.body.args) == 1 \
            and type(mapped.body.args[0]) is ast.Name and mapped.body.args[0].id == mapped.args.args[0].arg:
        return mapped.body.func
    return mapped


def _is_numpy_dtype(qualname):
    """``np.float32(x)`` converts like np.asarray."""
    return bool(qualname) and qualname.startswith("numpy.") and dtypes.dtype_constructor(qualname) is not None


def _is_log_call(model, call, qualname):
    """logging.info(...), absl's logging, or a method of a logger from logging.getLogger()."""
    if qualname:
        return qualname.startswith(LOG_MODULES) and qualname.rsplit(".", 1)[1] in LOG_METHODS
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in LOG_METHODS and isinstance(func.value, ast.Name)):
        return False
    found = model.resolve(func.value)
    if not found:
        return False
    bindings = found[1]
    return all(b.kind is BindingKind.ASSIGN and isinstance(b.value, ast.Call)
               and model.qualname(b.value.func) == "logging.getLogger" for b in bindings)


def _truth_tested(model, node):
    """Expressions whose truth value ``node`` asks for unconditionally."""
    if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        tests = [node.test]
    elif isinstance(node, ast.comprehension):
        tests = node.ifs
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        tests = [node.operand]
    elif isinstance(node, ast.BoolOp):
        # later operands run only on some paths, except in a while loop's `a and b` and after
        # flags (`keep_best and loss < best`: on every iteration or on none)
        tests = [v for v in node.values
                 if _continues_while(model, node) or _flags_before(model, node, v) is not None]
    else:
        return []
    # `not x` and `a and b` are visited as nodes of their own
    return [t for t in tests if not isinstance(t, ast.BoolOp)
            and not (isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not))]


def _repeating_loop(model, loops, node, periodic=False):
    """The loop (or comprehension) that runs ``node`` on every iteration, else None. Loops
    of a handful of steps count only while their product stays a handful. Under an ``if`` whose
    test is a flag of the function the loop never rebinds (``if use_numpy:``), ``node`` runs on
    every iteration or on none. With ``periodic``, also under an every-N test of a counter the loop
    rebinds (``if (it + 1) % cfg.eval_every == 0:``): an upload of unchanged data there repeats at
    every N-th iteration, where an every-N block is otherwise the fix (a log every N steps)."""
    child, parent = node, model.parent(node)
    handful_loop, steps, flags, every_n = None, 1, set(), []
    while parent is not None:
        if isinstance(parent, SCOPES):
            return None
        if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test:
            flag = _local_flag(model, parent.test)
            if flag is None and not (periodic and isinstance(parent, ast.If)):
                return None
            if flag is None:
                every_n.append(parent.test)  # (the loop around must rebind its counter)
            else:
                flags.add(flag)
        if isinstance(parent, ast.BoolOp) and not _continues_while(model, parent):
            before = _flags_before(model, parent, child)
            if before is None:
                return None
            flags |= before
        if isinstance(parent, (ast.ExceptHandler, ast.match_case)):
            return None
        if isinstance(child, ast.stmt) and loops.skipped_by_earlier_continue(parent, child):
            return None
        if isinstance(parent, LOOPS) and (loops.position(parent.body, child) is not None
                                          or child is getattr(parent, "test", None)):
            if flags & loops.names(parent)[0] or not all(_every_n_test(test, loops.names(parent)[0])
                                                         for test in every_n):
                return None  # (a flag the loop changes, or no counter it steps: not a steady repeat)
            every_n = []
            count = model_handful_steps(model, parent)
            if count is None:
                return parent
            handful_loop, steps = handful_loop or parent, steps * count
            if steps > HANDFUL:
                return handful_loop  # range(10) inside range(10): a hundred steps
            # else an enclosing loop may still repeat it
        if isinstance(parent, COMPREHENSIONS) and child is not parent.generators[0]:
            return None if flags else parent
        if isinstance(parent, ast.comprehension) and child is not parent.target:
            outer = model.parent(parent)
            if child is not parent.iter or parent is not outer.generators[0]:
                return outer
            child, parent = outer, model.parent(outer)  # the first iterable runs once
            continue
        child, parent = parent, model.parent(parent)
    return None


def _local_flag(model, test):
    """The name of ``test`` (``flag``, ``not flag``, ``trace is not None``: an identity test of a
    constant) when it is a parameter or local of the function around it, else None."""
    name = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else test
    if isinstance(name, ast.Compare) and len(name.ops) == 1 and isinstance(name.ops[0], (ast.Is, ast.IsNot)) \
            and isinstance(name.comparators[0], ast.Constant):
        name = name.left
    found = model.resolve(name) if isinstance(name, ast.Name) else None
    function = model.enclosing_function(test)
    return name.id if found is not None and function is not None and found[0].node is function else None


def _unchanged_by(model, loops, reported, loop):
    """True when every iteration of ``loop`` converts the same array: the converted value reads
    only names the loop does not rebind (nor mutate, for ``state.loss``) and calls nothing new.
    The first conversion waits for it; the later ones find it ready (``for split in splits:
    log(split, float(loss))`` in an every-N block syncs once per block)."""
    operands = [operand for operand in _converted(reported) if _on_device(model, operand)]
    rebound, _ = loops.names(loop)
    for operand in operands:
        for node in ast.walk(operand):
            if isinstance(node, (ast.Call, ast.Await, ast.NamedExpr, ast.Lambda, *COMPREHENSIONS)):
                return False
            if isinstance(node, ast.Name) and (
                    node.id in rebound or node is not operand and _mutated_in(loop, node.id, reported)):
                return False
    return bool(operands)


def _converted(reported):
    """The expressions a reported transfer converts (``loss`` of ``float(loss)``, ``loss.item()``)."""
    if isinstance(reported, ast.Call):
        if isinstance(reported.func, ast.Attribute) and reported.func.attr in ("item", "tolist") and not reported.args:
            return [reported.func.value]
        return [a.value if isinstance(a, ast.Starred) else a for a in reported.args] + \
            [k.value for k in reported.keywords]
    if isinstance(reported, ast.JoinedStr):
        return [v.value for v in reported.values if isinstance(v, ast.FormattedValue)]
    if isinstance(reported, ast.BinOp):
        return [reported.right]  # "%s" % loss
    return [reported]  # a truth test


def _mutated_in(loop, name, conversion):
    """True when ``loop`` may change what ``name``'s attributes or items hold: it stores into them,
    calls a method of it or passes it to a call other than the ``conversion`` itself."""
    for node in ast.walk(loop):
        if node is conversion:
            continue
        if isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(node.ctx, ast.Load) \
                and _root_name(node) == name:
            return True
        if isinstance(node, ast.Call) and (isinstance(node.func, ast.Attribute) and _root_name(node.func) == name
                                           or any(_is_name(a, name) for a in node.args)
                                           or any(_is_name(k.value, name) for k in node.keywords)):
            return True
    return False


def _is_name(expr, name):
    if isinstance(expr, ast.Starred):
        expr = expr.value
    return isinstance(expr, ast.Name) and expr.id == name


def _root_name(expr):
    while isinstance(expr, (ast.Attribute, ast.Subscript)):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _flags_before(model, boolop, operand):
    """The flags (``_local_flag``) of the operands of ``boolop`` before ``operand``, which then runs
    whenever they take the same values; None when one of them is not a flag."""
    flags = set()
    for value in boolop.values[:boolop.values.index(operand)]:
        flag = _local_flag(model, value)
        if flag is None:
            return None
        flags.add(flag)
    return flags


def _continues_while(model, boolop):
    """``while a and b:`` (also nested ands): every operand runs on every iteration that
    goes on, so each is a per-step truth test."""
    if not isinstance(boolop.op, ast.And):
        return False
    child, parent = boolop, model.parent(boolop)
    while isinstance(parent, ast.BoolOp) and isinstance(parent.op, ast.And):
        child, parent = parent, model.parent(parent)
    return isinstance(parent, ast.While) and child is parent.test


def _checked_by_assertion(model, node):
    """``self.assertEqual(int(x), 3)``, ``np.testing.assert_allclose(np.asarray(x), y)``, or
    ``assert`` in a test: a test has to bring the value it checks to the host. (A bare
    ``assert`` in a training loop outside tests still syncs every step.)"""
    parent = model.parent(node)
    while parent is not None and not isinstance(parent, ast.stmt):
        if isinstance(parent, ast.Call) and is_assertion_call(parent):
            return True
        parent = model.parent(parent)
    return isinstance(parent, ast.Assert) and (is_test_file(model.filename) or _in_test_function(model, parent))


def _in_test_function(model, node):
    function = model.enclosing_function(node)
    while function is not None:
        if getattr(function, "name", "").startswith(TEST_FUNCTION_PREFIX):
            return True
        function = model.enclosing_function(model.parent(function))
    return False


def _in_every_n_block(model, loops, inner):
    """True when the loop ``inner`` runs inside an every-N block of an enclosing loop that does its
    own work outside the block (``for step ...: params = train(params); if step % N == 0: for split,
    ds in eval_sets: np.asarray(accuracy(params, next(ds)))``): the evaluation runs once per N steps,
    so its syncs do not stall the steps, as a conversion in the block itself does not. An inner loop
    that rebinds what the outer loop's steps rebind (``if epoch % 2 == 0: for ...: p = step(p)``) is
    the training loop itself and stays hot."""
    child, parent, blocks = inner, model.parent(inner), []
    while parent is not None and not isinstance(parent, SCOPES):
        if isinstance(parent, ast.If) and child is not parent.test:
            blocks.append(parent)
        elif isinstance(parent, LOOPS) and loops.position(parent.body, child) is not None:
            if any(_every_n_test(block.test, loops.names(parent)[0]) for block in blocks) \
                    and _works_outside(loops, parent, child, inner):
                return True
            blocks = []
        child, parent = parent, model.parent(parent)
    return False


def _every_n_test(test, rebound):
    """``step % N == 0``, ``not (step + 1) % N``, ``step % N == 0 and step > 0``: a remainder of a
    counter the loop rebinds."""
    return any(
        isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and not is_string(node.left)
        and any(isinstance(name, ast.Name) and name.id in rebound for name in ast.walk(node.left))
        for node in ast.walk(test))


def _works_outside(loops, outer, block_statement, inner):
    """True when ``outer``'s body calls something outside ``block_statement`` (its steps) and
    ``inner`` rebinds no name those statements carry from one iteration to the next (it does not
    advance their state); a name bound afresh each iteration (the loop's target, ``batch =
    next(it)`` before any read) may be reused (``for batch in eval_ds``)."""
    others = [stmt for stmt in outer.body if stmt is not block_statement]
    fresh = {node.id for node in ast.walk(outer.target) if isinstance(node, ast.Name)} \
        if isinstance(outer, (ast.For, ast.AsyncFor)) else set()
    carried = set()
    for stmt in others:
        read = {node.id for node in ast.walk(stmt.value if isinstance(stmt, ast.Assign) else stmt)
                if isinstance(node, ast.Name)}
        if isinstance(stmt, ast.Assign):
            fresh |= {node.id for target in stmt.targets for node in ast.walk(target)
                      if isinstance(node, ast.Name)} - read - carried
        carried |= read - fresh
    return any(isinstance(node, ast.Call) for stmt in others for node in ast.walk(stmt)) \
        and not carried & loops.names(inner)[0]


def _in_inner_loop_header(model, node, loop):
    """True when ``node`` is in the iterable of a for loop nested in ``loop``: it runs once
    per iteration of ``loop``, at the boundary of the inner loop."""
    child, parent = node, model.parent(node)
    while parent is not None and parent is not loop:
        if isinstance(parent, (ast.For, ast.AsyncFor)) and child is parent.iter:
            return True
        child, parent = parent, model.parent(parent)
    return False


def model_handful_steps(model, loop):
    """``handful_steps`` of a loop of the linted file: its model says which name is the builtin range."""
    return handful_steps(loop, lambda func: model.qualname(func) == "builtins.range")


def handful_steps(loop, is_range):
    """How many steps ``for flag in (False, True)`` (at most HANDFUL values written out)
    or ``for _ in range(3)`` (at most DEMO_RANGE) takes: a few syncs, not one per step.
    None for any other loop; 1 for a loop whose body leaves on its first pass. ``is_range``: whether a called
    expression is the builtin range (the runtime mode asks the same of the loops its events ran in)."""
    if leaves_first_pass(loop):
        return 1
    items = loop.iter if isinstance(loop, (ast.For, ast.AsyncFor)) else None
    count, limit = None, HANDFUL
    if isinstance(items, (ast.Tuple, ast.List, ast.Set)):
        if not any(isinstance(e, ast.Starred) for e in items.elts):
            count = len(items.elts)
    elif isinstance(items, ast.Call) and is_range(items.func) \
            and not items.keywords and 1 <= len(items.args) <= 3 \
            and all(type(a) is ast.Constant and type(a.value) is int for a in items.args):
        bounds = [a.value for a in items.args]
        if not (len(bounds) == 3 and bounds[2] == 0 or any(abs(b) >= 2 ** 62 for b in bounds)):
            count, limit = len(range(*bounds)), DEMO_RANGE  # (else range() would raise or overflow len())
    return max(count, 1) if count is not None and count <= limit else None
