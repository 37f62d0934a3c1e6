"""Where a module applies a transform, wherever it does: the roots of the project's reach.

One walk of the module finds every application: decorators (of top-level defs, methods
and nested defs), a transform called anywhere (``jax.jit(f)(x)``, ``fast =
jax.jit(solve)`` in a function, ``self.step = jax.jit(self._step)`` in ``__init__``,
``jax.jit(partial(f, model=m))``, ``jax.jit(jax.vmap(f))``) and ``partial(jax.jit,
...)(f)``. Its target is a *unit* of the module, named by its qualified name
(``Trainer._step``, ``outer.inner``), or an imported function (or the method of an
object of an imported class, ``jax.jit(counter.count)``), which the reach looks up in
its own module: among the methods of its classes (``run_methods``, ``plain_methods``)
for a method. Names resolve as Python resolves them (the innermost def first,
class bodies skipped); a name bound more than once, or by anything but a def or an
import, names nothing known, and is left silent.
"""
import ast
import bisect
import re
from functools import lru_cache

from ..constructors import dataclass_fields_of
from ..parameters import applied_parameters, transform_options
from ..syntax import (PARTIAL, STATIC_NAMES, STATIC_NUMBERS, child_fields, child_nodes, class_body_names,
                      imported_qualname, named_options, parameters, positional_names, selected_arguments,
                      split_attributes, transform_spec)
from ..applied import LINEN_COMPACT, LINEN_MODULES
from .targets import BINDING_STATEMENTS, NESTED_SCOPE_TYPES, PASSED_FUNCTION, bound_by, table_entry

DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# Decorators after which a method read from ``self`` binds no first parameter.
_UNBOUND = frozenset({"staticmethod", "classmethod"})
# The methods that calling a class (``Model(x)``) or its instance (``model(x)``) runs.
RUN_METHODS = ("__init__", "__call__")


def applications(tree, imports, transforms, lines=None, module_counts=None):
    """(roots, applied, units) for the module ``tree``: roots [[unit, transform, traced
    parameters, line]] for its own defs (line: the def's for a decorator, else the
    application's); applied [[import binding, attributes, transform, positions bound,
    names bound, static positions, static names, line]] for imported functions; units
    {unit: def} of the roots: the applications of every transform, as each traces what it is given
    (``jax.grad``'s tracers reach the callees too), but for one that is not abstract inside a unit
    an abstract one traces (``_Reader.finish``);
    ``lines`` (``TransformLines``): only statements on lines that name one are read;
    ``module_counts``: how many times the whole module binds each name at its top level,
    when ``tree`` holds only a part of it."""
    reader = _Reader(tree, imports, transforms, lines)
    module = _Scope(tree, None, "")
    if module_counts:
        module.lookup("")
        module.counts_at_least(module_counts)
    reader.walk(tree.body, (module,))
    return reader.finish()


def run_methods(tree, imports):
    """({"Model.__init__": def}, {"Module.__call__": def}): the methods that calling a
    top-level class (``Model(x)``) or its instance (``model(x)``) runs, defined once in the
    class body, undecorated, and apart the ``__call__`` of each Flax linen Module (its calls
    run through ``apply``; ``@nn.compact`` allowed); none of a class defined twice."""
    classes, found, linen = {}, {}, {}
    for stmt in tree.body:
        if type(stmt) is ast.ClassDef:
            classes[stmt.name] = classes.get(stmt.name, 0) + 1
    for stmt in tree.body:
        if type(stmt) is not ast.ClassDef or classes[stmt.name] != 1:
            continue
        is_linen = any(imported_qualname(base, imports) in LINEN_MODULES for base in stmt.bases)
        defs = [s for s in stmt.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign))]
        for name in ("__call__",) if is_linen else RUN_METHODS:
            bound = [s for s in defs if getattr(s, "name", None) == name
                     or type(s) is ast.Assign and any(getattr(t, "id", None) == name for t in s.targets)]
            if len(bound) == 1 and type(bound[0]) is ast.FunctionDef and all(
                    is_linen and imported_qualname(d, imports) in LINEN_COMPACT for d in bound[0].decorator_list):
                (linen if is_linen else found)[f"{stmt.name}.{name}"] = bound[0]
    return found, linen


def construction_hooks(tree, imports):
    """{"Batch": ("__post_init__", ["x", "y"])}: the top-level dataclasses, each defined once, whose
    generated ``__init__`` runs their own undecorated ``__post_init__`` on the fields it is given
    (``constructors.dataclass_fields_of``), so ``Batch(x, y)`` in another module's traced code runs it."""
    classes = [stmt for stmt in tree.body if type(stmt) is ast.ClassDef]
    names = [cls.name for cls in classes]
    found = {}
    for cls in classes:
        hooks = [stmt for stmt in cls.body if type(stmt) in DEFS and stmt.name == "__post_init__"]
        if names.count(cls.name) != 1 or len(hooks) != 1 or hooks[0].decorator_list \
                or "__init__" in class_body_names(cls):
            continue
        fields = dataclass_fields_of(cls, lambda expr: imported_qualname(expr, imports))
        if fields:
            found[cls.name] = (hooks[0].name, [field.id for field in fields])
    return found


def plain_methods(tree, imports, of_linen=False):
    """{"Counter.count": def} for the undecorated methods, each defined once, of the top-level
    classes defined once that are no linen Module (whose methods run through ``apply``): what
    ``jax.jit(counter.count)`` in another module traces, ``counter`` holding a ``Counter``.
    ``of_linen``: those of the linen Modules instead, what ``model.apply(variables, x,
    method=Model.encode)`` runs."""
    classes = [stmt for stmt in tree.body if type(stmt) is ast.ClassDef]
    names = [cls.name for cls in classes]
    found = {}
    for cls in classes:
        if names.count(cls.name) != 1 \
                or any(imported_qualname(b, imports) in LINEN_MODULES for b in cls.bases) is not of_linen:
            continue
        defs = [stmt.name for stmt in cls.body if type(stmt) in DEFS]
        for stmt in cls.body:
            if type(stmt) is ast.FunctionDef and not stmt.decorator_list and defs.count(stmt.name) == 1:
                found[f"{cls.name}.{stmt.name}"] = stmt
    return found


def inherited_methods(tree, methods):
    """{"Net.__call__": "Base.__call__"} for the ``methods`` (by unit) of the module's top-level
    classes that a top-level subclass inherits: its single base is such a class (or one that
    inherits it, and so on up) and its body binds no such name. ``__init__`` only through
    undecorated classes below the one that defines it: a dataclass writes its own."""
    classes = [stmt for stmt in tree.body if type(stmt) is ast.ClassDef]
    names = [cls.name for cls in classes]
    bases = {cls.name: cls.bases[0].id for cls in classes if names.count(cls.name) == 1 and len(cls.bases) == 1
             and type(cls.bases[0]) is ast.Name and names.count(cls.bases[0].id) == 1}
    bound = {cls.name: class_body_names(cls) for cls in classes if cls.name in bases}
    plain = {cls.name: not cls.decorator_list and not cls.keywords for cls in classes}
    found = {}
    for name in bases:
        base, seen, shadowed, undecorated = bases[name], {name}, bound[name], plain[name]
        while base not in seen:
            for unit in methods:
                method = unit[len(base) + 1:]
                if unit.startswith(base + ".") and (method != "__init__" or undecorated) \
                        and method not in shadowed and f"{name}.{method}" not in found:
                    found[f"{name}.{method}"] = unit
            seen.add(base)
            if base not in bases:
                break
            shadowed = shadowed | bound[base]  # (a name the class between binds is its own)
            undecorated = undecorated and plain[base]
            base = bases[base]
    return found


class TransformLines:
    """The lines of a module's text that name a transform (its last name, ``jit`` of
    ``jax.jit``, or a name an import binds to one): an application is on one of them, so
    a statement that spans none applies nothing, and need not be walked. ``also``: more
    names whose lines count (the module's functions that return a jitted function)."""

    def __init__(self, source, imports, transforms, also=()):
        names = {name.rsplit(".", 1)[1] for name in transforms} | set(also) | {
            local for local, binding in imports.items() if imported_qualname(ast.Name(local), imports) in transforms}
        pattern = word_pattern(tuple(sorted(names)))
        self.lines, self.offsets, line, offset = [], [], 1, 0
        for match in pattern.finditer(source):
            line += source.count(b"\n", offset, match.start())
            offset = match.start()
            self.offsets.append(offset)
            if not self.lines or self.lines[-1] != line:
                self.lines.append(line)

    def touched(self, node):
        """Whether a line of ``node`` (its decorators included) names a transform."""
        start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        index = bisect.bisect_left(self.lines, start)
        return index < len(self.lines) and self.lines[index] <= node.end_lineno


@lru_cache(maxsize=256)
def word_pattern(words):
    """A bytes pattern that finds any of ``words`` (a sorted tuple) as a whole word. The
    lookahead for their first bytes lets the search step over most positions at once, where
    the bare alternation tries every word at every word boundary (some 1.7x faster)."""
    encoded = [re.escape(word.encode()) for word in words]
    first = rb"(?=[" + b"".join(sorted({re.escape(word.encode()[:1]) for word in words})) + rb"])" if words else b""
    return re.compile(rb"\b" + first + rb"(?:" + b"|".join(encoded) + rb")\b")


def returned_def(factory):
    """The def nested in ``factory`` (directly in its body, undecorated) that every return
    of ``factory`` gives, or None: the function ``jax.jit(make_train(cfg))`` traces, with
    the factory's parameters as Python closure values."""
    inner = {stmt.name: stmt for stmt in factory.body if type(stmt) in DEFS and not stmt.decorator_list}
    body = own_body(factory) if inner else None
    if body is None:
        return None
    returns = {value.id if type(value) is ast.Name else None for value in body[0]}
    name = returns.pop() if len(returns) == 1 else None
    return inner.get(name) if body[1].get(name) == 1 else None


def own_body(func):
    """What the body of the def ``func`` says outside its nested scopes: ([what each ``return``
    gives], {name: how many times it is bound}, {name: the value of a plain ``name = value``},
    {name: the def nested under that name}), or None for a generator."""
    returns, counts, assigned, defs = [], {}, {}, {}
    stack = list(func.body)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Return:
            returns.append(node.value)
        elif kind is ast.Yield or kind is ast.YieldFrom:
            return None
        elif kind is ast.Name and type(node.ctx) is not ast.Load:
            counts[node.id] = counts.get(node.id, 0) + 1
        elif kind is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            assigned[node.targets[0].id] = node.value
        elif kind in DEFS or kind is ast.ClassDef:
            counts[node.name] = counts.get(node.name, 0) + 1
            if kind in DEFS:
                defs[node.name] = node
        if kind not in NESTED_SCOPE_TYPES:
            stack.extend(child_nodes(node))
    return returns, counts, assigned, defs


def _lambda_def(lambda_):
    """A lambda as the def it stands for, ``def <lambda>(x): return body``, for the summaries'
    readers of defs (its calls, its parameters)."""
    func = ast.FunctionDef(name="<lambda>", args=lambda_.args, body=[ast.Return(lambda_.body)],
                           decorator_list=[], returns=None, type_params=[])
    for node in (func, func.body[0]):
        ast.copy_location(node, lambda_)
        node.end_lineno, node.end_col_offset = lambda_.end_lineno, lambda_.end_col_offset
    return func


class _Scope:
    """A def, a class body or the module: how many times each name is bound in it, and the
    defs bound there (computed when a name is first resolved through it)."""

    __slots__ = ("node", "owner", "prefix", "_counts", "_defs", "_values")

    def __init__(self, node, owner, prefix):
        self.node = node
        self.owner = owner  # the class a def is a method of; None otherwise
        self.prefix = prefix  # of the units defined in it: "", "Trainer.", "outer."
        self._counts = None

    def lookup(self, name):
        """(count of bindings, the def when bound once by a def) for ``name`` here."""
        if self._counts is None:
            self._counts, self._defs, self._values = _bindings(self.node)
        return self._counts.get(name, 0), self._defs.get(name)

    def counts_at_least(self, counts):
        """Count each name at least as many times as ``counts`` says (the whole module's)."""
        for name, count in counts.items():
            if count > self._counts.get(name, 0):
                self._counts[name] = count
                if count > 1:
                    self._defs.pop(name, None)

    def value(self, name):
        """The value of ``name = value`` when that is its only binding here, else None."""
        return self._values.get(name) if self.lookup(name)[0] == 1 else None


def _bindings(node):
    """({name: how many times bound}, {name: def}, {name: assigned value}) for the scope ``node`` alone (nested
    scopes' own names not counted; ``global``/``nonlocal`` count as bound elsewhere)."""
    counts, defs, values = {}, {}, {}

    def bind(name, times=1):
        counts[name] = counts.get(name, 0) + times

    if isinstance(node, DEFS):
        for arg in parameters(node):
            bind(arg.arg)
    stack = list(node.body)
    while stack:
        child = stack.pop()
        kind = type(child)
        if kind in DEFS or kind is ast.ClassDef:
            bind(child.name)
            if kind in DEFS:
                defs[child.name] = child
            continue
        if kind is ast.Lambda:
            continue
        if kind is ast.Name:
            if type(child.ctx) is not ast.Load:
                bind(child.id)
            continue
        if kind is ast.Assign and len(child.targets) == 1 and type(child.targets[0]) is ast.Name:
            values[child.targets[0].id] = child.value
        if kind in BINDING_STATEMENTS:  # (global and nonlocal: bound elsewhere too)
            for name in bound_by(child):
                bind(name, 2 if kind is ast.Global or kind is ast.Nonlocal else 1)
        elif kind is ast.Constant:
            continue
        for field in child_fields(kind):
            value = getattr(child, field, None)
            if type(value) is list:
                stack.extend([item for item in value if item is not None])
            elif isinstance(value, ast.AST):
                stack.append(value)
    return counts, {name: found for name, found in defs.items() if counts[name] == 1}, values


class _Reader:
    def __init__(self, tree, imports, transforms, lines):
        self.imports = imports
        self.transforms = transforms
        self.lines = lines
        self._applied = []  # (scope's prefix, transform, applied entry)
        self._found = []  # (unit, def, transform, traced parameters, line, scope's prefix)

    def qualname(self, expr):
        return imported_qualname(expr, self.imports)

    def walk(self, statements, chain):
        """Find the applications in ``statements`` of the innermost scope of ``chain``."""
        stack = list(statements)
        while stack:
            node = stack.pop()
            kind = type(node)
            if self.lines is not None and isinstance(node, ast.stmt) and not self.lines.touched(node):
                continue
            if kind in DEFS or kind is ast.ClassDef:
                unit = chain[-1].prefix + node.name
                stack.extend(node.decorator_list)
                if kind is ast.ClassDef:
                    stack.extend(node.bases)
                    self.walk(node.body, chain + (_Scope(node, None, unit + "."),))
                    continue
                stack.extend(d for d in node.args.defaults + node.args.kw_defaults if d is not None)
                for decorator in node.decorator_list:
                    spec = transform_spec(decorator, self.qualname, self.transforms)
                    if spec is not None:
                        self._add(node, 0, unit, spec, 0, (), node.lineno, chain)
                owner = chain[-1].node if type(chain[-1].node) is ast.ClassDef else None
                self.walk(node.body, chain + (_Scope(node, owner, unit + "."),))
                continue
            if kind is ast.Lambda:
                stack.extend(d for d in node.args.defaults + node.args.kw_defaults if d is not None)
                continue  # its body's names are its own: what it applies is not read
            if kind is ast.Call and node.args:
                self._call(node, chain)
            stack.extend(child_nodes(node))

    def _call(self, call, chain):
        name = self.qualname(call.func)
        if name in self.transforms:
            spec = (name, transform_options(name, call))
        elif type(call.func) is ast.Call:  # partial(jax.jit, static_argnums=1)(f), jax.jit(donate_argnums=0)(f)
            spec = transform_spec(call.func, self.qualname, self.transforms)
        else:
            return
        if spec is not None:
            self._target(call.args[0], spec, chain, 0, (), call.lineno)

    def _target(self, expr, spec, chain, bound, names, line, returned=False):
        if type(expr) is ast.Call:
            inner = self.qualname(expr.func)
            if inner in self.transforms and expr.args:  # jax.jit(jax.vmap(f)): f under jit too
                self._target(expr.args[0], spec, chain, bound, names, line)
            elif inner in PARTIAL and expr.args and not any(type(a) is ast.Starred for a in expr.args) \
                    and all(k.arg for k in expr.keywords):  # partial(f, cfg, model=m): bound, static
                self._target(expr.args[0], spec, chain, bound + len(expr.args) - 1,
                             names + tuple(k.arg for k in expr.keywords), line)
            else:  # jax.jit(make_train(cfg)): the def the factory returns
                self._target(expr.func, spec, chain, bound, names, line, returned=True)
            return
        if type(expr) is ast.Lambda and not returned:  # jax.jit(lambda x: step(x)): a def of one return
            self._add(_lambda_def(expr), 0, f"{chain[-1].prefix}<lambda:{expr.lineno}>", spec, bound, names, line,
                      chain)
            return
        if type(expr) is ast.Attribute and expr.attr == "apply" and spec[1]:
            return  # options of apply's positions (variables first): not read
        if type(expr) is ast.Name and not returned:  # fn = make_train(cfg); jax.jit(fn)
            value, scopes = self._assigned_call(expr.id, chain)
            if value is not None:
                self._target(value, spec, scopes, bound, names, line)
                return
        found = self._resolve(expr, chain)
        if found is None and type(expr) is ast.Name and not returned:  # jax.jit(partial(policy, apply_fn))
            found = self._passed_parameter(expr.id, chain)
        if found is None and type(expr) is ast.Attribute and type(expr.value) is ast.Name and not returned:
            found = self._applied_module(expr.value.id, chain, expr.attr)  # jax.jit(counter.count)
            own = chain[-1].owner is not None and positional_names(chain[-1].node)[:1] == [expr.value.id]
            passed = self._passed_parameter(expr.value.id, chain) if found is None and not own else None
            found = found or passed and (None, [*passed[1], expr.attr])  # jax.jit(planner.plan), planner passed
            bound += found is not None  # (its self is the object)
        if found is None:
            return
        if not isinstance(found[0], ast.AST):  # an imported function (or what it returns)
            options = named_options(spec[1])
            static = selected_arguments(options, STATIC_NUMBERS, STATIC_NAMES)
            if static is not None and not (spec[0] == "jax.vmap" and "in_axes" in options):
                self._applied.append((chain[-1].prefix, spec[0],
                                      [*found, returned, spec[0], bound, sorted(names), *static, line]))
            return
        func, binds_self, unit = found
        if returned:
            func, binds_self = returned_def(func), 0
            unit = f"{unit}.{func.name}" if func is not None else None
        if func is not None:
            self._add(func, binds_self, unit, spec, bound, names, line, chain)

    def _add(self, func, binds_self, unit, spec, bound, names, line, chain):
        params = applied_parameters(func, spec[0], spec[1], bound + binds_self, names)
        if params:
            self._found.append((unit, func, spec[0], params, line, chain[-1].prefix))

    def finish(self):
        """(roots, applied, units). A transform that is not abstract (``jax.grad``) applied inside a
        unit that an abstract one traces is left out: that root's flows follow a call under it
        (``jax.grad(loss)(p)``, and the reach what ``loss`` calls), and roots there would have the
        module read whole where they ask what a name holds (purejaxrl's nested ``_loss_fn``)."""
        staged = tuple(unit + "." for unit, _, transform, _, _, _ in self._found if self.transforms[transform].abstract)
        roots, units = {}, {}
        for unit, func, transform, params, line, site in self._found:
            if site.startswith(staged) and not self.transforms[transform].abstract:
                continue
            known = roots.get((unit, transform))
            roots[(unit, transform)] = (params | known[0], min(line, known[1])) if known else (params, line)
            units[unit] = func
        applied = [entry for site, transform, entry in self._applied
                   if not (site.startswith(staged) and not self.transforms[transform].abstract)]
        return [[unit, transform, sorted(params), line] for (unit, transform), (params, line)
                in sorted(roots.items())], sorted(applied, key=lambda entry: (entry[-1], entry[2])), units

    def _resolve(self, expr, chain):
        """(def, whether it binds self) for a unit of the module, (import binding,
        attributes) for an imported function, or None."""
        if type(expr) is ast.Name:
            return self._resolve_name(expr.id, chain, [])
        if type(expr) is ast.Subscript:  # LOSSES[name], LOSSES imported: the entries its key may give
            found = self._resolve(expr.value, chain)
            imported = found is not None and not isinstance(found[0], ast.AST)
            return table_entry(found, expr) if imported else None
        root, attributes = split_attributes(expr)
        if root is None:
            return None
        scope = chain[-1]
        if len(attributes) == 1 and scope.owner is not None and isinstance(scope.node, DEFS):
            params = positional_names(scope.node)
            if params and params[0] == root.id and scope.lookup(root.id)[0] == 1:  # self.m
                count, method = chain[-2].lookup(attributes[0])  # the class's scope
                if method is None or count != 1:
                    return None
                decorators = {d.id for d in method.decorator_list if type(d) is ast.Name}
                return None if decorators & _UNBOUND else (method, 1, chain[-2].prefix + method.name)
        if attributes == ["apply"]:  # jax.jit(model.apply): a linen Module's __call__
            return self._applied_module(root.id, chain)
        found = self._resolve_name(root.id, chain, attributes)
        return found if found is not None and not isinstance(found[0], ast.AST) else None

    def _passed_parameter(self, name, chain):
        """(None, [PASSED_FUNCTION, parameter, unit]) for a parameter, never rebound, of the top-level
        def or the ``__init__`` of the top-level class ``unit`` around the application: the reach traces
        each function that the project's calls of that def or class pass there (or, with a method name
        after ``unit``, that method of each object they pass); else None."""
        scope = chain[-1]
        at_top = len(chain) == 2 and scope.owner is None \
            or len(chain) == 3 and scope.owner is not None and scope.node.name == "__init__"
        if not (at_top and isinstance(scope.node, DEFS) and scope.lookup(name) == (1, None)
                and name in {arg.arg for arg in parameters(scope.node)}):
            return None
        return None, [PASSED_FUNCTION, name, scope.prefix[:-1]]

    def _assigned_call(self, name, chain):
        """(the call, the scopes it was evaluated in) when ``name`` is bound once, to a call
        that is not of a transform (``fn = make_train(cfg)``, ``f = partial(g, cfg)``);
        (None, None) otherwise."""
        scope, scopes = self._binding_scope(name, chain)
        value = scope.value(name) if scope is not None else None
        if type(value) is not ast.Call or self.qualname(value.func) in self.transforms:
            return None, None
        return value, scopes

    def _applied_module(self, name, chain, method="__call__"):
        """(import binding, attributes ``[..., "Model", method]``) for ``model.apply`` (method
        ``__call__``) or ``model.method`` with ``model`` bound once to ``Model(...)`` of an
        imported class (the reach accepts a linen Module's ``__call__`` and another class's
        plain method only); a class of this module is this module's to trace."""
        scope = self._binding_scope(name, chain)[0]
        instance = scope.value(name) if scope is not None else None
        root, attributes = split_attributes(instance.func) if type(instance) is ast.Call else (None, ())
        found = self._resolve_name(root.id, chain, attributes) if root is not None else None
        return (found[0], [*found[1], method]) if found and not isinstance(found[0], ast.AST) else None

    def _resolve_name(self, name, chain, attributes):
        scope = self._binding_scope(name, chain)[0]
        count, func = scope.lookup(name) if scope is not None else (0, None)
        if count != 1:
            return None
        if func is not None:
            return (func, 0, scope.prefix + name) if not attributes else None
        if scope.node is chain[0].node and name in self.imports:
            return list(self.imports[name]), list(attributes)
        return None

    @staticmethod
    def _binding_scope(name, chain):
        """(the innermost scope of ``chain`` that binds ``name``, the chain up to it), as Python
        resolves a name (a class body's names are not seen from its methods), or (None, None)."""
        for depth, scope in enumerate(reversed(chain)):
            if not (depth and type(scope.node) is ast.ClassDef) and scope.lookup(name)[0]:
                return scope, chain[:len(chain) - depth]
        return None, None
