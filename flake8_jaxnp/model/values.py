"""Value kinds and the forward dataflow that assigns them to expressions.

A forward pass over each function body (and the module body) tracks what every
local name holds at each point; branches join, and a loop body is analysed
twice so that values assigned late in a body reach its top. Where paths
disagree the value becomes UNKNOWN, and the checks stay silent on UNKNOWN.

The engine here knows Python; what a library call returns (``jnp.zeros``,
``np.asarray``, ``x.astype``) is asked of ``library``.

Cost stays linear in the body's size:
- environments are overlays (a branch records only what it changes, and a
  join touches only the names some branch changed);
- only the last pass over a loop is exact: the first pass, which just finds
  what the body assigns, analyses inner loops once, so nesting costs
  depth x size rather than 2^depth;
- ``if``/``elif`` chains are walked as one list of arms, not recursively.
"""
import ast
from typing import Callable, Optional, Protocol

from ..facts import MUTATING_METHODS, TREE_MAPS
from . import containers, dtypes, library
from .environments import Env
from .names import DEFINITIONS, Names
from .syntax import captured_names, child_nodes, has_continue
from .kinds import (ARRAYS, GENERATOR, JAX, JAX_TREE, NNX_GRAPH, NUMPY, PYTHON, PYTHON_VALUE, TRACED, TRACER,
                    TRACER_TREE, TREES, UNKNOWN, UNKNOWN_VALUE, Shaped, Value, builder_result, join,
                    shaped)


def is_string(expr):
    """A string literal or f-string."""
    return isinstance(expr, ast.JoinedStr) or (isinstance(expr, ast.Constant) and isinstance(expr.value, str))


class Surroundings(Protocol):
    """What a forward pass asks about the rest of its module while it runs (``tracing``
    answers): the names, the transforms, other scopes' values and what calls give."""

    names: Names
    x64: bool
    jitted_callables: set  # same-file defs whose calls give device arrays
    staging_transforms: set  # transforms whose transformed function gives device arrays
    trace_time: dict  # def that cached traced code calls with no tracer -> Transform: its body is staged too
    transform_names: frozenset
    dtype_resolver: Optional[Callable]  # expression -> (dtype, as a Python type) from another module, or None
    numpy_resolver: Optional[Callable]  # expression -> whether it names another module's NumPy constant, or None

    def callee(self, func_expr):
        """The same-file def a call's function expression names, or None."""

    def functions_passed(self, expr):
        """The same-file defs that the calls of its function give the parameter ``expr`` reads."""

    def jitted_result(self, callee, call):
        """The shape of what ``call`` of a same-file jitted def gives, or None."""

    def updates_state(self, callee):
        """Whether a same-file jitted def writes its arguments' state back (``nnx.jit``)."""

    def builds_jitted(self, callee):
        """Whether a same-file def returns a jitted function."""

    def methods_called(self, call):
        """The same-file ``__init__``, ``__call__`` or methods that ``call`` runs (a tuple)."""

    def given_runs(self, func_expr):
        """[(a def given to an object that ``state.apply_fn(...)``, ``tx.update(...)`` runs, ...)]."""

    def runs_layer(self, func_expr):
        """Whether calling ``func_expr`` runs a framework's own layer that gives one array."""

    def layer_dtype(self, func_expr, inputs, x64):
        """The dtype of what calling the framework layer ``func_expr`` on ``inputs`` gives, or None."""

    def layer_field_on_device(self, expr):
        """Whether ``obj.field`` reads a device array a framework layer built eagerly holds."""

    def record(self, func_expr):
        """The ``constructors.Record`` that calling ``func_expr`` builds, or None."""

    def returned(self, call, args, keywords):
        """What a call of a project function (this file's or another module's) gives, or None."""

    def outer_value(self, scope_node, name):
        """The Value that a read of ``name`` from an enclosing scope sees."""


class FunctionFlow:
    """The forward pass over one function (or module) body.

    ``context`` answers questions about names and other scopes while the pass runs;
    the flow keeps no reference to it. Calls to same-file functions are recorded in
    ``calls`` for the tracing fixpoint to spread tracing afterwards.
    """

    def __init__(self, context: Surroundings, node, params, traced):
        self.context = context
        self.names = context.names
        self.x64 = context.x64
        self.node = node
        self.traced = traced  # the TracedFunction when this body is traced, else None
        self.staged = traced is not None and traced.cached_by is not None or node in context.trace_time
        self.scope = self.names.scopes[node]
        self.values = {}  # expression node -> Value
        self.assigned = dict(params)  # local name -> join of everything it was bound to
        self.calls = []  # (callee def, call node, argument Values, keyword Values)
        self.repeated = {}  # expression of a while test -> its Value when the test runs again (_test_again)
        self._exact = True  # False during a loop's first pass, whose values are provisional
        body = node.body if isinstance(node.body, list) else [ast.Return(node.body)]
        try:
            self._block(body, Env(changes=dict(params)))
        finally:
            del self.context, self.names

    # ---- statements ---------------------------------------------------------
    def _block(self, stmts, env):
        for stmt in stmts:
            handler = _STATEMENTS.get(type(stmt))
            if handler is not None:
                handler(self, stmt, env)
            else:
                for child in child_nodes(stmt):
                    if isinstance(child, ast.expr):
                        self.eval(child, env)

    def _assign(self, stmt, env):
        value = self.eval(stmt.value, env)
        for target in stmt.targets:
            if type(target) is ast.Name:
                self._set(target.id, value, env)
            elif _pairwise(target, stmt.value):  # a, b = x, y
                for element, part in zip(target.elts, stmt.value.elts):
                    self._bind(element, self.values.get(part, UNKNOWN_VALUE), env)
            else:
                self._bind(target, value, env)

    def _expression(self, stmt, env):  # an expression statement, return, await
        if stmt.value is not None:
            self.eval(stmt.value, env)

    def _ann_assign(self, stmt, env):
        if stmt.value is not None:
            self._bind(stmt.target, self.eval(stmt.value, env), env)

    def _aug_assign(self, stmt, env):
        value = library.binop(self, self.eval(stmt.target, env), self.eval(stmt.value, env), stmt.op)
        self._bind(stmt.target, value, env)

    def _for(self, stmt, env):
        item = self._item(stmt.iter, env)
        self._loop(stmt, env, lambda e: self._bind(stmt.target, item, e))

    def _while(self, stmt, env):
        self._loop(stmt, env, lambda e: self.eval(stmt.test, e))

    def _if(self, stmt, env):
        """An if/elif/.../else chain: every arm branches from ``env``, then all meet."""
        arms = []
        while True:
            truth = self.eval(stmt.test, env).truth
            if truth is not False:  # (a test known false skips its arm: it binds nothing)
                arm = env.branch()
                self._block(stmt.body, arm)
                arms.append(arm)
            if truth is True:
                break
            if len(stmt.orelse) == 1 and type(stmt.orelse[0]) is ast.If:
                stmt = stmt.orelse[0]
                continue
            otherwise = env.branch()
            self._block(stmt.orelse, otherwise)
            arms.append(otherwise)
            break
        env.meet(*arms)

    def _with(self, stmt, env):
        for item in stmt.items:
            self.eval(item.context_expr, env)
            if item.optional_vars is not None:
                self._bind(item.optional_vars, UNKNOWN_VALUE, env)
        self._block(stmt.body, env)

    def _try(self, stmt, env):
        body = env.branch()
        self._block(stmt.body + stmt.orelse, body)
        env.meet(body, env.branch())  # the body may stop anywhere
        for handler in stmt.handlers:
            if handler.type is not None:
                self.eval(handler.type, env)
            caught = env.branch()
            if handler.name:
                caught[handler.name] = UNKNOWN_VALUE
            self._block(handler.body, caught)
            env.meet(caught, env.branch())
        self._block(stmt.finalbody, env)

    def _definition(self, stmt, env):
        for decorator in stmt.decorator_list:
            self.eval(decorator, env)
        self._set(stmt.name, PYTHON_VALUE, env)

    def _import(self, stmt, env):
        for alias in stmt.names:
            self._set((alias.asname or alias.name).split(".")[0], PYTHON_VALUE, env)

    def _delete(self, stmt, env):
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                env[target.id] = UNKNOWN_VALUE
            else:
                self.eval(target, env)

    def _type_alias(self, stmt, env):
        self._set(stmt.name.id, PYTHON_VALUE, env)  # the value is evaluated lazily, if ever

    def _match(self, stmt, env):
        self.eval(stmt.subject, env)
        cases = []
        for case in stmt.cases:
            arm = env.branch()
            for name in captured_names(case.pattern):
                arm[name] = UNKNOWN_VALUE
            if case.guard is not None:
                self.eval(case.guard, arm)
            self._block(case.body, arm)
            cases.append(arm)
        env.meet(env.branch(), *cases)

    def _item(self, iterable, env):
        """What a for loop or comprehension over ``iterable`` binds on each iteration."""
        value = self.eval(iterable, env)
        if isinstance(iterable, ast.Call) and self.names.qualname(iterable.func) == "builtins.range":
            return library.PYTHON_INT  # a loop counter: a Python int
        return containers.element(value)

    def _loop(self, stmt, env, enter):
        """Analyse a loop body: a first pass finds what it assigns, the exact pass starts
        from that joined with the state before the loop. Inside another loop's first pass,
        one provisional pass is enough (the enclosing loop's exact pass redoes it). Both passes
        record the calls tracing spreads along: the first passes what the first iteration does
        (``x = block.mix(x)`` gives the method the jit's tracer before the join forgets it)."""
        first = env.branch()
        exact, self._exact = self._exact, False
        try:
            enter(first)
            self._block(stmt.body, first)
        finally:
            self._exact = exact
        if exact:
            second = env.branch()
            second.meet(first, env.branch())
            enter(second)
            self._block(stmt.body, second)
            if type(stmt) is ast.While and not has_continue(stmt):
                self._test_again(stmt.test, second)
            env.meet(second, env.branch())
        else:
            env.meet(first, env.branch())
        self._block(stmt.orelse, env)

    def _test_again(self, test, env):
        """The values of a while test as it runs after an iteration (``i`` a Python int before the
        loop, a device array after ``i, x = step(i, x)``), kept apart: the first test sees less."""
        values, exact, self.values, self._exact = self.values, self._exact, {}, False
        try:
            self.eval(test, env)
            self.repeated.update(self.values)
        finally:
            self.values, self._exact = values, exact

    def _bind(self, target, value, env):
        if isinstance(target, ast.Name):
            self._set(target.id, value, env)
        elif isinstance(target, (ast.Tuple, ast.List)):
            # a tree's parts, and a JAX array's rows (``loc, scale = self.linear(x)``), are of its kind
            item = Value(value.kind) if value.kind in TREES or value.kind in (TRACER, JAX) else UNKNOWN_VALUE
            parts = [value.member(("item", i)) for i in range(len(target.elts) + 1)]
            if parts[-1] is None and None not in parts[:-1] \
                    and not any(isinstance(e, ast.Starred) for e in target.elts):
                for elt, part in zip(target.elts, parts):  # state, metrics = step(...): a known tuple
                    self._bind(elt, part, env)
                return
            for elt in target.elts:  # (a starred name gathers a list of them)
                starred = isinstance(elt, ast.Starred)
                self._bind(elt.value if starred else elt, containers.holding("list", item) if starred else item, env)
        else:  # attribute or item assignment: evaluate the parts, bind nothing
            self.eval(target, env)
            self._changed_in_place(target.value, env, target, value)

    def _changed_in_place(self, expr, env, change=None, given=None):
        """``table["a"] = x``, ``items.append(x)``, ``stats.loss = x``: a literal container's items, or a
        record's fields, are known only as far as the change says (``containers.changed``)."""
        value = self.values.get(expr)
        if type(expr) is ast.Name and value is not None and value.container:
            self._set(expr.id, containers.changed(value, change, given), env)

    def _set(self, name, value, env):
        env.changes[name] = value
        previous = self.assigned.get(name)
        self.assigned[name] = value if previous is None or previous is value else join(previous, value)

    # ---- expressions ----------------------------------------------------------
    def eval(self, expr, env):
        try:
            handler = _EXPRESSIONS.get(type(expr))
            value = handler(self, expr, env) if handler is not None else self._other(expr, env)
        except RecursionError:  # a pathologically deep expression: unknown, not a crash
            value = UNKNOWN_VALUE
        self.values[expr] = value
        return value

    def _other(self, expr, env):
        for child in child_nodes(expr):
            if isinstance(child, ast.expr):
                self.eval(child, env)
        return UNKNOWN_VALUE

    def _container(self, expr, env):
        for child in child_nodes(expr):
            self.eval(child.value if type(child) is ast.Starred else child, env)
        return containers.literal(expr, self.values)

    def _constant(self, expr, env):
        return NUMBER_LITERALS.get(type(expr.value), PYTHON_VALUE)

    def _name(self, expr, env):
        value = env.get(expr.id)
        if value is not None:
            return value
        scope = self.scope
        if expr.id in scope.bindings and expr.id not in scope.globals and expr.id not in scope.nonlocals:
            return UNKNOWN_VALUE  # a local not bound on this path (yet)
        found = self.names.resolve_name(expr)
        if found is None:
            return PYTHON_VALUE if expr.id in ("True", "False", "None") else UNKNOWN_VALUE
        scope, bindings = found
        for binding in bindings:
            if binding.kind not in DEFINITIONS:
                return self.context.outer_value(scope.node, expr.id)
        if self.context.numpy_resolver is not None and self.context.numpy_resolver(expr):
            return Value(NUMPY)  # MASK of ``from .config import MASK``: another module's NumPy constant
        return PYTHON_VALUE  # a module, function or class

    def _attribute(self, expr, env):
        base = self.eval(expr.value, env)  # self.scale, a property, runs its getter here, self bound:
        getter = self.traced is not None and type(expr.ctx) is ast.Load and self.context.callee(expr)
        if any(type(d) is ast.Name and d.id == "property" for d in getattr(getter, "decorator_list", ())):
            self.calls.append((getter, ast.copy_location(ast.Call(func=expr, args=[], keywords=[]), expr), [], {}))
        return library.attribute(self, expr, base)

    def _subscript(self, expr, env):
        base = self.eval(expr.value, env)
        return library.subscript(self, expr, base, self.eval(expr.slice, env))

    def _binop(self, expr, env):
        left, right = self.eval(expr.left, env), self.eval(expr.right, env)
        if isinstance(expr.op, ast.Mod) and is_string(expr.left):
            return PYTHON_VALUE  # "%s" % x formats
        return library.binop(self, left, right, expr.op)

    def _unaryop(self, expr, env):
        value = self.eval(expr.operand, env)
        if isinstance(expr.op, ast.Not):
            return PYTHON_VALUE if value.truth is None else Value(PYTHON, truth=not value.truth)
        return library.operated(self, value) if value.kind is not PYTHON else Value(PYTHON, value.dtype, value.weak)

    def _compare(self, expr, env):
        operands = [self.eval(expr.left, env)] + [self.eval(c, env) for c in expr.comparators]
        return library.compare(self, expr, operands)

    def _boolop(self, expr, env):
        """The operands joined; those after one whose known truth decides the result never run."""
        result, decides = None, isinstance(expr.op, ast.Or)
        for operand in expr.values:
            value = self.eval(operand, env)
            result = value if result is None else join(result, value)
            if value.truth is decides:
                break
        return result

    def _ifexp(self, expr, env):
        truth = self.eval(expr.test, env).truth
        if truth is not None:  # only one arm runs
            return self.eval(expr.body if truth else expr.orelse, env)
        return join(self.eval(expr.body, env), self.eval(expr.orelse, env))

    def _namedexpr(self, expr, env):
        value = self.eval(expr.value, env)
        self._set(expr.target.id, value, env)
        return value

    def _comprehension(self, expr, env):
        inner = env.branch()
        for generator in expr.generators:
            item = self._item(generator.iter, inner)
            self._bind(generator.target, item, inner)
            for condition in generator.ifs:
                self.eval(condition, inner)
        for part in ("elt", "key", "value"):
            if hasattr(expr, part):
                self.eval(getattr(expr, part), inner)
        return containers.comprehension(expr, self.values[getattr(expr, "elt", None) or expr.value])

    def _lambda(self, expr, env):
        return PYTHON_VALUE

    def _joinedstr(self, expr, env):
        for value in expr.values:
            self.eval(value, env)
        return PYTHON_VALUE

    def _call(self, call, env):
        func_value = self.eval(call.func, env)
        args = [self.eval(a.value if type(a) is ast.Starred else a, env) for a in call.args] if call.args else []
        keywords = {k.arg: self.eval(k.value, env) for k in call.keywords} if call.keywords else {}
        traced_input = any([value.kind in TRACED for value in args]) or bool(keywords) and any(
            [value.kind in TRACED for value in keywords.values()])  # (lists: twice as fast as generators here)
        staged = self.staged
        traced_result = traced_input or staged  # a JAX operation in a staging trace gives a tracer (omnistaging)
        qualname = self.names.qualname(call.func)
        if (args or keywords) and not (qualname and library.keeps_arguments(qualname)) \
                and not self._jitted_call(call.func, func_value):
            for expr in [*call.args, *(k.value for k in call.keywords)]:  # the callee may change their items
                self._changed_in_place(expr.value if type(expr) is ast.Starred else expr, env)
        if qualname:  # (jnp.array([c, -s]) of tracers: a tracer)
            held = traced_input or any([value.members and value.holds_tracers for value in args])
            result = library.call(self, call, qualname, args, held or staged and library.stages_constants(qualname))
            if result is not None:
                return result
            if qualname in TREE_MAPS and call.args and self.traced is not None:
                mapped = self.context.callee(call.args[0])  # jax.tree.map(f, params): f runs in this trace
                if mapped is not None:
                    self.calls.append((mapped, call, args, keywords))
            if qualname in library.TREE_FUNCTIONS:
                return library.tree_call(self, call, qualname, args, env)
        layer = self.context.runs_layer(call.func) if traced_result or self.traced is None \
            or args and all(v.kind is JAX for v in args) else None
        if layer is not None:  # nn.Dense(4)(x), self.linear(x): one array (staged: a tracer; in host code, of
            # whatever input, a device array: the layer's operations are jax.numpy's); with its state, first
            array = Value(TRACER if traced_result else JAX, self.context.layer_dtype(call.func, args, self.x64))
            return Shaped(UNKNOWN, members=((("item", 0), array), (("item", 1), UNKNOWN_VALUE))) \
                if layer.get("with_state") else array
        if isinstance(call.func, ast.Attribute):
            if self.traced is not None and traced_input \
                    and self.context.callee(call.func) is None:  # (self.apply_fn: a method of the class)
                for run in self.context.given_runs(call.func):  # state.apply_fn(variables, x): runs traced
                    self.calls.append((run[0], call, args, keywords))
            updated = library.at_update(self, call.func, traced_result)
            if updated is not None:
                return updated
            base = self.values.get(call.func.value, UNKNOWN_VALUE)
            if call.func.attr in MUTATING_METHODS:
                self._changed_in_place(call.func.value, env, call, args)
            if base.kind is GENERATOR:
                return library.generator_method(self, call)
            if base.members and base.member(("call", call.func.attr)) is not None:
                return library.declared(self, call, base.member(("call", call.func.attr)))  # timestep.last()
            reads = call.func.attr in library.MAPPING_READS  # (d.get(...), d.items(): a dict's)
            if base.kind in TREES and not reads and self.traced is not None and self._ran_method(
                    call, args, keywords):
                return UNKNOWN_VALUE  # model.loss(x), model a traced object of a same-file class
            if base.kind in ARRAYS or base.kind in TREES and (not reads or call.func.attr in library.MAPPING_VIEWS):
                return library.method(self, call, base, traced_result)
        record = self.context.record(call.func) if type(call.func) is ast.Name else None
        if record is not None:
            return self._record(call, record, args, keywords)
        jitted_result = _TRANSFORMED_RESULT[traced_input or staged]
        callee = self.context.callee(call.func)
        if callee is not None:
            self.calls.append((callee, call, args, keywords))
            if callee in self.context.jitted_callables:
                if self.context.updates_state(callee):
                    self._updated_objects(call, args, env)
                return shaped(self.context.jitted_result(callee, call), jitted_result.kind)
            built = self.context.builds_jitted(callee)
            if built:
                return builder_result(built)
        elif isinstance(call.func, ast.Call) and self.names.qualname(call.func.func) in self.context.transform_names:
            inner = call.func.args[0] if call.func.args else None
            if inner is not None and self.traced is not None:  # (a def, or those of which one runs)
                transformed = self.context.callee(inner)  # jax.grad(loss)(p), jax.grad(self.loss)(p): loss runs under
                for each in (transformed,) if transformed is not None else self.context.functions_passed(inner):
                    self.calls.append((each, call, args, keywords))  # this trace too (each def loss is given)
            if inner is not None and self.values.get(inner, UNKNOWN_VALUE).traced:
                return _TRANSFORMED_RESULT[True]  # jax.vmap(self.linear)(x): the layer's traced arrays in every result
            return jitted_result  # jax.jit(f)(x), jax.grad(f)(x): device arrays, or tracers in traced code
        elif self.traced is not None and (traced_input or not args or any(
                value.kind is PYTHON for value in args)):  # Model(x), model.apply(v, x), Block()(x, 2), Rx(p).array()
            self._ran_method(call, args, keywords)  # (__init__, __call__, a method of an object built here run traced)
        if func_value.kind is JAX_TREE:  # a name bound to jax.jit(f)
            return jitted_result
        returned = self.context.returned(call, args, keywords)
        if returned is None and func_value.kind is TRACER_TREE:
            return func_value  # self.linear(x), a layer of a traced Module: computed from its traced arrays
        return returned or UNKNOWN_VALUE

    def _jitted_call(self, func, func_value):
        """Whether ``func`` is jitted and writes no state back: it changes no container it is given (measured)."""
        callee = self.context.callee(func)
        return func_value.kind is JAX_TREE or callee in self.context.jitted_callables \
            and not self.context.updates_state(callee)

    def _record(self, call, record, args, keywords):
        """A NamedTuple or dataclass built here: each field holds what the call gives it, a field
        annotated as a JAX array given something unknown an array (a tracer in traced code)."""
        if len(args) > len(record.fields) or any(type(a) is ast.Starred for a in call.args) or None in keywords:
            return UNKNOWN_VALUE
        given = dict(zip((name for name, _ in record.fields), args), **keywords)
        members = []
        for index, (name, array) in enumerate(record.fields):
            value = given.get(name, record.defaults.get(name))  # (a default that names a dtype: a dtype object)
            if value is not None and value.kind is UNKNOWN and array:
                value = Value(TRACER if self.traced is not None else JAX)
            if value is not None and value.kind is not UNKNOWN:
                members.append((("attr", name), value))
                if record.named:
                    members.append((("item", index), value))
        return Shaped(PYTHON, container="tuple" if record.named else "object", members=tuple(members))

    def _updated_objects(self, call, args, env):
        """After ``train_step(model, optimizer, x)`` under nnx.jit, the objects named as
        arguments hold the step's device arrays in their Variables. Not a rebinding: only
        what this path knows of the objects (arrays passed keep what they are)."""
        for expr, value in zip(call.args, args):
            if type(expr) is ast.Name and value.kind is UNKNOWN:
                env.changes[expr.id] = _UPDATED_OBJECT

    def _ran_method(self, call, args, keywords):
        """Whether ``call``, in traced code, runs a same-file method (``methods_called``), recorded for
        tracing to spread to (the tracers it passes; the Python values that keep a Module's parameters static)."""
        methods = self.context.methods_called(call)
        self.calls.extend((method, call, args, keywords) for method in methods)
        return bool(methods)


# A literal number's Value, by its Python type: a weakly typed Python scalar.
NUMBER_LITERALS = {kind: Value(PYTHON, dtypes.literal_dtype(ast.Constant(kind())), weak=True)
                   for kind in (int, float, complex, bool)}
_UPDATED_OBJECT = Value(NNX_GRAPH)
# What calling a transformed function gives: tracers in traced code, device arrays outside it.
_TRANSFORMED_RESULT = {True: Value(TRACER_TREE), False: Value(JAX_TREE)}


def _pairwise(target, value):
    """``a, b = x, y``: literal tuples (or lists) of the same length, nothing starred."""
    sequences = (ast.Tuple, ast.List)
    return isinstance(target, sequences) and isinstance(value, sequences) and len(target.elts) == len(value.elts) \
        and not any(isinstance(e, ast.Starred) for e in target.elts + value.elts)


_STATEMENTS = {
    ast.Expr: FunctionFlow._expression,
    ast.Return: FunctionFlow._expression,
    ast.Assign: FunctionFlow._assign,
    ast.AnnAssign: FunctionFlow._ann_assign,
    ast.AugAssign: FunctionFlow._aug_assign,
    ast.For: FunctionFlow._for,
    ast.AsyncFor: FunctionFlow._for,
    ast.While: FunctionFlow._while,
    ast.If: FunctionFlow._if,
    ast.With: FunctionFlow._with,
    ast.AsyncWith: FunctionFlow._with,
    ast.Try: FunctionFlow._try,
    ast.FunctionDef: FunctionFlow._definition,
    ast.AsyncFunctionDef: FunctionFlow._definition,
    ast.ClassDef: FunctionFlow._definition,
    ast.Import: FunctionFlow._import,
    ast.ImportFrom: FunctionFlow._import,
    ast.Delete: FunctionFlow._delete,
    ast.Match: FunctionFlow._match,
}
_STATEMENTS[ast.TryStar] = FunctionFlow._try
if hasattr(ast, "TypeAlias"):  # Python 3.12+
    _STATEMENTS[ast.TypeAlias] = FunctionFlow._type_alias

_EXPRESSIONS = {
    ast.Name: FunctionFlow._name,
    ast.Constant: FunctionFlow._constant,
    ast.Attribute: FunctionFlow._attribute,
    ast.Subscript: FunctionFlow._subscript,
    ast.BinOp: FunctionFlow._binop,
    ast.UnaryOp: FunctionFlow._unaryop,
    ast.Compare: FunctionFlow._compare,
    ast.BoolOp: FunctionFlow._boolop,
    ast.IfExp: FunctionFlow._ifexp,
    ast.Call: FunctionFlow._call,
    ast.NamedExpr: FunctionFlow._namedexpr,
    ast.ListComp: FunctionFlow._comprehension,
    ast.SetComp: FunctionFlow._comprehension,
    ast.GeneratorExp: FunctionFlow._comprehension,
    ast.DictComp: FunctionFlow._comprehension,
    ast.Lambda: FunctionFlow._lambda,
    ast.List: FunctionFlow._container,
    ast.Tuple: FunctionFlow._container,
    ast.Set: FunctionFlow._container,
    ast.Dict: FunctionFlow._container,
    ast.JoinedStr: FunctionFlow._joinedstr,
}
