"""Classes of a module that hand out jitted functions, from its text alone.

Research code often reaches ``jax.jit`` through an object: ``partitioner.partition(fn)``
returns ``PjittedFn(pjit(fn), mesh)``, whose ``__call__`` calls what its ``__init__``
stored; a Trainer jits its steps in ``__init__`` (``self.train_step = jax.jit(self._step)``).
Three facts of a top-level class say so: the methods that return a jitted
function on every return (``builds_jitted``, inherited ones from a single base in the
same module included), the ``__init__`` parameter whose value calling an instance
calls (``forwards``), and the names whose calls on an instance give device arrays
(``jitted_calls``: an attribute ``__init__`` stores a jitted function in, a method every
return of which calls one, a method a staging decorator jits with ``self`` static). A
jitted function here is a staging transform applied to something (``jax.jit(fn)``), a
call of a module function that returns one (also through a local name bound to such a
function in every branch of an ``if``), an instance of a forwarding class built from one,
or a local name bound once to any of these. Where a step is unknown (another return, a
method decorated otherwise or rebound, a base from elsewhere, the attribute stored again)
the class says nothing.
"""
import ast
import json
import re
from functools import lru_cache

from ...facts import DONATING
from ...patterns import Captured, Pattern
from ..syntax import (defaults, literals, named_options, parameters, positional_names, selects_nothing,
                      static_parameters, walk_own)
from .around import stored_parameters
from .stores import ClassStores, own_stores, bound_names, top_level_classes
from .units import own_body
from .targets import NESTED_SCOPE_TYPES, binding_counts

# The part of a summary that ``class_summary`` gives, as ``Project.summary`` names it (no def has this name).
CLASSES = "(classes)"
# How many local names a returned value may pass through (``fn = make(f); out = Wrap(fn); return out``).
_MAX_DEPTH = 4


def wrapper_classes(tree, is_jit_call, builders, touched):
    """{class name: {"builds_jitted": [method names], "forwards": [index, parameter]}} for
    the module's top-level classes that have either (see the module's docstring).
    ``is_jit_call(call)``: whether a call applies a staging transform that gives arrays;
    ``builders``: the module functions that return a jitted function; ``touched(names)``:
    a test of whether a def's lines name one of ``names`` or a transform (a method whose
    lines name none cannot return a jitted function, and is not read)."""
    classes = top_level_classes(tree)
    if not classes:
        return {}
    found = _Classes(tree, classes, is_jit_call, builders)
    forwards = {name: found.forwards(name) for name in classes}
    found.wrappers = {name: entry for name, entry in forwards.items() if entry is not None}
    test = touched(set(builders) | set(found.wrappers))
    result = {}
    for name in classes:
        methods = sorted(m for m in found.method_names(name) if found.builds(name, m, test))
        entry = {"builds_jitted": methods} if methods else {}
        if name in found.wrappers:
            entry["forwards"] = found.wrappers[name]
        calls, decorated = found.jitted_calls(name, test), found.jitted_methods(name)
        if calls or decorated:
            entry["jitted_calls"] = sorted({*calls, *decorated})
        if calls:  # (what ``__init__`` stores: what a trace of it keeps, what it donates)
            calls = [call for call in calls if found.stores(name).get(call, 0) <= 1]  # (a subclass's is its own)
            kept = found.kept(name, calls)
            if kept:
                entry["kept"] = kept
            donates = found.donates(name, calls)
            if donates:
                entry["donates"] = donates
        if entry:
            result[name] = entry
    return result


def class_needs(name, staging):
    """The bytes patterns a module must match for its class ``name`` to have an entry: a line
    starting ``class <name>`` (``class_line``), and a transform's last name (``staging``: what
    builds a jitted function) or both ``__call__`` and ``__init__`` (what a forwarding class defines)."""
    from .units import word_pattern  # (summarising: see ``modules``)
    needs = (word_pattern(tuple(sorted({*staging, "__call__"}))), word_pattern(tuple(sorted({*staging, "__init__"}))))
    return (*class_line(name), *needs)


@lru_cache(maxsize=1024)
def class_line(name):
    """The bytes patterns of a line starting ``class <name>`` (none for a name that is not ASCII:
    the module's encoding may spell it otherwise): first ``class <name>`` anywhere, which refuses
    most modules (the name is a function's) without a pattern of its own, then at a line's start,
    compiled when first searched."""
    if not name.isascii():
        return ()
    named = rb"class[ \t\\\r\n]+%b(?![\w\x80-\xff])" % re.escape(name.encode())
    return Captured(_CLASS_NAMES, name.encode()), Pattern(rb"[\r\n\f](?:\xef\xbb\xbf)?[ \t\f]*" + named)


# The name after each ``class`` of a module's bytes (``class_line``): a search for the literal, as
# ``GLOBAL_NEEDS`` asks first, and a lookahead, so that no match hides the next ``class``.
_CLASS_NAMES = Pattern(rb"class(?=[ \t\\\r\n]+([\w\x80-\xff]+))")


class _Classes(ClassStores):
    """Method lookup along same-module single bases, and what each method returns."""

    def __init__(self, tree, classes, is_jit_call, builders):
        super().__init__(tree, classes)
        self.is_jit_call = is_jit_call
        self.builders = builders
        self.wrappers = {}  # forwarding class -> [index, parameter], once known
        self._own = {}  # class name -> {method name: undecorated def, or None when bound otherwise}
        self._decorated = {}  # class name -> {method name: its def, bound once under one decorator}
        self._verdicts = {}  # method def -> whether every return gives a jitted function
        self._alike = {}  # class name -> jitted_by_subclasses of it

    def own(self, name):
        if name not in self._own:
            counts, defs, decorated = {}, {}, {}
            for stmt in self.classes[name].body:
                for bound in bound_names(stmt):
                    counts[bound] = counts.get(bound, 0) + 1
                if type(stmt) is ast.FunctionDef:
                    (decorated if stmt.decorator_list else defs)[stmt.name] = stmt
            self._own[name] = {bound: defs.get(bound) if count == 1 else None for bound, count in counts.items()}
            self._decorated[name] = {bound: func for bound, func in decorated.items()
                                     if counts[bound] == 1 and len(func.decorator_list) == 1}
        return self._own[name]

    def lookup(self, name, method):
        """The def an instance of the class ``name`` runs for ``method``, or None."""
        for cls in self.chain(name):
            if cls is None:
                return None
            own = self.own(cls)
            if method in own:
                return own[method]
        return None

    def jitted_methods(self, name):
        """The methods an instance of the class ``name`` runs that a staging decorator jits with ``self``
        static (``@partial(jax.jit, static_argnums=0)``): their calls give device arrays. (A jitted ``self``
        of a class that is no pytree raises instead.)"""
        found, nearer = set(), set()  # (the methods a nearer class binds, which it runs instead)
        for cls in self.chain(name):
            if cls is None:
                break
            for method, func in self._decorated_in(cls).items():
                params = positional_names(func)
                if method not in nearer and params and _static(func.decorator_list[0], params) == {params[0]} \
                        and self.is_jit_call(func):
                    found.add(method)
            nearer.update(self.own(cls))
        return found

    def _decorated_in(self, name):
        self.own(name)
        return self._decorated[name]

    def method_names(self, name):
        return {m for cls in self.chain(name) if cls is not None for m in self.own(cls)}

    def forwards(self, name):
        """[index, parameter] of the ``__init__`` parameter stored in ``self.attr`` that
        ``__call__`` returns the call of (``return self._fn(*args)``), or None."""
        call, init = self.lookup(name, "__call__"), self.lookup(name, "__init__")
        if call is None or init is None or not call.args.args or not init.args.args:
            return None
        returns, _ = _returns_and_stores(call)
        attributes = {r.func.attr if type(r) is ast.Call and _self_attribute([r.func], call) else None
                      for r in returns}
        attribute = attributes.pop() if len(attributes) == 1 else None
        param = stored_parameters(init, self.stores(name)).get(attribute)  # the one store, at the top: self._fn = fn
        return [positional_names(init).index(param) - 1, param] if param is not None else None

    def jitted_calls(self, name, touched):
        """The attributes that ``__init__`` (with the base's it runs, ``_init_statements``) stores a jitted
        function in, unconditionally and nowhere else in the module but where a subclass's ``__init__`` stores one too
        (``jitted_by_subclasses``: a call gives arrays on either object), and the methods every
        return of which calls one (``return self.logits(params, x)``), sorted. An ``__init__``
        whose lines do not pass ``touched`` stores none."""
        statements = [(init, stmt) for init, stmt in self._init_statements(name) if init.args.args and touched(init)]
        assigned = [(init, stmt) for init, stmt in statements if type(stmt) is ast.Assign
                    and _self_attribute(stmt.targets, init)
                    and type(stmt.value) in (ast.Name, ast.Call)]  # (the values _jitted may accept)
        stores = {init: _returns_and_stores(init)[1] for init in {init for init, _ in assigned}}
        attributes = {stmt.targets[0].attr for init, stmt in assigned
                      if self._jitted(stmt.value, stores[init], 0) and self._stored_once(name, stmt.targets[0].attr)}
        methods = set()
        for method in self.method_names(name) if attributes else ():
            func = self.lookup(name, method)
            returns = _returns_and_stores(func)[0] if func is not None and not method.startswith("__") else ()
            if returns and all(type(r) is ast.Call and _self_attribute([r.func], func) and r.func.attr in attributes
                               for r in returns):
                methods.add(method)
        return sorted(attributes | methods)

    def _stored_once(self, name, attribute):
        """Whether the module stores ``attribute`` where an instance of the class ``name`` may hold it
        once, less the stores of its subclasses that jit a function in it too (``jitted_by_subclasses``)."""
        count = self.stores(name).get(attribute)
        return count == 1 or count - self.jitted_by_subclasses(name).get(attribute, 0) == 1

    def jitted_by_subclasses(self, name):
        """{attribute: how many classes deriving from the class ``name`` through same-module single
        bases store a jitted function in it, each once, unconditionally, in its own ``__init__`` and
        nowhere else in its methods} (``self.step = jax.jit(self._step_ok)``)."""
        if name in self._alike:
            return self._alike[name]
        found = self._alike[name] = {}
        for cls in self.classes:
            init = self.own(cls).get("__init__") if cls != name and name in self.chain(cls) else None
            if init is None or not init.args.args:
                continue
            own = own_stores(self.classes[cls])
            stores = _returns_and_stores(init)[1]
            for stmt in init.body:
                if type(stmt) is ast.Assign and _self_attribute(stmt.targets, init) \
                        and own.get(stmt.targets[0].attr) == 1 and self._jitted(stmt.value, stores, 0):
                    found[stmt.targets[0].attr] = found.get(stmt.targets[0].attr, 0) + 1
        return found

    def kept(self, name, calls):
        """{attribute: the attributes of ``self`` its trace reads} for each of ``calls`` that ``__init__``
        stores a jit of a bound method in (``self.train_step = jax.jit(self._train_step)``): the trace
        reads them once, in the method and the methods it reaches on ``self``, and the compiled code
        keeps the values it saw. (Every read counts, as for a method jitted with ``self`` static.) A method
        that reaches one of them on ``self`` (``generate`` calling ``self._next(...)``) keeps what it keeps."""
        kept = {}
        for init, stmt in self._init_statements(name):
            value = stmt.value if type(stmt) is ast.Assign and _self_attribute(stmt.targets, init) else None
            if type(value) is ast.Call and stmt.targets[0].attr in calls and self.is_jit_call(value) \
                    and _self_attribute(value.args[:1], init) and self.lookup(name, value.args[0].attr):
                reads = self._reads(name, value.args[0].attr)
                if reads:
                    kept[stmt.targets[0].attr] = reads
        for method in sorted(self.method_names(name) - set(kept)) if kept else ():
            if method.startswith("__") and method != "__call__":
                continue
            runs = set(self._reads(name, method) or ()) & set(kept)  # ``generate`` calling ``self._next(...)``
            if runs:
                kept[method] = sorted(set().union(*(kept[attr] for attr in runs)))
        return kept

    def _init_statements(self, name):
        """(the def, a statement of it) for the ``__init__`` an instance of ``name`` runs, and the base's
        that a statement ``super().__init__(...)`` of it runs (a subclass storing more after its base's)."""
        found, method = [], "__init__"
        for cls in self.chain(name):
            init = self.own(cls).get(method) if cls is not None and method in self.own(cls) else None
            if cls is None or method in self.own(cls) and init is None:
                break
            if init is not None:
                found += [(init, stmt) for stmt in init.body]
                if not any(map(_runs_super_init, init.body)):
                    break
        return found

    def donates(self, name, calls):
        """{attribute: [the jitted method's parameters after ``self``, [[option, value, condition]]]} for
        each of ``calls`` that ``__init__`` stores a jit of a bound method in with donate_argnums or
        donate_argnames (``self.step = jax.jit(self._step, donate_argnums=(0,) if donate else ())``): each
        option's literal value, and where it is ``A if p else ()`` on a parameter ``p`` of ``__init__``
        never rebound there, ``A`` and ``[p's position after self, p, its default's text or None]``: the
        argument each construction gives ``p`` decides. A base's ``__init__`` that ``super().__init__(...)``
        runs (``_init_statements``) counts with literal options only: the construction gives its arguments
        to the subclass's."""
        statements, found = self._init_statements(name), {}
        first = statements[0][0] if statements else None
        for init, stmt in statements:
            value = stmt.value if type(stmt) is ast.Assign and _self_attribute(stmt.targets, init) else None
            if type(value) is not ast.Call or stmt.targets[0].attr not in calls or not self.is_jit_call(value) \
                    or not _self_attribute(value.args[:1], init):
                continue
            method = self.lookup(name, value.args[0].attr)
            options = [donation(k.value, init, 1) + [k.arg] for k in value.keywords if k.arg in DONATING]
            if method is not None and options and all(len(o) == 3 and (init is first or o[1] is None) for o in options):
                found[stmt.targets[0].attr] = [positional_names(method)[1:], [[o[2], *o[:2]] for o in options]]
        return found

    def _reads(self, name, method):
        """The attributes of ``self`` that ``method`` of the class ``name`` reads, itself or through the
        methods it reaches on ``self``, methods left out; None where one of those is not known."""
        reads, queue, seen = set(), [method], set()
        while queue:
            func = self.lookup(name, queue.pop())
            if func is None:
                return None
            seen.add(func.name)
            me = func.args.args[0].arg if func.args.args else None
            for node in ast.walk(func):
                if type(node) is ast.Attribute and type(node.ctx) is ast.Load and type(node.value) is ast.Name \
                        and node.value.id == me:
                    in_class = node.attr in self.method_names(name)
                    if in_class and node.attr not in seen:
                        queue.append(node.attr)
                    elif not in_class:
                        reads.add(node.attr)
        return sorted(reads)

    def builds(self, name, method, touched):
        func = self.lookup(name, method)
        if func is None or method.startswith("__") or not touched(func):
            return False
        if func not in self._verdicts:
            returns, stores = _returns_and_stores(func)
            self._verdicts[func] = bool(returns) and all(self._jitted(r, stores, 0) for r in returns)
        return self._verdicts[func]

    def _jitted(self, expr, stores, depth):
        """Whether ``expr``, in a def whose local names are bound as ``stores`` says, gives a
        jitted function."""
        if depth > _MAX_DEPTH:
            return False
        if type(expr) is ast.Name:
            values = stores.get(expr.id)
            return values is not None and len(values) == 1 and values[0] is not None \
                and self._jitted(values[0], stores, depth + 1)
        if type(expr) is not ast.Call:
            return False
        if self.is_jit_call(expr):
            return True
        if type(expr.func) is not ast.Name:
            return False
        called = expr.func.id
        if called in stores:  # if cpu: make = pjit_on_cpu, else: make = pjit: every binding a module builder
            values = stores[called]
            return all(type(v) is ast.Name and v.id in self.builders and v.id not in stores for v in values)
        if called in self.builders:
            return True
        wrapped = self.wrappers.get(called)
        argument = forwarded_argument(expr, wrapped) if wrapped is not None else None
        return argument is not None and self._jitted(argument, stores, depth + 1)


def donation(expr, func, skipped=0):
    """[literal text, condition] of a donation option's value in ``func``: a literal's text and None; for
    ``A if p else ()`` or ``A if p.attr else ()`` on a parameter ``p`` of ``func`` never rebound there,
    ``A`` and ``[p's position after the first ``skipped`` parameters, p, its default's text or None]``,
    plus ``attr`` when the condition reads a field of ``p`` that ``func`` may not change (it stores that
    field on nothing and calls no ``setattr``: ``cfg.donate = False`` before the jit); [] when unread."""
    if literals(expr, (int, str)) is not None:
        return [ast.unparse(expr), None]
    test = expr.test if type(expr) is ast.IfExp else None
    field = [test.attr] if type(test) is ast.Attribute else []
    test = test.value if field else test
    params = positional_names(func)
    if type(test) is not ast.Name or test.id not in params[skipped:] or binding_counts(func).get(test.id) != 1 \
            or literals(expr.body, (int, str)) is None or not selects_nothing(expr.orelse) \
            or field and any(type(node) is ast.Attribute and type(node.ctx) is not ast.Load and node.attr == field[0]
                             or type(node) is ast.Name and node.id == "setattr" for node in ast.walk(func)):
        return []
    default = defaults(func).get(test.id)
    return [ast.unparse(expr.body), [params.index(test.id) - skipped, test.id,
                                     ast.unparse(default) if default is not None else None, *field]]


def returned_donation(func, is_jit_call):
    """[position in the returned tuple (None: the return itself), the jitted def's parameters, [[option,
    value, condition]] (``donation``'s, per donating option)] for a factory each of whose returns gives,
    at one position, a jit of a def nested in it with donation options (``return opt, jax.jit(step,
    donate_argnums=(0, 1) if donate else ())``), the same on every return; else None. What a call of
    the factory donates is then decided where it is called, by what it gives the condition's parameter."""
    body = own_body(func)
    if not body or not body[0] or None in body[0]:
        return None
    returns, counts, assigned, defs = body
    found = set()
    for value in returns:
        items = list(enumerate(value.elts)) if type(value) is ast.Tuple else [(None, value)]
        items = [(at, assigned.get(item.id) if type(item) is ast.Name and counts.get(item.id) == 1 else item)
                 for at, item in items]
        jits = [(at, item) for at, item in items if type(item) is ast.Call and is_jit_call(item)]
        jitted = defs.get(jits[0][1].args[0].id) if len(jits) == 1 and type(jits[0][1].args[0]) is ast.Name \
            and counts.get(jits[0][1].args[0].id) == 1 else None
        if jitted is None:
            return None
        options = [donation(k.value, func) + [k.arg] for k in jits[0][1].keywords if k.arg in DONATING]
        if not options or any(len(o) != 3 for o in options):
            return None
        found.add(json.dumps([jits[0][0], positional_names(jitted), [[o[2], *o[:2]] for o in options]]))
    return json.loads(found.pop()) if len(found) == 1 else None


def forwarded_argument(call, forwards):
    """What a call that builds a forwarding class (``forwards``: its ``[index, parameter]``) gives
    it to call, or None when the call does not say plainly."""
    index, parameter = forwards
    if any(type(a) is ast.Starred for a in call.args[:index + 1]):
        return None
    return call.args[index] if index < len(call.args) else next(
        (k.value for k in call.keywords if k.arg == parameter), None)


def _self_attribute(targets, method):
    """Whether ``targets`` is one ``self.<attribute>``, ``self`` the first parameter of ``method``."""
    target = targets[0] if len(targets) == 1 else None
    return type(target) is ast.Attribute and type(target.value) is ast.Name and bool(method.args.args) \
        and target.value.id == method.args.args[0].arg


def _runs_super_init(stmt):
    """Whether the statement is ``super().__init__(...)``."""
    call = stmt.value if type(stmt) is ast.Expr else None
    return type(call) is ast.Call and type(call.func) is ast.Attribute and call.func.attr == "__init__" \
        and type(call.func.value) is ast.Call and type(call.func.value.func) is ast.Name \
        and call.func.value.func.id == "super"


def _returns_and_stores(func):
    """(the values its returns give, None for a bare return or for running off the end;
    {local name: [the value of each binding, None for one other than ``name = value``]})
    for a def's own body. A generator returns nothing; a parameter is a binding with no value."""
    returns = [] if _ends_in_return(func.body) else [None]
    stores = {arg.arg: [None] for arg in parameters(func)}
    assigned = {}
    for node in walk_own(func.body, tuple(NESTED_SCOPE_TYPES)):
        kind = type(node)
        if kind is ast.Return:
            returns.append(node.value)
        elif kind in (ast.Yield, ast.YieldFrom):
            return [], stores
        elif kind is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            assigned[node.targets[0]] = node.value
        elif kind is ast.Name and type(node.ctx) is not ast.Load:
            stores.setdefault(node.id, []).append(assigned.get(node))
        elif kind in NESTED_SCOPE_TYPES and hasattr(node, "name"):
            stores.setdefault(node.name, []).append(None)
        elif kind in (ast.Import, ast.ImportFrom):
            for alias in node.names:
                stores.setdefault((alias.asname or alias.name).split(".")[0], []).append(None)
        elif kind in (ast.Global, ast.Nonlocal):
            for name in node.names:
                stores.setdefault(name, []).extend([None, None])
    return returns, stores


def _ends_in_return(body):
    """Whether no path through ``body`` runs off its end (which would return None)."""
    last = body[-1] if body else None
    if type(last) is ast.Return:
        return True
    if type(last) is ast.If:
        return _ends_in_return(last.body) and _ends_in_return(last.orelse)
    return type(last) in (ast.With, ast.AsyncWith) and _ends_in_return(last.body)


def _static(decorator, params):
    """The parameters among ``params`` that a decorator's literal options keep static
    (``partial(jax.jit, static_argnums=0)``: {"self"}), or None where it has none or they cannot be read."""
    return static_parameters(named_options(decorator.keywords), params) if type(decorator) is ast.Call else None
