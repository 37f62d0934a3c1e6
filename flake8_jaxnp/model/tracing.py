"""The tracing fixpoint: which functions run under a trace, with which parameters traced,
once tracing has spread from its roots (``traced.TraceRoots``) along calls that pass
tracers, and the forward pass (``values``) of every body it reached.

Tracing spreads to a same-file function that traced code calls with traced
arguments, and to a top-level function that the project's traces reach from another
module, any number of calls and modules away (``project.Project.callers``). A function reached
later is analysed again, at most a few times.
"""
import ast
from functools import partial, reduce

from ..facts import NNX_STATE_UPDATING, TREE_MAPS
from .kinds import (ARRAY_ANNOTATIONS, JAX, NUMPY, PYTHON, TRACED_ARRAY, TRACED_PARAMETER,
                    TRACER, TRACER_TREE, TREES, UNKNOWN, UNKNOWN_VALUE, Shaped, Value, join, shaped)
from . import dtypes
from .constructors import Constructors
from .containers import handing_out_jitted, summarised
from .conventions import CONSTRUCTION_HOOKS
from .names import BindingKind
from .project.targets import CONDITIONAL_STATEMENTS, NESTED_SCOPE_TYPES
from .parameters import binds_first_parameter, known_truths
from .syntax import FUNCTION_NODES, argument_for, parameters, positional, positional_names
from .applied import APPLY_OPTIONS
from .traced import Behaviour, Transform
from .imported_traces import traced_from_other_modules
from .values import NUMBER_LITERALS, FunctionFlow

DEVICE_ARRAY = Value(JAX)
# What a call passes that is one array: a device array, or a tracer from a traced caller.
PASSED_ARRAYS = (JAX, TRACER)
# What a decorated def is known to give: one array, if its body gives one whatever it is given.
ONE_ARRAY = frozenset({JAX, TRACER, NUMPY})
# Attributes only arrays have: a parameter that uses one is an array, not a pytree.
ARRAY_EVIDENCE = frozenset({"shape", "dtype", "ndim", "at", "astype", "reshape", "T"})

# Methods that a call of a class or an instance runs (Model(x), model(x), model.apply(v, x)).
CALL_RUN_METHODS = frozenset({"__init__", "__call__", *CONSTRUCTION_HOOKS})
CONSTRUCTING = CALL_RUN_METHODS - {"__call__"}

# Each function is analysed at most this many times while tracing spreads.
_MAX_PASSES_PER_FUNCTION = 4
# How many helper calls deep ``Tracing.returned`` follows what a call gives.
_MAX_HELPER_DEPTH = 8


class Tracing:
    """The forward passes of one module, with tracing spread to a fixpoint. It is what
    each forward pass asks about the rest of the module (``values.Surroundings``)."""

    def __init__(self, names, roots, callees, x64, array_sources=None, up_front=True):
        self.names = names
        # tracing -> the functions an array can enter (``reach``), asked once, on demand
        self._array_sources, self._array_bodies = array_sources, None
        self.roots = roots
        self.callees = callees
        self.x64 = x64
        self.traced = roots.traced  # function node -> TracedFunction
        self.jitted_callables = roots.jitted_callables
        # Transforms whose result, when called, gives device arrays: jax.jit(f)(x).
        self.staging_transforms = {name for name, behaviour in roots.transforms.items()
                                   if behaviour is Behaviour.STAGING and name in roots.array_results}
        self.transform_names = frozenset(roots.transforms)
        self.callee = callees.callee
        self.helper_facts = callees.helper_facts
        self.jitted_result = callees.jitted_result
        self.builds_jitted = callees.builds_jitted
        self.functions_passed = roots.instances.functions_passed
        self._methods_called = {}  # call -> the same-file methods it runs (``methods_called``)
        self.given_runs = roots.given_runs
        self.array_annotation = roots.conventions.array_annotation
        self.record = Constructors(names, self.array_annotation).record
        self.runs_layer = roots.conventions.runs_layer
        self.layer_dtype = roots.conventions.layer_dtype
        self.layer_field_on_device = roots.conventions.layer_field_on_device
        self.dtype_resolver = callees.imported_dtype if callees.project is not None else None
        self.numpy_resolver = callees.imported_numpy if callees.project is not None else None
        self.flows = {}  # def, lambda or module -> its FunctionFlow (None: too deep to analyse)
        self._nested = None  # function -> functions defined directly inside it, built on demand
        self._returned = {}  # (def, its parameters' kinds) -> what a call of it gives (``returned``)
        self.given_passes = {}  # def -> the passes ``returned`` ran with its callers' arrays in its parameters
        self._evaluating = []  # the defs whose ``returned`` is being worked out, outermost first
        self._in_progress = set()  # the bodies whose forward pass is running (``_flow``)
        # def -> the cached transform it runs under, called from traced code with no tracer:
        # the rules that need no tracer argument (print, host RNG, outer mutation) apply there
        self.trace_time = {}
        if callees.project is not None:
            traced_from_other_modules(names, roots, self.trace_time, callees.project)
        if up_front:  # (else each body's pass runs when asked, traced bodies too, as untraced code: ``model.held``)
            self._analyse()
            self._spread_trace_time()

    def _analyse(self):
        """Run the forward pass over the module and the traced functions; a function that
        tracing reaches later (called with tracers) is analysed again. Functions nothing
        traces are analysed only when a question needs them (``flow_of``): most never do."""
        self._flow(self.names.tree, {}, None)
        queue = sorted(self.traced, key=lambda f: (f.lineno, f.col_offset))
        passes = {}
        while queue:
            func = queue.pop(0)
            if passes.get(func, 0) >= _MAX_PASSES_PER_FUNCTION:
                continue
            passes[func] = passes.get(func, 0) + 1
            traced = self.traced.get(func)
            params = self._traced_parameters(func, traced) if traced else self.annotated_arrays(func, DEVICE_ARRAY)
            for callee in self._flow(func, params, traced):
                for node in [callee] + self._nested_in(callee):  # closures read the re-analysed values
                    if node not in queue:
                        queue.append(node)

    def _spread_trace_time(self):
        """Extend ``trace_time`` with the same-file defs (undecorated, not traced) that a traced
        function whose trace is cached, or a def already in it, calls on every call (not under
        an ``if``, a loop, a ``try`` or a nested def): they run once per trace, named after the
        caller, as the project's reach does across modules (``flows``)."""
        queue = [(func, traced.cached_by) for func, traced in self.traced.items() if traced.cached_by is not None]
        queue += sorted(self.trace_time.items(), key=lambda entry: (entry[0].lineno, entry[0].col_offset))
        while queue:
            func, transform = queue.pop(0)
            for call in self._unconditional_calls(func):
                for callee in self._run_by(call):
                    if isinstance(callee, ast.Lambda) or callee.decorator_list \
                            or callee in self.traced or callee in self.trace_time:
                        continue
                    where = f"called from '{getattr(func, 'name', '<lambda>')}' at line {call.lineno}"
                    self.trace_time[callee] = Transform(transform.name, transform.behaviour, where)
                    queue.append((callee, self.trace_time[callee]))
        self.trace_time = {func: transform for func, transform in self.trace_time.items() if func not in self.traced}
        for func in self.trace_time:  # a pass that ran before it was known staged runs again when asked
            self.flows.pop(func, None)

    def _run_by(self, call):
        """The same-file defs ``call`` runs: the def it names, or the methods of an object bound at
        module level that it calls (``STREAM()``, ``STREAM.next()`` with ``STREAM = KeyStream(0)``:
        that ``self`` outlives any trace; not a constructor, whose ``self`` is new)."""
        callee = self.callee(call.func)
        if callee is not None:
            return (callee,)
        receiver = call.func.value if type(call.func) is ast.Attribute else call.func
        found = self.names.resolve_name(receiver) if type(receiver) is ast.Name else None
        if not found or found[0] is not self.names.module_scope \
                or any(binding.kind is not BindingKind.ASSIGN for binding in found[1]):
            return ()
        return self.methods_called(call)

    def _unconditional_calls(self, func):
        """The calls that every run of ``func``'s body makes (outside branches, loops, ``try``,
        ``with`` and nested scopes)."""
        found = []
        for node in self.names.own_nodes(func):
            if type(node) is ast.Call:
                parent = self.names.parent[node]
                while parent is not func and type(parent) not in CONDITIONAL_STATEMENTS \
                        and type(parent) not in NESTED_SCOPE_TYPES:
                    parent = self.names.parent[parent]
                if parent is func:
                    found.append(node)
        return found

    def flow_of(self, node):
        """The forward pass of a def, lambda or the module; None if it was too deep, while it runs,
        and for other scopes (a class body, a type-parameter scope), which get no pass."""
        if node not in self.flows:
            if not isinstance(node, FUNCTION_NODES) or node in self._in_progress:
                return None  # (a def read from inside its own pass, through a closure it calls)
            given = self._known_truths(node, frozenset(), frozenset()) if type(node) is ast.FunctionDef else {}
            given.update(self.annotated_arrays(node, DEVICE_ARRAY))
            self._flow(node, {**given, **self.handing_out_self(node, True)}, None)
        return self.flows[node]

    def _stored(self, func, expr):
        """The Value that the forward pass of ``func`` gives ``expr`` (unknown while that pass runs)."""
        flow = self.flow_of(func)
        return flow.values.get(expr, UNKNOWN_VALUE) if flow is not None else UNKNOWN_VALUE

    def array_bodies(self):
        """The functions where an array can enter (``reach.ArraySources.bodies``), built once."""
        if self._array_bodies is None:
            self._array_bodies = self._array_sources(self) if self._array_sources else frozenset()
        return self._array_bodies

    def _call_sites(self, func, literals):
        """(every call of ``func`` in the file, the Values of each call's expressions: its caller's
        forward pass's, or with ``literals`` only its number literals', read from the text, the
        parameters the calls' positions fill: after ``self`` for a method called on an object), or
        None when a reference is not a call or a call is its own."""
        calls, positional = self.roots.instances.calls_of(func) or self.roots.applies.applied_calls(func), \
            positional_names(func)
        if not calls and type(self.names.parent.get(func)) is ast.ClassDef:  # obj.method(x), jax.jit(obj.method)
            calls, positional = self.roots.instances.method_calls(func), positional[1:]
        calls = calls or self.roots.instances.control_flow_calls(func)  # fori_loop(0, n, body, 3.0): body(i, 3.0)
        if not calls or any(self.names.enclosing_function(call.func) is func for call in calls):
            return None
        if literals:
            return calls, [{arg: NUMBER_LITERALS[type(arg.value)]
                            for arg in [*call.args, *(k.value for k in call.keywords)]
                            if type(arg) is ast.Constant and type(arg.value) in NUMBER_LITERALS}
                           for call in calls], positional
        flows = [self.flow_of(self.names.enclosing_function(call.func) or self.names.tree) for call in calls]
        return calls, [flow.values if flow is not None else {} for flow in flows], positional

    def _flow(self, node, params, traced):
        """Analyse one body; returns the same-file functions that tracing newly reached."""
        self._in_progress.add(node)
        try:
            flow = FunctionFlow(self, node, params, traced)
        except RecursionError:  # too deep for this interpreter: silent for this body only
            self.flows[node] = None
            return []
        finally:
            self._in_progress.discard(node)
        self.flows[node] = flow
        reached = []
        for callee, call, args, keywords in flow.calls:
            for each in (callee, *self.roots.instances.overrides(call.func)) if traced is not None else ():
                if self._spread(each, call, args, keywords, traced):  # (a subclass's override may run instead)
                    reached.append(each)
            if traced is not None:
                reached.extend(self.roots.rules_reached(callee, call, node, traced))
        flow.calls = []
        return reached

    def returned(self, call, args, keywords):
        """What a call of a project function gives, or None. A def of this file: what its ``return``
        statements give, joined (``X, y = make_data()``), its parameters bound to the call's arguments
        when an array is among them (``return x @ w`` given a tracer gives a tracer, through any number
        of helpers), else its own forward pass (the one checks read); once per kinds of arguments, not
        through recursion nor more than ``_MAX_HELPER_DEPTH`` helpers down; of a decorated def, the kind
        of one array its own pass gives alone. A function of another module: its summary's
        (``_summarised``)."""
        callee = self.callee(call.func)
        if callee is not None:
            return self._returned_by(callee, type(call.func) is ast.Attribute, call, args, keywords)
        # model(x), Block()(x), self.block(x), block.gate(x): the methods it runs, self bound, joined
        methods, value = self.methods_called(call), None
        applied = getattr(call.func, "attr", None) == "apply"
        if not methods or applied and (not args or "mutable" in keywords) \
                or any(getattr(method, "name", None) in CONSTRUCTING for method in methods):  # Model(x): the object
            return self._summarised(call, args, keywords)
        if applied:  # model.apply(variables, x): what the method gives for what follows the variables
            args, keywords = args[1:], {k: v for k, v in keywords.items() if k not in APPLY_OPTIONS}
        for method in methods:
            each = self._returned_by(method, type(self.names.parent.get(method)) is ast.ClassDef, call, args, keywords)
            if each is None:
                return None
            value = each if value is None else join(value, each)
        return value

    def _returned_by(self, callee, bound, call, args, keywords):
        """What ``callee`` gives for one call (``returned``); ``bound``: ``self`` is not among ``args``."""
        if callee in self._evaluating or len(self._evaluating) >= _MAX_HELPER_DEPTH:
            return None
        given = [*args, *keywords.values()]  # (with what ``*args`` and ``**options`` spread)
        decorated = not self.roots.conventions.returns_result(callee)  # (a decorator may wrap the result)
        caller = self.names.enclosing_function(call)
        host_call_of_traced = callee in self.traced and not decorated and caller not in self.traced \
            and caller not in self.trace_time  # (model(batch) in host code: its own pass, not the traced one)
        if decorated or not host_call_of_traced and not any(value.traced or value.on_device for value in given):
            # (no array enters a def the reach leaves out, and none comes out)
            if callee in self.traced or callee in self._in_progress or type(self.names.parent[call]) is ast.Expr \
                    or callee not in self.array_bodies():  # (nor is a result thrown away worth a pass)
                return None
            self._evaluating.append(callee)
            try:
                value = self.returned_value(callee, self.flow_of(callee))
            finally:
                self._evaluating.pop()
            if decorated and value is not None:  # the kind of one array alone, a tracer when given one
                kind = (TRACER if any(v.traced for v in given) else JAX) if value.kind in PASSED_ARRAYS else value.kind
                value = Value(kind) if value.kind in ONE_ARRAY else None
            return value
        if any(type(a) is ast.Starred for a in call.args) or None in keywords:
            return None  # an array among arguments spread over parameters not known
        names = positional_names(callee, bound)  # a bound method: self is not known here
        if len(args) > len(names) or not set(keywords) <= set(names) | {a.arg for a in callee.args.kwonlyargs}:
            return None
        params = {name: Value(value.kind) for name, value in zip(names, args)}
        params.update((name, Value(value.kind)) for name, value in keywords.items())
        key = (callee, tuple(sorted((name, value.kind.value) for name, value in params.items())))
        if key not in self._returned:
            self._evaluating.append(callee)
            try:
                flow = FunctionFlow(self, callee, params, None)
            except RecursionError:
                flow = None
            finally:
                self._evaluating.pop()
            self.given_passes.setdefault(callee, []).append(flow)
            value = self.returned_value(callee, flow)  # (a tree: it may be a parameter as it came)
            self._returned[key] = None if value is None or value.kind in TREES else value
        return self._returned[key]

    def _summarised(self, call, args, keywords):
        """What a call of another project module's function gives by its summary (``containers.summarised``);
        of a lookup in its dict of functions (``KERNELS[name](p, x)``), what each entry it may give does, joined."""
        helper = self.helper_facts(call.func)
        if helper is None:  # (in a traced body, what its objects hold is its trace's)
            func = self.names.enclosing_function(call)
            helper = self.callees.held_facts(call, func in self.traced or func in self.trace_time)
        values = [summarised(facts, call, args, keywords, partial(  # (a jitted function's summary has no params)
            dtypes.argument_dtype, call, facts.get("params", ()), self.names, self.dtype_resolver))
            for facts, _ in ([helper] if helper is not None else self.callees.entry_facts(call.func))]
        return None if not values or None in values else reduce(join, values)

    def returned_value(self, callee, flow):
        """What every ``return`` of ``callee`` gives in ``flow``, joined, or None when unknown."""
        expression = isinstance(callee, ast.Lambda)
        returns = [callee.body] if expression else self.callees.returned_values(callee)
        if flow is None or not returns or None in returns \
                or not expression and type(callee.body[-1]) is not ast.Return:
            return None  # a bare return, or a def that may end without one, gives None
        value = flow.values.get(returns[0], UNKNOWN_VALUE)
        for other in returns[1:]:
            value = join(value, flow.values.get(other, UNKNOWN_VALUE))
        return None if value.kind is UNKNOWN else value

    def methods_called(self, call):
        """``roots.methods_called``, kept per call: the file's text alone says, and every forward
        pass through the call asks again (a loop's body twice, a helper once per kinds of arguments)."""
        if call not in self._methods_called:
            self._methods_called[call] = self.roots.methods_called(call)
        return self._methods_called[call]

    def updates_state(self, callee):
        traced = self.traced.get(callee)
        return traced is not None and any(t.name in NNX_STATE_UPDATING for t in traced.transforms)

    def outer_value(self, scope_node, name):
        """What a closure or global read of ``name`` sees."""
        if scope_node is self.names.tree and name in self.names.global_rebinds:
            return UNKNOWN_VALUE
        flow = self.flow_of(scope_node)
        if flow is None:
            return UNKNOWN_VALUE
        return flow.assigned.get(name, UNKNOWN_VALUE)

    def stored_value(self, expr):
        """What ``obj.attr`` reads where every store that can have put it there (``stores.stored_values``)
        stores device data, or every one host NumPy data, each in its method's forward pass: that data;
        else unknown."""
        value = None
        for method, stored in self.roots.instances.stored_values(expr) or ((None, None),):
            flow = self.flow_of(method) if method is not None else None
            found = flow.values.get(stored) if flow is not None else None
            if found is None or not found.on_device and found.kind is not NUMPY:
                return UNKNOWN_VALUE
            value = found if value is None else join(value, found)
        return Value(value.kind) if value.on_device or value.kind is NUMPY else UNKNOWN_VALUE

    def _traced_parameters(self, func, traced):
        """Traced parameters are pytrees unless used as arrays and never rebound. Where
        every transform leaves Python scalars static (``equinox.filter_jit``), only the
        parameters used as arrays are known to be tracers."""
        scope, traced_params = self.names.scopes[func], traced.tracer_params
        candidates = {name for name in traced_params if len(scope.bindings.get(name, ())) == 1}
        arrays = set()
        if candidates:
            for node in self.names.own_nodes(func):
                if type(node) is ast.Attribute and node.attr in ARRAY_EVIDENCE \
                        and type(node.value) is ast.Name and node.value.id in candidates:
                    arrays.add(node.value.id)
        arrays |= set(self.annotated_arrays(func, TRACED_ARRAY)) & traced_params
        arrays |= traced.arrays & candidates  # every traced caller passes an array
        scalars_static = [t.name in self.roots.scalars_static and not t.chosen for t in traced.transforms]
        passed = self._passed_arrays(func, (traced_params - arrays) | traced.optional_params,
                                     scalars=not any(scalars_static))
        arrays |= passed
        traced_params = traced_params | (passed & traced.optional_params)
        if all(scalars_static):
            params = {name: TRACED_ARRAY for name in arrays}
        else:
            params = {name: TRACED_ARRAY if name in arrays else TRACED_PARAMETER for name in traced_params}
        if not any(scalars_static):
            params.update(self._records(func, traced_params))
        params.update(self._known_truths(func, traced_params | arrays, traced.optional_params))
        if func in self.roots.traced_fields:
            params["self"] = self._constructed(func)
        elif positional_names(func)[:1] == ["self"]:
            staged = traced.cached_by is not None
            params["self"] = self.roots.conventions.module_self(func, "self" in traced_params, staged, self._stored)
        return params

    def _known_truths(self, func, traced_params, traced_when_passed):
        """``parameters.known_truths`` of the Python parameters (not in ``traced_params``) of ``func``,
        read from the text of its calls in the file, as ``_passed_arrays`` reads them: a parameter
        every call gives a string (``timed(f, "jit")``) is a Python value, also in a def no trace reaches."""
        names = [arg.arg for arg in parameters(func) if arg.arg not in traced_params and arg.arg != "self"]
        sites = self._call_sites(func, literals=True) if names and not isinstance(func, ast.Lambda) else None
        if sites is None:
            return {}
        calls, _, positional_params = sites
        decorated = bool(getattr(func, "decorator_list", None))  # (then every call is through its transform)
        staged = [call for call in calls if decorated or self.callee(call.func) is not func]
        known = known_truths(func, names, calls, positional_params, traced_when_passed, staged)
        return {name: (NUMBER_LITERALS[types.pop()] if len(types) == 1 and types <= set(NUMBER_LITERALS)
                       else Value(PYTHON, weak=types <= set(NUMBER_LITERALS))).replace(truth=truth)
                for name, (truth, types) in known.items()}  # (a number keeps its weak dtype)

    def _passed_arrays(self, func, names, scalars):
        """The parameters among ``names`` that every call of ``func`` in the file passes an
        array (``step(model, jnp.ones(3))``), under a transform that leaves Python scalars static
        (``equinox.filter_jit``); with ``scalars`` (one that traces them: ``jax.jit``) a Python
        number literal through the transform (``_gate(True)`` of a jitted ``_gate``, not a plain
        call of an undecorated root), read from the call's text: asking the callers' passes for
        other arguments cost 9% of the plugin's time on the research corpus. The trace makes each
        a traced array, so ``if flag:`` fails there. Callers that disagree, or a reference other
        than a call, leave the parameter a pytree."""
        sites = self._call_sites(func, literals=scalars) if names else None
        if sites is None:
            return set()
        calls, values_seen, positional = sites
        found = set()
        for name in names:
            if all(self._passes_array(func, call, values.get(argument_for(call, positional, name)), scalars)
                   for call, values in zip(calls, values_seen)):
                found.add(name)
        return found

    def _passes_array(self, func, call, value, scalars):
        """Whether ``call`` passes ``value`` to ``func``'s trace as one array."""
        if value is None or value.kind in PASSED_ARRAYS:
            return value is not None
        through_transform = getattr(func, "decorator_list", None) or self.callee(call.func) is not func \
            or self.names.parent.get(call.func) is not call  # a call control flow makes: the loop traces it
        return scalars and value.kind is PYTHON and value.weak and bool(through_transform)

    def _constructed(self, method):
        """What ``self`` holds in a method of an object that traced code built from tracers: a
        dataclass's ``__post_init__`` (its traced fields, arrays where annotated so), a method run on
        it there (``instances.built_fields``); nothing known of the other attributes."""
        annotations = {field.id: self.names.parent[field].annotation
                       for field in self.roots.conventions.dataclass_fields(method) or ()}
        return Shaped(PYTHON, members=tuple(
            (("attr", name), TRACED_ARRAY if name in annotations and self.names.qualname(annotations[name])
             in ARRAY_ANNOTATIONS else TRACED_PARAMETER) for name in sorted(self.roots.traced_fields[method])))

    def _records(self, func, names):
        """{parameter: its record's traced fields} for traced parameters annotated with a pytree
        class of this module (``state: State``), or given one by every call of the function
        (``roll_out(SimState(...))``, a framework's ``TrainState.create(...)``): its pytree children are traced.
        A framework Module of this module (``layer: Block``) holds what its ``self`` holds given to a
        transform (``conventions.module_instance``: its array fields and Variables traced)."""
        if isinstance(func, ast.Lambda):
            return {}
        found = {}
        for arg in [arg for arg in positional(func) + func.args.kwonlyargs if arg.arg in names]:
            cls = self.roots.instances.parameter_class(func, arg)  # else a framework's, TrainState.create(...)
            shape = self.callees.class_record(cls) if cls else self.roots.built.framework_record(func, arg.arg)
            if shape is not None:
                found[arg.arg] = shaped(shape, TRACER_TREE)
            elif cls is not None and self.roots.conventions.module_facts(cls) is not None:
                instance = self.roots.conventions.module_instance(cls, True, False, self._stored)
                found[arg.arg] = Shaped(TRACER_TREE, members=instance.members)  # a pytree the transform traces
        return found

    def handing_out_self(self, func, held=False):
        """{self: the instance} for a method of this module's class whose instances hand out jitted
        calls (``callees.own_instance``): ``self.step(x)`` in ``fit`` gives device arrays; ``held``:
        also the containers its class holds (``instances.held_containers``: ``self.returns = []``)."""
        instance = self.callees.own_instance(func) if type(func) is ast.FunctionDef else None
        members = handing_out_jitted(instance).members if instance else ()
        cls = self.names.parent.get(func)
        if held and type(func) is ast.FunctionDef and type(cls) is ast.ClassDef and func.args.args \
                and not func.decorator_list:
            members += tuple((("attr", attr), held) for attr, held in self.roots.instances.held_containers(cls).items())
        return {func.args.args[0].arg: Shaped(UNKNOWN, members=members)} if members else {}

    def annotated_arrays(self, func, value):
        """{parameter: value} for parameters annotated as JAX arrays (``x: jax.Array``,
        ``jnp.ndarray``, jaxtyping's ``Float[Array, "n"]``)."""
        if isinstance(func, ast.Lambda):
            return {}
        return {arg.arg: value for arg in positional(func) + func.args.kwonlyargs  # not *args, **kwargs
                if self.array_annotation(arg.annotation)}

    def _spread(self, callee, call, args, keywords, caller):
        """Spread tracing to a same-file function called with traced arguments; True if it changed."""
        params = set()
        bound = isinstance(call.func, ast.Attribute) and (type(self.names.parent.get(callee)) is ast.ClassDef or callee
                                                          not in self.roots.stored_functions(call.func)) \
            or getattr(callee, "name", None) in CALL_RUN_METHODS \
            or type(call.func) is ast.Call and bool(call.func.args) and binds_first_parameter(call.func.args[0], callee)
        positional_params = positional_names(callee, bound)
        mapped = self._mapped(callee, call)
        if mapped:  # jax.tree.map(f, tree, *rest): f gets one leaf of each tree
            positional_params, keywords = [None] + positional_params, {}
            args = [self._leaf(call, value) for value in args]
        options, transforms = (), caller.transforms
        hook = getattr(callee, "name", None) in CONSTRUCTION_HOOKS  # Box(lo, hi) runs __post_init__ on its fields
        fields = self.roots.conventions.dataclass_fields(callee) if hook else None
        run = next((run for run in self.roots.given_runs(call.func) if run[0] is callee), None)
        through = run is not None  # state.apply_fn(...) runs what apply_fn= gives, tx.update(...) a schedule
        applied = callee in self.roots.applies.applied_methods(call.func, call.keywords)
        if fields is not None:  # Box(lo, hi): the dataclass's fields, read as self.lo in __post_init__
            positional_params = [field.id for field in fields]
        elif applied or through and run[1]:  # model.apply(variables, x): self holds the variables
            positional_params, options = [None] + positional_params, APPLY_OPTIONS
            params.update(["self"] if args and args[0].holds_tracers else [])
        arrays, python = set(), set()
        if bound and positional_names(callee)[:1] == ["self"] and self._traced_receiver(call, caller):
            params.add("self")  # model.predict(x), model a traced object: its fields are the trace's
        vararg = callee.args.vararg if fields is None and not mapped else None  # *data gathers the rest
        if through and run[2] is not None:  # tx.update(...): the transformation gives its own tracers
            positional_params, keywords, params, arrays, vararg = [], {}, set(run[2]), set(run[3]), None
        for index, (node, value) in enumerate(zip(call.args, args)):
            if isinstance(node, ast.Starred):  # f(*data), data a traced tuple: so is what each parameter gets
                if value.traced:
                    params.update(name for name in positional_params[index:] if name is not None)
                    params.update([vararg.arg] if vararg is not None else [])
                break
            if index < len(positional_params) and positional_params[index] is not None:
                if value.holds_tracers:
                    params.add(positional_params[index])
                    if value.kind is TRACER:
                        arrays.add(positional_params[index])
                elif value.kind is PYTHON:
                    python.add(positional_params[index])
            elif index >= len(positional_params) and vararg is not None and value.traced:
                params.add(vararg.arg)
        for name, value in keywords.items():
            if name is not None and name not in options and value.holds_tracers:
                params.add(name)
                if value.kind is TRACER:
                    arrays.add(name)
            elif name is not None and name not in options and value.kind is PYTHON:
                python.add(name)
        changed = self._given_python(callee, python)
        through_object = getattr(callee, "name", None) in CALL_RUN_METHODS or applied \
            or self.roots.instance_methods(call.func)
        if (through or through_object) and hasattr(caller.node, "name"):
            where = f"called from '{caller.node.name}' at line {call.lineno}"  # '__init__' alone names no class
            if through:  # which function it is comes from an apply_fn= keyword or a transformation
                where = f"called through {ast.unparse(call.func)} from '{caller.node.name}' at line {call.lineno}"
            given = through and run[2] is not None  # what the transformation gives are tracers, never static scalars
            transforms = [Transform(t.name, t.behaviour, t.root or where, t.chosen or given, t.assumed)
                          for t in transforms]
        flow = self.flows.get(caller.node) if fields is None and bound else None
        held = params if fields is not None else self.roots.instances.built_fields(callee, call, flow.values) \
            if flow is not None else ()
        if held:  # __post_init__(self), Rx(phase).array(): self holds the traced fields
            known = self.roots.traced_fields.setdefault(callee, set())
            changed |= not held <= known
            known |= held
            params, arrays = ({"self"}, set()) if fields is not None else (params | {"self"}, arrays)
        if params or self._closure_under_transform(callee, call, caller):
            for transform in transforms:
                changed |= self.roots.mark(callee, transform, params, arrays)
        return changed

    def _traced_receiver(self, call, caller):
        """Whether the object whose method ``call`` runs (``model.predict(x)``, ``model(x)``) is, in the
        traced ``caller``, a traced parameter never rebound (``model`` of an ``eqx.filter_grad`` loss)
        or a traced value."""
        receiver = call.func.value if type(call.func) is ast.Attribute else call.func
        if type(receiver) is not ast.Name:
            return False
        bindings = self.names.scopes[caller.node].bindings.get(receiver.id, ())
        if receiver.id in caller.tracer_params and len(bindings) == 1:
            return True
        flow = self.flows.get(caller.node)
        return flow is not None and flow.values.get(receiver, UNKNOWN_VALUE).traced

    def _given_python(self, callee, python):
        """Record that a call passes Python values to ``python`` of a framework Module's method
        that its contract traces: those parameters are static config there, not tracers."""
        traced = self.traced.get(callee)
        if traced is None or not python & traced.assumed_params - traced.python_params:
            return False
        traced.python_params |= python
        return True

    def _closure_under_transform(self, callee, call, caller):
        """Whether ``call`` runs ``callee``, a def nested in the traced ``caller``, through a
        transform (``jax.grad(loss)(state.params)``) or on a tree's leaves (``jax.tree.map``):
        it then runs inside the caller's trace, its reads of the caller's tracers are tracers
        there, whatever its arguments are."""
        return (type(call.func) is ast.Call or self._mapped(callee, call)) \
            and self.names.enclosing_function(callee) is caller.node

    def _mapped(self, callee, call):
        """Whether ``call`` maps ``callee`` over trees (``jax.tree.map(callee, params)``)."""
        return self.names.qualname(call.func) in TREE_MAPS and self.callee(call.args[0]) is callee

    @staticmethod
    def _leaf(call, tree):
        """What a function mapped over ``tree`` by ``call`` gets: a leaf of a traced tree is a
        traced array, unless ``is_leaf=`` stops at subtrees."""
        if not tree.traced:
            return UNKNOWN_VALUE
        subtrees = tree.kind is TRACER_TREE and any(k.arg == "is_leaf" for k in call.keywords)
        return TRACED_PARAMETER if subtrees else TRACED_ARRAY

    def _nested_in(self, func):
        if self._nested is None:
            self._nested = {}
            for inner in self.names.functions:
                self._nested.setdefault(self.names.enclosing_function(self.names.parent[inner]), []).append(inner)
        return self._nested.get(func, [])
