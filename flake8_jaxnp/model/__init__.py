"""The semantic model of one module: names, traced functions, value kinds.

Checks ask it questions through the methods below and never walk scopes,
parents or the dataflow themselves.
"""
import ast
from functools import lru_cache
from pathlib import Path

from . import dtypes, library
from .project import project_around
from .project.records import module_records, result_shape
from .project.summaries import function_facts
from .kinds import ARRAY_ANNOTATIONS, JAX, PYTHON, TRACER, TRACER_TREE, UNKNOWN, UNKNOWN_VALUE, Value
from .names import Names
from .syntax import FUNCTION_NODES, import_binding, module_imports, positional, positional_names, split_attributes
from .traced import Behaviour, TraceRoots, Transform
from .values import FunctionFlow

TRACED_PARAMETER = Value(TRACER_TREE)  # an array or a pytree of arrays
TRACED_ARRAY = Value(TRACER)
DEVICE_ARRAY = Value(JAX)
# Attributes only arrays have: a parameter that uses one is an array, not a pytree.
ARRAY_EVIDENCE = frozenset({"shape", "dtype", "ndim", "at", "astype", "reshape", "T"})

# Each function is analysed at most this many times while tracing spreads.
_MAX_PASSES_PER_FUNCTION = 4


class Model:
    def __init__(self, tree, options, filename=None):
        self.tree = tree
        self.options = options
        self.filename = filename  # the path flake8 reports, when known (test files are judged by name)
        self.names = Names(tree)
        # The two questions checks ask most, answered by the index without a call in between:
        self.qualname = self.names.qualname  # the dotted name an expression refers to (jax.numpy.exp), or None
        self.parent = self.names.parent.get  # a node's parent node, or None
        self.x64_switches = [call for call in self.names.calls if _enables_x64(self.names, call)]
        self.x64 = options.x64 or bool(self.x64_switches)
        roots = TraceRoots(self.names, options.extra_transforms)
        self._roots = roots
        self.traced = roots.traced  # function node -> TracedFunction
        self.jitted_callables = roots.jitted_callables
        # Transforms whose result, when called, gives device arrays: jax.jit(f)(x).
        self.staging_transforms = {name for name, behaviour in roots.transforms.items()
                                   if behaviour is Behaviour.STAGING and name in roots.array_results}
        self.transform_names = frozenset(roots.transforms)
        self.project = project_around(filename, options)
        self.dtype_resolver = self.imported_dtype if self.project is not None else None
        self._helper_facts = {}  # def node -> its facts (returns, conversions), on demand
        self._imports = None  # module-level import bindings, on demand
        self._records = None  # this module's pytree classes, on demand
        self._results = {}  # jitted def -> the shape of its result, on demand
        if self.project is not None:
            self._traced_from_other_modules()
        self.flows = {}
        self._nested = None  # function -> functions defined directly inside it, built on demand
        self._array_bodies = None  # functions whose forward pass may see an array, built on demand
        self._analyse()

    # ---- analysis -------------------------------------------------------------
    def _analyse(self):
        """Run the forward pass over the module and the traced functions; a function that
        tracing reaches later (called with tracers) is analysed again. Functions nothing
        traces are analysed only when a question needs them (``_flow_of``): most never do."""
        self._flow(self.tree, {}, None)
        queue = sorted(self.traced, key=lambda f: (f.lineno, f.col_offset))
        passes = {}
        while queue:
            func = queue.pop(0)
            if passes.get(func, 0) >= _MAX_PASSES_PER_FUNCTION:
                continue
            passes[func] = passes.get(func, 0) + 1
            traced = self.traced.get(func)
            params = self._traced_parameters(func, traced) if traced else self._annotated_arrays(func, DEVICE_ARRAY)
            for callee in self._flow(func, params, traced):
                for node in [callee] + self._nested_in(callee):  # closures read the re-analysed values
                    if node not in queue:
                        queue.append(node)

    def _flow_of(self, node):
        """The forward pass of a def, lambda or the module; None if it was too deep, and for
        other scopes (a class body, a type-parameter scope), which get no pass."""
        if node not in self.flows:
            if not isinstance(node, FUNCTION_NODES):
                return None
            self._flow(node, self._annotated_arrays(node, DEVICE_ARRAY), None)
        return self.flows[node]

    def _flow(self, node, params, traced):
        """Analyse one body; returns the same-file functions that tracing newly reached."""
        try:
            flow = FunctionFlow(self, node, params, traced)
        except RecursionError:  # too deep for this interpreter: silent for this body only
            self.flows[node] = None
            return []
        self.flows[node] = flow
        reached = []
        for callee, call, args, keywords in flow.calls:
            if traced is not None and self._spread(callee, call, args, keywords, traced):
                reached.append(callee)
            if traced is not None:
                reached.extend(self._roots.rules_reached(callee, call, node, traced))
        flow.calls = []
        return reached

    def may_hold_arrays(self, node):
        """False when no value in the body around ``node`` can be an array: checks that only
        ask about arrays skip such bodies, and their forward pass never runs."""
        function = self.names.enclosing_function(node)
        if function is None or function in self.flows:
            return True
        if self._array_bodies is None:
            self._array_bodies = self._bodies_with_array_sources()
        return function in self._array_bodies

    def _bodies_with_array_sources(self):
        """Functions where an array can enter: a call that gives one (a JAX or NumPy
        function, a jitted function, a transformed function, a helper that returns
        jax.numpy arrays), a module name bound to an array, an alias of a JAX or NumPy name,
        an array-annotated parameter, or a local of an enclosing function that has such a
        source. In any other function every value is a Python value or unknown. Mirrors
        what ``values``/``library`` make arrays from; errs towards including a function."""
        names = self.names
        found = {f for f in names.functions if self._annotated_arrays(f, DEVICE_ARRAY)}
        for call in names.calls if self.jitted_callables else ():
            if self.callee(call.func) in self.jitted_callables:
                found.add(_function_of(names.scope_of[call]))
        packages = {"jax", "numpy"} | {name.split(".")[0] for name in self.transform_names}
        enclosing = {}  # function -> enclosing functions whose locals it reads
        kinds = {}  # (id(scope), name) -> how its bindings can give arrays
        verdicts = {}  # (id(scope), name, attributes) -> whether calling it gives arrays
        worth_resolving = self._names_from_outside_functions()
        homes = {}  # (id(scope), name) -> (function, binding key, kind), or None: every use in a scope resolves alike
        callables = []  # reads of helpers and other imports, asked about once the cheaper sources are known
        for name in names.by_type.get(ast.Name, ()):
            if name.id not in worth_resolving or type(name.ctx) is not ast.Load:
                continue
            scope = names.scope_of[name]
            use = (id(scope), name.id)
            home = homes.get(use, False)
            if home is False:
                home = homes[use] = self._array_source_home(scope, name.id, enclosing, kinds, packages)
            if home is None:
                continue
            function, key, kind = home
            if kind is _CALLABLE:
                callables.append((name, function, key))
            elif function not in found and (kind is _ARRAY or self._gives_array(name, kind, key, verdicts)):
                found.add(function)
        for name, function, key in callables:  # last: learning what a helper returns costs most
            if function not in found and self._gives_array(name, _CALLABLE, key, verdicts):
                found.add(function)
        for function in names.functions:  # outer functions come first
            if function not in found and any(outer in found for outer in enclosing.get(function, ())):
                found.add(function)
        return found

    def _array_source_home(self, scope, name, enclosing, kinds, packages):
        """(function, binding key, kind) for a read of ``name`` in ``scope`` that may bring an
        array into a function; None for a builtin, a name no array comes from, or a local of
        an enclosing function (recorded in ``enclosing`` instead)."""
        function = _function_of(scope)
        if function is None:
            return None
        home = self.names.lookup(name, scope)
        if home is None:
            return None  # a builtin: Python values
        home_scope, bindings = home
        home_function = _function_of(home_scope)
        if home_function is not function and not self.is_module_scope(home_scope):
            enclosing.setdefault(function, set()).add(home_function)
            return None
        key = (id(home_scope), name)
        kind = kinds.get(key)
        if kind is None:
            kind = kinds[key] = self._source_kind(home_scope, name, bindings, packages)
        return None if kind is _NONE else (function, key, kind)

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
        other imports and module functions (a call may give arrays), else _NONE."""
        kind = _NONE
        for binding in bindings:
            if binding.kind == "import":
                from_library = binding.qualname is not None and binding.qualname.split(".")[0] in packages
                kind = _LIBRARY if from_library else kind if kind is _LIBRARY else _CALLABLE
            elif binding.kind == "def" and self.is_module_scope(scope) and kind is _NONE:
                kind = _CALLABLE
        if self.is_module_scope(scope) and not all(b.kind in ("import", "def", "class") for b in bindings):
            module_flow = self.flows.get(self.tree)
            value = module_flow.assigned.get(name) if module_flow is not None else None
            if value is None or value.kind not in (PYTHON, UNKNOWN):
                return _ARRAY
        return kind

    def _gives_array(self, name, kind, key, verdicts):
        """Whether this use of an imported or module-function name can give an array: a
        call of a JAX/NumPy array function, a transform or an array-returning helper; for
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
            qualname = self.qualname(expr)
            if qualname is not None and (library.gives_array(qualname) or qualname in self.transform_names):
                verdict = True
            else:
                helper = self.helper_facts(expr)
                verdict = helper is not None and bool(helper[0].get("jitted") or helper[0]["returns"] == "jax")
            verdicts[called] = verdict
        return verdict

    def _traced_parameters(self, func, traced):
        """Traced parameters are pytrees unless used as arrays and never rebound. Where
        every transform leaves Python scalars static (``equinox.filter_jit``), only the
        parameters used as arrays are known to be tracers."""
        scope = self.names.scopes[func]
        candidates = {name for name in traced.traced_params if len(scope.bindings.get(name, ())) == 1}
        arrays = set()
        if candidates:
            for node in self.names.own_nodes(func):
                if type(node) is ast.Attribute and node.attr in ARRAY_EVIDENCE \
                        and type(node.value) is ast.Name and node.value.id in candidates:
                    arrays.add(node.value.id)
        arrays |= set(self._annotated_arrays(func, TRACED_ARRAY)) & traced.traced_params
        if all(t.name in self._roots.scalars_static for t in traced.transforms):
            return {name: TRACED_ARRAY for name in arrays}
        return {name: TRACED_ARRAY if name in arrays else TRACED_PARAMETER for name in traced.traced_params}

    def _annotated_arrays(self, func, value):
        """{parameter: value} for parameters annotated as JAX arrays (``x: jax.Array``,
        ``jnp.ndarray``, jaxtyping's ``Float[Array, "n"]``)."""
        if isinstance(func, ast.Lambda):
            return {}
        found = {}
        for arg in positional(func) + func.args.kwonlyargs:  # not *args, **kwargs: they hold several
            annotation = arg.annotation
            if isinstance(annotation, ast.Subscript) \
                    and (self.qualname(annotation.value) or "").startswith("jaxtyping.") \
                    and isinstance(annotation.slice, ast.Tuple) and annotation.slice.elts:
                annotation = annotation.slice.elts[0]  # Float[Array, "n"]: the array type comes first
            if annotation is not None and self.qualname(annotation) in ARRAY_ANNOTATIONS:
                found[arg.arg] = value
        return found

    def _spread(self, callee, call, args, keywords, caller):
        """Spread tracing to a same-file function called with traced arguments; True if it changed."""
        params = set()
        positional = positional_names(callee)
        if isinstance(call.func, ast.Attribute) and positional and positional[0] in ("self", "cls"):
            positional = positional[1:]
        for index, (node, value) in enumerate(zip(call.args, args)):
            if isinstance(node, ast.Starred):
                break
            if value.traced and index < len(positional):
                params.add(positional[index])
        for name, value in keywords.items():
            if name is not None and value.traced:
                params.add(name)
        changed = False
        if params:
            for transform in caller.transforms:
                changed |= self._roots.mark(callee, transform, params)
        return changed

    def _nested_in(self, func):
        if self._nested is None:
            self._nested = {}
            for inner in self.names.functions:
                self._nested.setdefault(self.names.enclosing_function(self.names.parent[inner]), []).append(inner)
        return self._nested.get(func, [])

    def _traced_from_other_modules(self):
        """Top-level functions that traced functions in other project modules call with
        tracers: traced here, by a transform named after that caller."""
        defs = {}
        for stmt in self.tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs.setdefault(stmt.name, []).append(stmt)
        for name, calls in sorted(self.project.callers().items()):
            if len(defs.get(name, ())) != 1:
                continue
            func = defs[name][0]
            positional = positional_names(func)
            accepted = set(positional) | {a.arg for a in func.args.kwonlyargs}
            for positions, keywords, transform, caller, path, line in sorted(calls, key=lambda c: (str(c[4]), c[5])):
                behaviour = self._roots.transforms.get(transform)
                params = {positional[i] for i in positions if i < len(positional)} | (set(keywords) & accepted)
                if behaviour is None or not params:
                    continue
                where = f"{transform} (called from '{caller}' in {_shown(path)}:{line})"
                self._roots.mark(func, Transform(where, behaviour), params)

    # ---- questions the dataflow asks while it runs --------------------------------
    def helper_facts(self, func_expr):
        """(facts, path shown in messages) for the function a call names: a top-level def
        of this module (path None) or a function of another project module. Facts: params,
        returns, converts, and for another module's function whether it is jitted."""
        callee = self.callee(func_expr)
        if callee is not None:
            if isinstance(callee, ast.Lambda) or self.names.parent.get(callee) is not self.tree:
                return None
            facts = self._helper_facts.get(callee)
            if facts is None:
                facts = self._helper_facts[callee] = function_facts(callee, self._module_imports())
            return facts, None
        binding = self._project_import(func_expr)
        imported = self.project.function(*binding) if binding else None
        if imported is None:
            return None
        path, facts = imported
        return facts, _shown(path)

    def _project_import(self, expr):
        """(import binding, attributes) for ``name`` or ``module.name`` bound by a module-level
        import, when the file has a project; else None."""
        if self.project is None:
            return None
        name, attributes = split_attributes(expr)
        if name is None:
            return None
        found = self.names.resolve_name(name)
        if found is None or found[0] is not self.names.module_scope or len(found[1]) != 1 \
                or found[1][0].kind != "import":
            return None
        binding = import_binding(found[1][0].stmt, name.id)
        return (binding, attributes) if binding else None

    def imported_dtype(self, expr):
        """(dtype, spelled as a Python type) for a dtype constant bound in another project
        module (``util.f64``, ``from .util import f64``), or None."""
        binding = self._project_import(expr)
        alias = self.project.dtype_alias(*binding) if binding else None
        return tuple(alias) if alias else None

    def jitted_result(self, callee):
        """The shape of what a same-file jitted function returns (see project.records.result_shape),
        when its transforms turn every leaf into an array; else None."""
        traced = self.traced.get(callee)
        if traced is None or self.names.parent.get(callee) is not self.tree or not callee.decorator_list:
            return None
        if any(t.behaviour is not Behaviour.STAGING or t.name in self._roots.scalars_static
               for t in traced.transforms) or any(self.transform_spec(d) is None for d in callee.decorator_list):
            return None
        if callee not in self._results:
            if self._records is None:
                self._records = module_records(self.tree, self._module_imports())
            self._results[callee] = result_shape(callee, self._records) if self._records else None
        return self._results[callee]

    def _module_imports(self):
        if self._imports is None:
            self._imports = module_imports(self.tree)
        return self._imports

    def callee(self, func_expr):
        """The same-file def that a call's function expression names."""
        return self.names.function_bound_to(func_expr)

    def outer_value(self, scope_node, name):
        """What a closure or global read of ``name`` sees."""
        if scope_node is self.tree and name in self.names.global_rebinds:
            return UNKNOWN_VALUE
        flow = self._flow_of(scope_node)
        if flow is None:
            return UNKNOWN_VALUE
        return flow.assigned.get(name, UNKNOWN_VALUE)

    # ---- questions the checks ask ---------------------------------------------------
    def value(self, expr):
        """The Value of an expression, as the forward pass saw it."""
        function = self.names.enclosing_function(expr)
        flow = self._flow_of(function if function is not None else self.tree)
        return flow.values.get(expr, UNKNOWN_VALUE) if flow else UNKNOWN_VALUE

    def array_value(self, expr):
        """The Value of an expression for a question about arrays: unknown, without a
        forward pass, where no array can enter the body around it (``may_hold_arrays``)."""
        return self.value(expr) if self.may_hold_arrays(expr) else UNKNOWN_VALUE

    def traced_function(self, node):
        """The TracedFunction whose body holds ``node`` (not counting nested defs), or None."""
        return self.traced.get(self.names.enclosing_function(node))

    def nodes(self, *types):
        """Every node of the module (of the given types), in one shared index."""
        if not types:
            return self.names.scope_of.keys()
        by_type = self.names.by_type
        if len(types) == 1:
            return by_type.get(types[0], ())
        return [node for kind in types for node in by_type.get(kind, ())]

    def statement_of(self, node):
        """The innermost statement containing ``node``."""
        return self.names.statement_of(node)

    def enclosing_function(self, node):
        """The innermost def or lambda whose body contains ``node``, or None."""
        return self.names.enclosing_function(node)

    def own_nodes(self, func):
        """Nodes that run when ``func``'s body runs: not nested defs' bodies, not annotations."""
        return self.names.own_nodes(func)

    def scope(self, node):
        """The Scope that ``node`` (a def, lambda, class or the module) opens."""
        return self.names.scopes[node]

    def is_local(self, name, func):
        """True when ``name`` is bound in ``func``'s own scope (parameters included)."""
        return self.names.is_local(name, func)

    def resolve(self, name_node):
        """(Scope, bindings) that a Name node refers to; None for builtins and unknown names."""
        return self.names.resolve_name(name_node)

    def is_module_scope(self, scope):
        return scope is self.names.module_scope

    def is_module_name(self, name_node):
        """True when a Name refers to a module-level binding."""
        found = self.names.resolve_name(name_node)
        return found is not None and found[0] is self.names.module_scope

    def rebound_by_functions(self, name):
        """True when some function rebinds module global ``name`` through ``global``."""
        return name in self.names.global_rebinds

    def is_method(self, func):
        """True for a def directly in a class body."""
        scope = self.names.scope_of.get(func)
        return scope is not None and scope.is_class

    def rebound_globals(self):
        """Module names bound more than once in straight-line module code or via ``global``."""
        rebound = set()
        for name, bindings in self.names.module_scope.bindings.items():
            if name.startswith("__"):
                continue
            top_level = [b for b in bindings if b.kind in ("assign", "other") and b.stmt is not None
                         and self.names.parent.get(b.stmt) is self.tree]
            via_global = [b for b in bindings if b.kind == "global"]
            if len(top_level) >= 2 or (top_level and via_global):
                rebound.add(name)
        return rebound

    def dtype_of(self, expr):
        """(dtype, spelled_as_python_type) for a dtype expression, or (None, False)."""
        return dtypes.dtype_of(expr, self.names, self.dtype_resolver)

    def requested_dtype(self, call, qualname):
        """(given, dtype, spelled_as_python_type) for the dtype a call passes."""
        return dtypes.requested_dtype(call, qualname, self.names, self.dtype_resolver)

    def transform_spec(self, expr):
        """(transform name, keywords) for a transform used as a decorator (``jax.jit``,
        ``partial(jax.jit, static_argnums=1)``, ``jax.jit(static_argnames=...)``), else None."""
        return self._roots.transform_spec(expr)


_NONE, _ARRAY, _LIBRARY, _CALLABLE = "none", "array", "library", "callable"  # see Model._source_kind
# Where a JAX or NumPy name becomes another name's value (``xp = jnp``, ``a, f = x, jnp.sum``).
_ALIASING = (ast.Assign, ast.AnnAssign, ast.NamedExpr, ast.Tuple, ast.List, ast.Starred, ast.IfExp, ast.BoolOp,
             ast.withitem, ast.Return)


def _function_of(scope):
    """The def or lambda whose body a scope belongs to (comprehensions are in it), else None."""
    while scope is not None and not scope.is_function:
        if scope.is_class or scope.parent is None:
            return None
        scope = scope.parent
    return scope.node if scope is not None else None


@lru_cache(maxsize=None)
def _shown(path):
    """A path as messages show it: relative to the working directory when below it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


_X64_SWITCH_NAMES = frozenset({"update", "enable_x64"})


def _enables_x64(names, call):
    """``jax.config.update("jax_enable_x64", <not False>)``, ``jax.enable_x64(<not False>)``."""
    if type(call.func) is ast.Attribute and call.func.attr not in _X64_SWITCH_NAMES:
        return False  # its qualified name ends with that attribute (asked of every call: cheap first)
    qualname = names.qualname(call.func) or ""
    if qualname in ("jax.experimental.enable_x64", "jax.enable_x64"):
        return not (call.args and isinstance(call.args[0], ast.Constant) and not call.args[0].value)
    if qualname.startswith("jax") and qualname.endswith("config.update") and len(call.args) == 2:
        flag, value = call.args
        return isinstance(flag, ast.Constant) and flag.value == "jax_enable_x64" \
            and not (isinstance(value, ast.Constant) and not value.value)
    return False
