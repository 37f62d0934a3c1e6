"""Array reachability: the functions in which no value can be an array.

Checks that ask only about arrays skip such bodies, and their forward pass never
runs: in most modules most functions never see an array, and this test costs far
less than the pass it saves.
"""
import ast

from . import library
from .kinds import PYTHON, UNKNOWN
from .names import DEFINITIONS, BindingKind
from .tracing import DEVICE_ARRAY

_NONE, _ARRAY, _LIBRARY, _CALLABLE = "none", "array", "library", "callable"  # see ArraySources._source_kind
# Where a JAX or NumPy name becomes another name's value (``xp = jnp``, ``a, f = x, jnp.sum``).
_ALIASING = (ast.Assign, ast.AnnAssign, ast.NamedExpr, ast.Tuple, ast.List, ast.Starred, ast.IfExp, ast.BoolOp,
             ast.withitem, ast.Return)


class ArraySources:
    """Where arrays can enter the functions of one module, asked once per module."""

    def __init__(self, names, tracing):
        self.names = names
        self.tracing = tracing

    def bodies(self):
        """Functions where an array can enter: a call that gives one (a JAX or NumPy
        function, a jitted function, a transformed function, a helper that returns
        jax.numpy arrays), a module name bound to an array, an alias of a JAX or NumPy name,
        an array-annotated parameter, or a local of an enclosing function that has such a
        source. In any other function every value is a Python value or unknown. Mirrors
        what ``values``/``library`` make arrays from; errs towards including a function."""
        names, tracing = self.names, self.tracing
        found = {f for f in names.functions if tracing.annotated_arrays(f, DEVICE_ARRAY) or tracing.handing_out_self(f)}
        for call in names.calls if tracing.jitted_callables else ():
            if tracing.callee(call.func) in tracing.jitted_callables:
                found.add(_function_of(names.scope_of[call]))
        packages = {"jax", "numpy"} | {name.split(".")[0] for name in tracing.transform_names}
        enclosing = {}  # function -> enclosing functions whose locals it reads
        kinds = {}  # (id(scope), name) -> how its bindings can give arrays
        verdicts = {}  # (id(scope), name, attributes) -> whether calling it gives arrays
        worth_resolving = self._names_from_outside_functions()
        homes = {}  # (id(scope), name) -> (binding key, kind), or None: every use in a scope resolves alike
        callables = []  # reads of helpers and other imports, asked about once the cheaper sources are known
        functions_of = {}  # id(scope) -> the function its code runs in, or None
        for name in names.by_type.get(ast.Name, ()):
            if name.id not in worth_resolving or type(name.ctx) is not ast.Load:
                continue
            scope = names.scope_of[name]
            function = functions_of.get(id(scope), False)
            if function is False:
                function = functions_of[id(scope)] = _function_of(scope)
            if function is None or function in found:  # a found function needs no more sources
                continue
            use = (id(scope), name.id)
            home = homes.get(use, False)
            if home is False:
                home = homes[use] = self._array_source_home(function, scope, name.id, enclosing, kinds, packages)
            if home is None:
                continue
            key, kind = home
            if kind is _CALLABLE:
                callables.append((name, function, key))
            elif kind is _ARRAY or self._gives_array(name, kind, key, verdicts):
                found.add(function)
        helpers = []  # (function, a same-file def it calls): arrays come back when one can enter the def
        for name, function, key in callables:  # last: learning what a helper returns costs most
            if function not in found and self._gives_array(name, _CALLABLE, key, verdicts):
                found.add(function)
            elif function not in found:
                helpers.append((function, self.tracing.callee(name)))
        grown = True
        while grown:  # a caller of a def that an array can enter may get one back (its forward pass says)
            grown = False
            for function, callee in helpers:
                if function not in found and callee in found:
                    found.add(function)
                    grown = True
        for function in names.functions:  # outer functions come first
            if function not in found and any(outer in found for outer in enclosing.get(function, ())):
                found.add(function)
        return found | self._reading_stored_arrays(found)

    def _reading_stored_arrays(self, found):
        """The methods that read ``self.<attr>`` where a method of their class in which an array can
        enter (``found``) stores ``attr``: the array comes back through the object (``return self.x[:n]``)."""
        names, stored = self.names, {}  # ClassDef -> the attributes such a method of it stores
        for function in found:
            cls = names.parent.get(function)
            if type(cls) is ast.ClassDef and cls not in stored:
                stored[cls] = {attr for attr, assignments in self.tracing.roots.instances.self_assignments(cls).items()
                               if any(names.enclosing_function(statement) in found for statement, _ in assignments)}
        methods = set()
        for node in names.by_type.get(ast.Attribute, ()) if any(stored.values()) else ():
            if type(node.value) is ast.Name and node.value.id == "self":
                method = names.enclosing_function(node)
                if node.attr in stored.get(names.parent.get(method), ()) and method not in found:
                    methods.add(method)
        return methods

    def called_with_arguments(self, bodies):
        """The same-file defs that the module's code, ``bodies`` (where arrays can enter) or a def found
        so call with arguments: a call may give them an array (``Model.may_hold_arrays`` asks its passes)."""
        calls = {}  # function (None: the module's code) -> the defs it calls with arguments
        for call in self.names.calls:
            if call.args or call.keywords:
                callee = self.tracing.callee(call.func)
                if type(callee) is ast.FunctionDef:
                    calls.setdefault(_function_of(self.names.scope_of[call]), set()).add(callee)
        found, queue = set(), [function for function in calls if function is None or function in bodies]
        while queue:
            for callee in calls.get(queue.pop(), ()):
                if callee not in found:
                    found.add(callee)
                    queue.append(callee)
        return found

    def _array_source_home(self, function, scope, name, enclosing, kinds, packages):
        """(binding key, kind) for a read of ``name`` in ``scope``, part of ``function``, that may
        bring an array into it; None for a builtin, a name no array comes from, or a local of
        an enclosing function (recorded in ``enclosing`` instead)."""
        home = self.names.lookup(name, scope)
        if home is None:
            return None  # a builtin: Python values
        home_scope, bindings = home
        home_function = _function_of(home_scope)
        if home_function is not function and home_scope is not self.names.module_scope:
            enclosing.setdefault(function, set()).add(home_function)
            return None
        key = (id(home_scope), name)
        kind = kinds.get(key)
        if kind is None:
            kind = kinds[key] = self._source_kind(home_scope, name, bindings, packages)
        return None if kind is _NONE else (key, kind)

    def _names_from_outside_functions(self):
        """Names a function can read from elsewhere: module names, imports (anywhere), and
        the names of every scope that encloses a function. Other names are locals."""
        names = self.names
        found = set(names.module_scope.bindings)
        for kind in (ast.Import, ast.ImportFrom):
            for stmt in names.by_type.get(kind, ()):
                found.update((alias.asname or alias.name).split(".")[0] for alias in stmt.names)
        enclosing = set()
        for function in names.functions:
            scope = names.scopes[function].parent
            while scope is not None and scope is not names.module_scope and id(scope) not in enclosing:
                enclosing.add(id(scope))
                found.update(scope.bindings)
                scope = scope.parent
        return found

    def _source_kind(self, scope, name, bindings, packages):
        """_ARRAY for a module name bound to an array (or to what the module pass does not
        know), _LIBRARY for an import of JAX, NumPy or a transform's package, _CALLABLE for
        other imports, module functions and classes (a call may give arrays), else _NONE."""
        kind = _NONE
        for binding in bindings:
            if binding.kind is BindingKind.IMPORT:
                from_library = binding.qualname is not None and binding.qualname.split(".")[0] in packages
                kind = _LIBRARY if from_library else kind if kind is _LIBRARY else _CALLABLE
            elif binding.kind in (BindingKind.DEF, BindingKind.CLASS) and scope is self.names.module_scope \
                    and kind is _NONE:
                kind = _CALLABLE
        if scope is self.names.module_scope and not all(b.kind in DEFINITIONS for b in bindings):
            module_flow = self.tracing.flows.get(self.names.tree)
            value = module_flow.assigned.get(name) if module_flow is not None else None
            if value is None or value.kind not in (PYTHON, UNKNOWN):
                return _ARRAY
        return kind

    def _gives_array(self, name, kind, key, verdicts):
        """Whether this use of an imported or module-function name can give an array: a
        call of a JAX/NumPy array function, a transform, an array-returning helper, one
        that returns a jitted function, a record with a field annotated as an array, or an object
        of another module's class that holds arrays (``Callees.held_facts``, asked per call); for
        a JAX or NumPy name, also an alias (``xp = jnp``) that later calls may go through.
        ``key`` names the binding; the verdict for a called attribute path is kept."""
        expr, parent, attributes = name, self.names.parent.get(name), ()
        while type(parent) is ast.Attribute:
            expr, parent, attributes = parent, self.names.parent.get(parent), (*attributes, parent.attr)
        if type(parent) is not ast.Call or parent.func is not expr:
            return kind is _LIBRARY and isinstance(parent, _ALIASING)
        called = (*key, attributes)
        verdict = verdicts.get(called)
        if verdict is None:
            qualname = self.names.qualname(expr)
            if qualname is not None and (library.gives_array(qualname) or qualname in self.tracing.transform_names):
                verdict = True
            else:
                helper = self.tracing.helper_facts(expr)
                verdict = helper is not None and bool(helper[0].get("jitted") or helper[0].get("builds_jitted")
                                                      or helper[0].get("hands_out_jitted")
                                                      or helper[0]["returns"])  # (arrays, or a tuple or dict of some)
                callee = self.tracing.callee(expr) if not verdict else None
                verdict = verdict or (callee is not None and bool(self.tracing.builds_jitted(callee)))
                record = self.tracing.record(expr) if not verdict and type(expr) is ast.Name else None
                verdict = verdict or (record is not None and any(array for _, array in record.fields))
            verdicts[called] = verdict
        if verdict:
            return True
        func = self.names.enclosing_function(parent)  # Dataset(cfg) in host code: what it holds
        return self.tracing.callees.held_facts(parent, func in self.tracing.traced or func in self.tracing.trace_time) \
            is not None


def _function_of(scope):
    """The def or lambda whose body a scope belongs to (comprehensions are in it), else None."""
    while scope is not None and not scope.is_function:
        if scope.is_class or scope.parent is None:
            return None
        scope = scope.parent
    return scope.node if scope is not None else None
