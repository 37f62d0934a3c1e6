"""Scopes and bindings: what a name refers to, resolved the way Python does.

One iterative pass records every scope, the bindings in it, the scope of every
node and every node's parent. Names are resolved through scopes, never matched
as text, so a local variable called ``np`` is not NumPy.
"""
import ast
import builtins
import weakref
from functools import partial

from .. import api
from ..record import Constants

from .syntax import (COMPREHENSIONS, FUNCTION_NODES, NESTED_SCOPES, bound_qualname, child_fields, entries_looked_up,
                     import_bindings, lookup_key, method_in, parameters, table_entries, walk_evaluated)

BUILTINS = frozenset(dir(builtins))
# How deep an alias chain (``jit = jax.jit``) is followed.
_MAX_ALIAS_DEPTH = 8


class BindingKind(Constants):
    """How a binding gives its name a value."""

    IMPORT = "import"
    ASSIGN = "assign"  # a plain assignment to the name alone: its value is known
    DEF = "def"
    CLASS = "class"
    PARAM = "param"
    GLOBAL = "global"  # a function's assignment to a module name it declares ``global``
    OTHER = "other"  # any other binding: a tuple target, a loop variable, an except or match name, ``del``


# Bindings that make a name a module, function or class: never a value a pass computes.
# (A tuple: members compare by identity, where a set would hash each through Enum.__hash__.)
DEFINITIONS = (BindingKind.IMPORT, BindingKind.DEF, BindingKind.CLASS)


class Binding:
    """One way a name gets a value in a scope."""

    __slots__ = ("kind", "node", "qualname", "value", "stmt")

    def __init__(self, kind, node, qualname=None, value=None, stmt=None):
        self.kind = kind  # a BindingKind
        self.node = node
        self.qualname = qualname  # for imports: the dotted module path bound
        self.value = value  # for plain assignments: the assigned expression
        self.stmt = stmt  # the statement that binds

    def unpacked(self):
        """(the call, the position) of a name that unpacking a call's result binds (``_, data = setup(cfg)``)."""
        stmt = self.stmt
        if type(stmt) is not ast.Assign or len(stmt.targets) != 1 or type(stmt.targets[0]) is not ast.Tuple \
                or type(stmt.value) is not ast.Call or any(type(e) is ast.Starred for e in stmt.targets[0].elts):
            return None
        return next(((stmt.value, i) for i, element in enumerate(stmt.targets[0].elts) if element is self.node), None)


class Scope:
    __slots__ = ("node", "parent", "bindings", "globals", "nonlocals", "is_function", "is_class", "function")

    def __init__(self, node, parent):
        self.node = node
        self.parent = parent
        self.bindings = {}
        self.globals = set()
        self.nonlocals = set()
        self.is_function = isinstance(node, FUNCTION_NODES)
        self.is_class = isinstance(node, ast.ClassDef)
        # the innermost def or lambda this scope is in (through classes), or None
        self.function = node if self.is_function else parent.function if parent is not None else None

    def bind(self, name, binding):
        self.bindings.setdefault(name, []).append(binding)


class Names:
    """Parents, scopes and name resolution for one module."""

    def __init__(self, tree):
        self.tree = tree
        self.parent = {}
        self.scope_of = {}  # node -> innermost Scope it is evaluated in
        self.scopes = {}  # scope-creating node -> Scope
        self.module_scope = Scope(tree, None)
        self.scopes[tree] = self.module_scope
        self.global_rebinds = {}  # name -> statements in functions that rebind a module global
        self.functions = []  # every def and lambda, in source order
        self.by_type = {}  # node type -> every node of that type, in walk order
        self._own = {}  # def or lambda -> its own_nodes
        self._returns = self._generators = None  # def -> the values its returns give; defs that yield (on demand)
        self._reads = None  # name -> the Name nodes that read it, built on the first question
        self._build(tree)
        # The dotted name an expression refers to (``jax.numpy.exp``), or None.
        self.qualname = _Kept(partial(_qualname, self.scope_of, self.module_scope, {})).__getitem__
        # The def or lambda that a name or ``self.method`` refers to, if unique, or None (a proxy of the
        # Names, so that no reference cycle keeps a module's model alive while the collector is off).
        self.function_bound_to = _Kept(partial(_function_bound_to, weakref.proxy(self))).__getitem__

    @property
    def calls(self):
        """Every call, in walk order (for the transform and lax-body search)."""
        return self.by_type.get(ast.Call, [])

    # ---- building -------------------------------------------------------
    def _build(self, tree):
        parent, scope_of, by_type = self.parent, self.scope_of, self.by_type
        enter_types, Name, Constant, Load = _ENTER_TYPES, ast.Name, ast.Constant, ast.Load
        fields_of = {}  # node type -> its child_fields, without a call per node
        names, constants = [], []  # the two commonest leaves, collected without a by_type lookup each
        stack = [(tree, self.module_scope)]
        pop, push = stack.pop, stack.append
        while stack:
            node, scope = pop()
            scope_of[node] = scope
            kind = type(node)
            if kind is Name:
                names.append(node)
                if type(node.ctx) is not Load:
                    self._bind_target(node, scope)
                continue
            if kind is Constant:
                constants.append(node)
                continue
            of_kind = by_type.get(kind)
            if of_kind is None:
                by_type[kind] = [node]
            else:
                of_kind.append(node)
            inner = self._enter(node, scope) if kind in enter_types else None
            # Fields and items are pushed last-first so that they pop in source order
            # (`global x` is seen before `x = ...`).
            fields = fields_of.get(kind)
            if fields is None:
                fields = fields_of[kind] = child_fields(kind)
            for field in fields:
                value = getattr(node, field, None)
                if value is None:
                    continue
                child_scope = scope if inner is None else self._scope_for_child(node, field, scope, inner)
                if type(value) is list:  # of nodes (a dict's keys may hold None)
                    for child in reversed(value):
                        if child is not None:
                            parent[child] = node
                            push((child, child_scope))
                elif isinstance(value, ast.AST):
                    parent[value] = node
                    push((value, child_scope))
        for kind, found in ((Name, names), (Constant, constants)):
            if found:
                by_type[kind] = found

    def _scope_for_child(self, node, field, outer, inner):
        """Decorators, defaults and annotations live outside the new scope."""
        if isinstance(node, FUNCTION_NODES):
            return inner if field in ("body", "args") else outer
        if isinstance(node, ast.ClassDef):
            return inner if field == "body" else outer
        if isinstance(node, COMPREHENSIONS):
            return inner  # the first iterable is close enough to inner for our questions
        return outer

    def _enter(self, node, scope):
        """Record the bindings ``node`` makes; return the scope it opens, if any."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            kind = BindingKind.CLASS if isinstance(node, ast.ClassDef) else BindingKind.DEF
            scope.bind(node.name, Binding(kind, node, stmt=node))
        if isinstance(node, NESTED_SCOPES):
            type_params = getattr(node, "type_params", None)  # def f[T](...), class C[T] (3.12+)
            if type_params:
                scope = Scope(None, scope)  # the annotation scope that holds them, as Python makes
                for param in type_params:
                    scope.bind(param.name, Binding(BindingKind.OTHER, param))
            inner = Scope(node, scope)
            self.scopes[node] = inner
            if isinstance(node, FUNCTION_NODES):
                self.functions.append(node)
                for arg in parameters(node):
                    inner.bind(arg.arg, Binding(BindingKind.PARAM, arg))
            return inner
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for name, binding in import_bindings(node):
                scope.bind(name, Binding(BindingKind.IMPORT, node, bound_qualname(binding), stmt=node))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            (scope.globals if isinstance(node, ast.Global) else scope.nonlocals).update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            scope.bind(node.name, Binding(BindingKind.OTHER, node, stmt=node))
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:  # case x:, case [*x]:
            scope.bind(node.name, Binding(BindingKind.OTHER, node))
        elif isinstance(node, ast.MatchMapping) and node.rest:  # case {**x}:
            scope.bind(node.rest, Binding(BindingKind.OTHER, node))
        return None

    def _bind_target(self, name_node, scope):
        parent = self.parent[name_node]
        if type(parent) is ast.Assign or type(parent) is ast.AnnAssign:  # a whole target: x = ..., x: T = ...
            stmt, value = parent, parent.value
        else:  # a part of a target (a, b = ...), a loop variable, a with or walrus target, del x
            stmt = self.statement_of(parent)
            value = self._displayed_part(name_node, stmt) if type(stmt) is ast.Assign else None
        kind = BindingKind.ASSIGN if value is not None else BindingKind.OTHER
        if name_node.id in scope.globals and scope.is_function:
            self.module_scope.bind(name_node.id, Binding(BindingKind.GLOBAL, name_node, value=value, stmt=stmt))
            self.global_rebinds.setdefault(name_node.id, []).append(stmt)
            return
        if name_node.id in scope.nonlocals:
            return
        if type(parent) is ast.NamedExpr and isinstance(scope.node, COMPREHENSIONS):
            scope = self._function_or_module(scope)  # walrus binds in the enclosing scope
        scope.bind(name_node.id, Binding(kind, name_node, value=value, stmt=stmt))

    def _displayed_part(self, name_node, stmt):
        """The expression a part of a tuple target takes from the display assigned to it, of the same
        shape (``model, (x, y) = Net(key), data()``: ``Net(key)``), or None (a call's result, ``*rest``)."""
        displays, node = [], name_node  # (the target display, the part's index in it), innermost first
        while self.parent[node] is not stmt:
            display = self.parent[node]
            if type(display) not in (ast.Tuple, ast.List):
                return None
            displays.append((display, display.elts.index(node)))
            node = display
        value = stmt.value if len(stmt.targets) == 1 else None
        for display, index in reversed(displays):
            if type(value) not in (ast.Tuple, ast.List) or len(value.elts) != len(display.elts) \
                    or any(type(e) is ast.Starred for e in (*value.elts, *display.elts)):
                return None
            value = value.elts[index]
        return value

    def _function_or_module(self, scope):
        while isinstance(scope.node, COMPREHENSIONS):
            scope = scope.parent
        return scope

    # ---- questions --------------------------------------------------------
    def statement_of(self, node):
        """The innermost statement containing ``node``."""
        while node is not None and not isinstance(node, ast.stmt):
            node = self.parent.get(node)
        return node

    def enclosing_function(self, node):
        """The innermost def or lambda whose body contains ``node``, or None."""
        scope = self.scope_of.get(node)
        return scope.function if scope is not None else None

    def own_nodes(self, func):
        """Nodes that run when ``func``'s body runs: not nested defs' bodies, not annotations.
        Kept per function: the model and several checks walk the same traced functions."""
        try:
            return self._own[func]
        except KeyError:
            found = self._own[func] = tuple(walk_evaluated(func.body if isinstance(func.body, list) else [func.body]))
            return found

    def returned_values(self, func):
        """The expressions the ``return`` statements of a def give (None for a bare ``return``);
        empty for a generator or a def without one."""
        if self._returns is None:  # one pass over the index, not a walk of each def
            self._returns = {}
            for node in self.by_type.get(ast.Return, ()):
                self._returns.setdefault(self.enclosing_function(node), []).append(node.value)
            self._generators = {self.enclosing_function(node) for kind in (ast.Yield, ast.YieldFrom)
                                for node in self.by_type.get(kind, ())}
        return [] if func in self._generators else self._returns.get(func, [])

    def reaching_binding(self, func, name):
        """The binding of ``func``'s local ``name`` (a Name read in its own body; ``func`` may be the
        module, for a read at its top level) that the read reaches: the one binding, made before
        it, or the last one of the body's statements before the reading one; None when the body
        does not say (a binding nested in an ``if`` or a loop, another inside the reading statement,
        a closure's name, a global a function rebinds)."""
        if not self.is_local(name.id, func) or (self.enclosing_function(name) or self.tree) is not func \
                or func is self.tree and self.scope_of[name] is not self.module_scope:
            return None  # a closure's name, or one read in a helper the branch was followed into
        bindings = self.scopes[func].bindings.get(name.id, ())
        if len(bindings) == 1:
            binding = bindings[0]
            if binding.kind is BindingKind.PARAM:
                return binding
            statement = binding.stmt
            if binding.kind is BindingKind.ASSIGN and statement is not None \
                    and (self.enclosing_function(statement) or self.tree) is func \
                    and statement.end_lineno < name.lineno:
                return binding
            return None
        reader = self._body_statement(func, name)
        if reader is None:
            return None
        index = func.body.index(reader)
        placed = {}  # binding -> the index of the body statement that holds it
        for binding in bindings:
            if binding.kind is BindingKind.PARAM:
                continue
            if binding.kind is BindingKind.GLOBAL:
                return None  # made whenever the function that rebinds it runs
            statement = self._body_statement(func, binding.node)
            if statement is None or statement is reader and binding.stmt is not reader:
                return None  # bound where the body does not order it, or again inside the reading statement
            placed[binding] = func.body.index(statement)
        earlier = [binding for binding, at in placed.items() if at < index]
        if not earlier:
            params = [b for b in bindings if b.kind is BindingKind.PARAM]
            return params[0] if params else None
        last = max(earlier, key=placed.get)
        return last if last.stmt in func.body else None  # nested in an if or a loop: it may not have run

    def _body_statement(self, func, node):
        """The statement of ``func``'s own body that holds ``node`` (None for a lambda's)."""
        if isinstance(func, ast.Lambda):
            return None
        statement = self.statement_of(node)
        while statement is not None and self.parent.get(statement) is not func:
            statement = self.statement_of(self.parent.get(statement))
        return statement if statement in func.body else None

    def reads(self, name):
        """Every Name node that reads ``name`` in the module, from one index built on the first
        question (the key and dtype checks and the instances of traced objects all ask)."""
        if self._reads is None:
            self._reads = {}
            for node in self.by_type.get(ast.Name, ()):
                if type(node.ctx) is ast.Load:
                    self._reads.setdefault(node.id, []).append(node)
        return self._reads.get(name, ())

    def is_local(self, name, func):
        """True when ``name`` is bound in ``func``'s own scope (parameters included)."""
        scope = self.scopes[func]
        return name in scope.bindings and name not in scope.globals and name not in scope.nonlocals

    def lookup(self, name, scope):
        """(scope, bindings) that ``name`` refers to from ``scope``; None for builtins/unknown."""
        return _lookup(name, scope, self.module_scope)

    def resolve_name(self, node):
        """(scope, bindings) for a Name node."""
        return _lookup(node.id, self.scope_of[node], self.module_scope)

    def function_arms(self, node):
        """The functions of which one runs, when each names a function (``self.function_bound_to``):
        the arms of ``a if cond else b``, or the values of a module-level dict display looked up by
        a key that is not a constant (``LOSSES[cfg.loss]``: every one may run; a constant key, the
        one it names), written at ``node`` or given by a Name's one assignment; else ()."""
        chosen = self.assigned_value(node) if type(node) is ast.Name else node
        kind = type(chosen)
        arms = (chosen.body, chosen.orelse) if kind is ast.IfExp else self.looked_up(chosen) if kind is ast.Subscript \
            else ()
        return arms if arms and all(self.function_bound_to(arm) for arm in arms) else ()

    def looked_up(self, subscript):
        """The values of the module-level dict display that ``subscript`` indexes that its key may
        give (``entries_looked_up``), or ()."""
        table = self.one_binding(subscript.value, BindingKind.ASSIGN, module_level=True) \
            if type(subscript.value) is ast.Name else None
        entries = table_entries(table.value) if table is not None and type(table.value) is ast.Dict else None
        return tuple(entries_looked_up(entries, lookup_key(subscript))) if entries else ()

    def constant_given(self, value):
        """The Constant node ``value`` is, or that a Name bound once is given (``rate = 0.0``, ``key,
        rate = k, 0.0``), else None."""
        binding = self.one_binding(value) if type(value) is ast.Name else None
        if binding is not None and type(binding.stmt) is ast.Assign:
            source = binding.stmt.value
            for target in binding.stmt.targets:
                if target is binding.node:
                    value = source
                elif type(target) is ast.Tuple and type(source) is ast.Tuple and len(target.elts) == len(source.elts) \
                        and binding.node in target.elts:
                    value = source.elts[target.elts.index(binding.node)]
        return value if type(value) is ast.Constant else None

    def one_binding(self, node, kind=None, module_level=False):
        """The one binding (of ``kind``, when given; at module level, when ``module_level``) that a
        Name node refers to; None for another node, a builtin, or a name bound more than once."""
        found = _lookup(node.id, self.scope_of[node], self.module_scope) if type(node) is ast.Name else None
        if not found or len(found[1]) != 1 or module_level and found[0] is not self.module_scope:
            return None
        return found[1][0] if kind is None or found[1][0].kind is kind else None

    def parameter_of(self, node):
        """The def or lambda whose parameter, bound once, a Name node reads (its own or an enclosing one's), or None."""
        binding = self.one_binding(node, BindingKind.PARAM)
        return self.scope_of[binding.node].node if binding is not None else None

    def functions_made_by(self, call, through_method=True):
        """The defs a factory call may give (``_returned_function``): the one its factory makes
        (``make_schedule(...)``), or what each factory of a dict looked up makes (``MAKERS[name](...)``,
        ``function_arms``; an entry whose factory makes no def of the file gives none), or, for a call
        of a method (``self.make_step(cfg)``), what each factory call it returns makes (one method deep)."""
        method = self.function_bound_to(call.func) if through_method and type(call.func) is ast.Attribute else None
        if method is not None:
            return tuple(func for value in self.returned_values(method) if type(value) is ast.Call
                         for func in self.functions_made_by(value, through_method=False))
        factories = (call.func,) if type(call.func) is ast.Name else self.function_arms(call.func)
        made = (_returned_function(self, self.function_bound_to(factory)) for factory in factories)
        return tuple(func for func in made if func is not None)

    def assigned_value(self, node):
        """The expression a Name node's one binding, a plain assignment, gives it (``fast`` of
        ``fast = jax.jit(f)``), else None."""
        binding = self.one_binding(node, BindingKind.ASSIGN)
        return binding.value if binding is not None else None


class _Kept(dict):
    """Answers kept per node, for questions whose answer never changes once the names are
    built: ``kept[node]`` asks ``answer(node)`` the first time only, and a repeated question
    is a dict lookup in C with no Python call (the checks and forward passes ask ``qualname``
    about 600,000 times on the research corpus). ``answer`` holds the name tables, not the
    Names, so no reference cycle keeps a module's model alive."""

    __slots__ = ("answer",)

    def __init__(self, answer):
        super().__init__()
        self.answer = answer

    def __missing__(self, node):
        found = self[node] = self.answer(node)
        return found


def _lookup(name, scope, module_scope):
    """(scope, bindings) that ``name`` refers to from ``scope``, as Python resolves it."""
    if name in scope.globals and (scope.is_function or isinstance(scope.node, COMPREHENSIONS)):
        bindings = module_scope.bindings.get(name)
        return (module_scope, bindings) if bindings else None
    start = scope
    while scope is not None:
        bindings = scope.bindings.get(name)
        if bindings is not None and (scope is start or not scope.is_class) and name not in scope.nonlocals:
            return scope, bindings
        scope = scope.parent
    return None


def _qualname(scope_of, module_scope, roots, expr, depth=0):
    """The dotted name ``expr`` refers to through imports and plain aliases, or None. ``roots``
    keeps the answer for a name read from a scope: every read of ``jnp`` or ``self`` there is alike."""
    attributes = []
    while type(expr) is ast.Attribute:  # a loop, not recursion: chains can be thousands long
        attributes.append(expr.attr)
        expr = expr.value
    if type(expr) is not ast.Name:
        return None
    if depth:  # an alias's value (xp = jnp): rare, not kept
        base = _name_qualname(expr, scope_of, module_scope, depth)
    else:
        root = (scope_of[expr], expr.id)
        base = roots.get(root, roots)
        if base is roots:
            base = roots[root] = _name_qualname(expr, scope_of, module_scope, 0)
    if base is None or not attributes:
        return base
    dotted = ".".join([base, *reversed(attributes)])
    return api.framework_aliases().get(dotted, dotted)  # nn.relu is jax.nn.relu


def _name_qualname(expr, scope_of, module_scope, depth):
    if depth > _MAX_ALIAS_DEPTH:
        return None
    found = _lookup(expr.id, scope_of[expr], module_scope)
    if found is None:
        return f"builtins.{expr.id}" if expr.id in BUILTINS else None
    scope, bindings = found
    qualnames = set()
    for binding in bindings:
        if binding.kind is BindingKind.IMPORT and binding.qualname:
            qualnames.add(binding.qualname)
        elif binding.kind is BindingKind.ASSIGN and not scope.is_class \
                and isinstance(binding.value, (ast.Name, ast.Attribute)):
            qualnames.add(_qualname(scope_of, module_scope, None, binding.value, depth + 1))
        else:
            return None
    return qualnames.pop() if len(qualnames) == 1 else None


def _function_bound_to(names, expr):
    """The def/lambda node that a name (bound once, by a def or to a lambda, or, read at the top of
    the module, bound so by the binding the read reaches: ``init = jax.jit(init)``), ``self.method``
    or a classmethod or staticmethod read from its class (``Model.from_config``) refers to."""
    scope_of, module_scope = names.scope_of, names.module_scope
    kind = type(expr)
    if kind is ast.Lambda:
        return expr
    if kind is ast.Name:
        found = _lookup(expr.id, scope_of[expr], module_scope)
        if not found:
            return None
        binding = found[1][0] if len(found[1]) == 1 else names.reaching_binding(names.tree, expr)
        if binding is None:
            return None
        if binding.kind is BindingKind.DEF:
            return binding.node
        # f = lambda x: ...: the name is the lambda's, as a def's name is the def's
        return binding.value if binding.kind is BindingKind.ASSIGN and type(binding.value) is ast.Lambda else None
    if kind is ast.Attribute and type(expr.value) is ast.Name and expr.value.id in ("self", "cls"):
        scope = scope_of.get(expr)
        while scope is not None and not scope.is_class:
            scope = scope.parent
        if scope is not None:
            return method_in(scope.node, expr.attr)
    if kind is ast.Attribute and type(expr.value) is ast.Name:  # Model.from_config: a class's own
        found = _lookup(expr.value.id, scope_of[expr.value], module_scope)  # classmethod or staticmethod
        if found and len(found[1]) == 1 and found[1][0].kind is BindingKind.CLASS:
            method = method_in(found[1][0].node, expr.attr)
            if method is not None and {d.id for d in method.decorator_list if type(d) is ast.Name} \
                    & {"classmethod", "staticmethod"}:
                return method
    return None


def _returned_function(names, factory):
    """The undecorated def (or lambda) that the same-file factory def ``factory`` makes in its own
    body and returns from every ``return`` (``def make_schedule(...): def schedule(step): ...;
    return schedule``), or None: a decorator may give another function."""
    if type(factory) is not ast.FunctionDef:
        return None
    returned = {names.function_bound_to(value) if type(value) in (ast.Name, ast.Lambda) else None
                for value in names.returned_values(factory)}
    made = returned.pop() if len(returned) == 1 else None
    return made if made is not None and names.enclosing_function(made) is factory \
        and not getattr(made, "decorator_list", None) else None


# The node types that open a scope or bind names (Names._enter), tested by type in the build loop.
_ENTER_TYPES = frozenset(NESTED_SCOPES + (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ExceptHandler,
                                          ast.MatchAs, ast.MatchStar, ast.MatchMapping))
