"""The Model of one module: the questions checks ask, answered by the parts that know.

Checks never walk scopes, parents or the dataflow themselves; each answer comes
from ``names`` (scopes and bindings), ``tracing`` (what runs under a trace, and
every body's forward pass), ``reach`` (where no array can enter), ``callees``
(what the project's own functions return) and ``dtypes``.
"""
import ast

from . import dtypes, library
from .callees import Callees
from .differentiated import undifferentiated_names
from .conventions import NNX_MODULE
from .kinds import TRACER, UNKNOWN, UNKNOWN_VALUE
from .names import BindingKind, Names
from .project import project_around
from .reach import ArraySources
from .syntax import positional_names
from .traced import Behaviour, TraceRoots
from .tracing import DEVICE_ARRAY, Tracing


class Model:
    def __init__(self, tree, options, filename=None):
        self.tree = tree
        self.options = options
        self.filename = filename  # the path flake8 reports, when known (test files are judged by name)
        self.names = Names(tree)
        # The two questions checks ask most, answered by the index without a call in between:
        self.qualname = self.names.qualname  # the dotted name an expression refers to (jax.numpy.exp), or None
        self.parent = self.names.parent.get  # a node's parent node, or None
        self.one_binding = self.names.one_binding  # the one binding (of a kind, at module level) a Name refers to
        self.parameter_of = self.names.parameter_of  # the def whose parameter, bound once, a Name reads
        self.resolve = self.names.resolve_name  # (scope, bindings) a Name refers to; None for a builtin or unknown name
        self.reaching_binding = self.names.reaching_binding  # the binding of a def's local that a read reaches, or None
        self.is_local = self.names.is_local  # whether a name is bound in a def's own scope (parameters included)
        self.enclosing_function = self.names.enclosing_function  # the innermost def or lambda around a node, or None
        self.own_nodes = self.names.own_nodes  # what runs when a def's body runs: not nested defs, not annotations
        self.statement_of = self.names.statement_of  # the innermost statement holding a node
        self.reads = self.names.reads  # every node that reads a name
        self.x64_switches = [call for call in self.names.calls if _enables_x64(self.names, call)]
        self.x64 = options.x64 or bool(self.x64_switches)
        self.project = project_around(filename, options)
        roots = TraceRoots(self.names, options.extra_transforms, self.project)
        self.transform_spec = roots.transform_spec  # (transform, keywords) for a transform used as a decorator, or None
        callees = Callees(self.names, roots, self.project)
        self._tracing = tracing = Tracing(self.names, roots, callees, self.x64,
                                          lambda tracing: ArraySources(self.names, tracing).bodies())
        self.traced = tracing.traced  # function node -> TracedFunction
        self.trace_time = tracing.trace_time  # def called from cached traced code with no tracer -> Transform
        self.jitted_callables = tracing.jitted_callables
        self.staging_transforms = tracing.staging_transforms  # jax.jit(f)(x) gives device arrays
        self.transform_names = tracing.transform_names
        self.callee = callees.callee  # the same-file def a call's function expression names
        self.returned_values = callees.returned_values  # what a def's return statements give
        self.class_of = roots.instances.class_of  # the same-file class whose instance a Name holds, or None
        self.calls_of = roots.instances.calls_of  # every call of a same-file def, or None when it escapes
        self.method_calls = roots.instances.method_calls  # the calls that run a same-file method on an object
        self.passed_to = roots.instances.passed_to  # what every call of a same-file def gives a parameter
        self.gives_back = roots.instances.gives_back  # whether a def returns a parameter's structure
        self.method_of = roots.instances.method  # a same-file class's method (or its single base's), or None
        self.bound_method = roots.instances.bound_method  # whether obj.<name> is a method bound on each access
        self.constructor = roots.instances.constructor  # the call that built the object an expression holds
        self.stores_another_object = roots.instances.stores_another_object  # a store on an unrelated class's self
        self.rejected_by_jax_jit = roots.conventions.rejected_by_jax_jit  # an object jax.jit refuses as an argument
        self.plain_class = roots.conventions.plain_class  # a class without decorators, metaclass or bases
        self.untraceable_class = roots.conventions.untraceable_class  # a class whose objects JAX cannot flatten
        self.built_by = roots.built.built_by  # the calls of other modules' functions a value may come from
        self.static_fields = roots.conventions.static_fields  # Module(...)'s fields a framework jit keeps static
        self.module_facts = roots.conventions.module_facts  # what was measured of a class's framework Module base
        self.applied_module = roots.applies.applied_module  # the __call__ a same-file linen Module's apply runs
        self.scalars_static = roots.scalars_static  # transforms that keep Python scalar arguments static
        self.helper_facts = callees.helper_facts  # (facts, path) of the project function a call names
        self.imported_numpy = callees.imported_numpy  # whether a name is another module's NumPy constant
        self.field_literal = callees.field_literal  # the literal a dataclass's field defaults to, or None
        self.imported_rebound = callees.imported_rebound  # where another module's global is rebound, or None
        self._attributes = None  # attribute name -> its Attribute nodes, built on demand (set_once_in_init)
        self._passed_arrays = {}  # def -> its parameters every call in other modules gives a device array
        self._undifferentiated = {}  # def -> its names no differentiating transform differentiates
        self._given_bodies = None  # the defs a body where arrays can enter calls with arguments (reach)
        self._given = {}  # def -> the passes ``Tracing.returned`` ran with the arrays its callers give

    def may_hold_arrays(self, node):
        """False when no value in the body around ``node`` can be an array: checks that only
        ask about arrays skip such bodies, and their forward pass never runs."""
        function = self.names.enclosing_function(node)
        if function is None or function in self._tracing.flows:
            return True
        return function in self._tracing.array_bodies() or bool(self._given_passes(function))

    def value(self, expr):
        """The Value of an expression, as the forward pass saw it."""
        flow = self._flow_around(expr)
        return flow.values.get(expr, UNKNOWN_VALUE) if flow else UNKNOWN_VALUE

    def value_on_repeat(self, expr):
        """The Value of an expression of a while loop's test (one with no ``continue``) when the
        test runs again after an iteration, or None: elsewhere every run sees ``value``."""
        flow = self._flow_around(expr)
        return flow.repeated.get(expr) if flow else None

    def _flow_around(self, expr):
        function = self.names.enclosing_function(expr)
        return self._tracing.flow_of(function if function is not None else self.tree)

    def array_value(self, expr):
        """The Value of an expression for a question about arrays: unknown, without a
        forward pass, where no array can enter the body around it (``may_hold_arrays``); where
        the pass knows nothing, a parameter every call in other modules gives a device array."""
        if not self.may_hold_arrays(expr):
            return self._given_elsewhere(expr) or UNKNOWN_VALUE
        value = self.value(expr)
        return value if value.kind is not UNKNOWN else self._given_here(expr) or self._given_elsewhere(expr) or value

    def _given_here(self, expr):
        """A device array where a pass of the untraced def around ``expr`` that a call in this file gave
        its arrays says one (``check(d, table)`` with ``table`` a JAX array: that call runs the pitfall,
        whatever the others give); else None. Asked only where the def's own pass knows nothing."""
        for flow in self._given_passes(self.names.enclosing_function(expr)):
            value = flow.values.get(expr)
            if value is not None and value.on_device:
                return value
        return None

    def _given_passes(self, func):
        """The passes of ``func`` that ``Tracing.returned`` ran, once per kinds of arguments, where a
        call of this file gives it an array, for a def that a body where arrays can enter calls with
        arguments (``ArraySources.called_with_arguments``); its callers' passes run first."""
        if func not in self._given:
            if self._given_bodies is None:
                self._given_bodies = ArraySources(self.names, self._tracing).called_with_arguments(
                    self._tracing.array_bodies())
            found = []
            if func in self._given_bodies and func not in self.traced and self.calls_of(func):
                for call in self.calls_of(func):  # (their passes run ``returned``)
                    self._tracing.flow_of(self.names.enclosing_function(call) or self.tree)
                found = [flow for flow in self._tracing.given_passes.get(func, ()) if flow is not None]
            self._given[func] = found
        return self._given[func]

    def _given_elsewhere(self, expr):
        """A device array for a read of a parameter, bound once, of a plain top-level def that this
        file never refers to, when every call in other modules gives it one (``Project.passed_arrays``);
        else None. Asked only where a check wants an array and the forward pass knows nothing: the
        question reads the modules of the project's folder."""
        func = self.parameter_of(expr) if type(expr) is ast.Name else None
        if self.project is None or type(func) is not ast.FunctionDef or func.decorator_list \
                or self.parent(func) is not self.tree or self.calls_of(func) != []:
            return None
        if func not in self._passed_arrays:
            self._passed_arrays[func] = self.project.passed_arrays(func.name, positional_names(func))
        return DEVICE_ARRAY if expr.id in self._passed_arrays[func] else None

    def traced_function(self, node):
        """The TracedFunction whose body holds ``node`` (not counting nested defs), or None."""
        return self.traced.get(self.names.enclosing_function(node))

    def undifferentiated(self, name):
        """Whether the Name ``name`` of a top-level def or method that a differentiating transform traces
        holds what no such transform differentiates: computed from traced parameters that none gives
        tracers alone (``differentiated.undifferentiated_names``), as a jitted step's data is."""
        func = self.names.enclosing_function(name)
        traced = self.traced.get(func)
        if traced is None or type(self.names.parent.get(func)) not in (ast.Module, ast.ClassDef) \
                or not any(t.behaviour is Behaviour.DIFFERENTIATING for t in traced.transforms):
            return False
        if func not in self._undifferentiated:
            self._undifferentiated[func] = undifferentiated_names(
                func, traced.tracer_params - traced.differentiated_params, self.qualname)
        return name.id in self._undifferentiated[func]

    def nodes(self, *types):
        """Every node of the module (of the given types), in one shared index."""
        if not types:
            return self.names.scope_of.keys()
        by_type = self.names.by_type
        if len(types) == 1:
            return by_type.get(types[0], ())
        return [node for kind in types for node in by_type.get(kind, ())]

    def scope(self, node):
        """The Scope that ``node`` (a def, lambda, class or the module) opens."""
        return self.names.scopes[node]

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

    def set_once_in_init(self, attribute):
        """For ``self.table`` read in a method: (the module's one store to ``.table``, when it is
        ``self.table = ...`` in the same class's own ``__init__``; every other ``.table`` of the
        module), else None. Methods here are undecorated defs, ``self`` their first parameter."""
        method = self.names.enclosing_function(attribute)
        if type(attribute.value) is not ast.Name or method is None or not self._is_self(method, attribute.value):
            return None
        if self._attributes is None:
            self._attributes = {}
            for node in self.nodes(ast.Attribute):
                self._attributes.setdefault(node.attr, []).append(node)
        uses = self._attributes[attribute.attr]
        stores = [node for node in uses if not isinstance(node.ctx, ast.Load)]
        if len(stores) != 1 or type(stores[0].value) is not ast.Name:
            return None
        assign, init = self.parent(stores[0]), self.names.enclosing_function(stores[0])
        if type(assign) is not ast.Assign or assign.targets != stores or init is None or init.name != "__init__" \
                or self.parent(assign) is not init or self.parent(init) is not self.parent(method) \
                or not self._is_self(init, stores[0].value):
            return None
        return assign, [node for node in uses if node is not stores[0]]

    def _is_self(self, method, name):
        """True when ``name`` is the first parameter of ``method``, an undecorated def of a class body."""
        params = method.args.posonlyargs + method.args.args
        found = self.resolve(name)
        return self.is_method(method) and not method.decorator_list and bool(params) and params[0].arg == name.id \
            and found is not None and found[0].node is method and all(b.kind is BindingKind.PARAM for b in found[1])

    def keeps_module_state(self, func):
        """True for a method of an NNX Module: its updates of ``self`` under nnx.jit are the
        framework's state, written back after every call, not a trace-only effect."""
        return self._tracing.roots.module_base(func) == NNX_MODULE

    def keeps_appended(self, func):
        """True for a method of a framework Module whose Python lists on ``self``, appended to under
        the framework's jit, still hold what the trace appended after the call (measured,
        ``list_attributes_kept``: NNX hands the method the object's own list)."""
        cls = self.parent(func)
        facts = self.module_facts(cls) if isinstance(cls, ast.ClassDef) else None
        return bool(facts and facts.get("list_attributes_kept"))

    def rebound_globals(self):
        """Module names bound more than once in straight-line module code, or bound there (a
        ``def`` included: ``global mock_fn; mock_fn = other`` swaps the function) and via ``global``."""
        rebound = set()
        for name, bindings in self.names.module_scope.bindings.items():
            if name.startswith("__"):
                continue
            top_level = [b for b in bindings if b.kind in (BindingKind.ASSIGN, BindingKind.OTHER) and b.stmt is not None
                         and self.names.parent.get(b.stmt) is self.tree]
            defined = any(b.kind is BindingKind.DEF and self.names.parent.get(b.stmt) is self.tree for b in bindings)
            via_global = [b for b in bindings if b.kind is BindingKind.GLOBAL]
            if len(top_level) >= 2 or ((top_level or defined) and via_global):
                rebound.add(name)
        return rebound

    def assigned_at_top_level(self, name):
        """True when module global ``name`` is bound only by assignments of the module body."""
        bindings = self.names.module_scope.bindings.get(name, ())
        return bool(bindings) and all(b.kind is BindingKind.ASSIGN and self.names.parent.get(b.stmt) is self.tree
                                      for b in bindings)

    def bound_only_before(self, name, node):
        """True when every binding of module global ``name`` is made by module code that runs
        before the top-level statement holding ``node`` (no ``global`` rebinding): ``node``'s
        code cannot run, nor be traced, before that statement, so it only sees the final value."""
        reader = self._top_level_position(node)
        return all(b.kind is not BindingKind.GLOBAL and self._top_level_position(b.node) < reader
                   for b in self.names.module_scope.bindings.get(name, ()))

    def _top_level_position(self, node):
        """Where the module-body statement that holds ``node`` starts: module statements run in
        source order, so comparing these orders them (without searching the body)."""
        while self.parent(node) is not self.tree:
            node = self.parent(node)
        return node.lineno, node.col_offset

    def dtype_of(self, expr):
        """(dtype, spelled_as_python_type) for a dtype expression, or (None, False)."""
        return dtypes.dtype_of(expr, self.names, self._tracing.dtype_resolver, self.value)

    def requested_dtype(self, call, qualname):
        """(given, dtype, spelled_as_python_type) for the dtype a call passes."""
        return dtypes.requested_dtype(call, qualname, self.names, self._tracing.dtype_resolver, self.value)

    def declared_dtype(self, call):
        """The dtype a Linen ``self.param(...)`` in a staged trace asks JAX for (before JAX narrows
        it without x64), or None."""
        if type(call.func) is not ast.Attribute or call.func.attr != "param" or self.value(call).kind is not TRACER:
            return None
        return library.param_dtype(self.names, self._tracing.dtype_resolver, self.value, call)


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
