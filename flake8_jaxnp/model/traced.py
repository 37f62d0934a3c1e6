"""Which functions JAX traces, by which transform, with which parameters traced.

Roots come from decorators (``@jax.jit``, ``@partial(jax.jit, static_argnums=1)``),
call forms (``jax.jit(f)``, ``jax.grad(loss)(p)``, ``jax.jit(lambda x: ...)``) and
bodies handed to ``lax.scan`` and friends. Functions called from traced code are added
later, by the value analysis, which knows which arguments carry tracers.
"""
import ast
from functools import lru_cache, partial
from types import MappingProxyType

from .. import api
from ..record import Constants, Record
from .aliases import TransformAliases
from .applied import LinenApplies
from .constructors import unflattening_constructor
from .conventions import LINEN_MODULE, Conventions
from .built import BuiltObjects
from .instances import Instances, method_in
from .library import traced_bodies
from .parameters import (applied_parameters, binds_first_parameter, traced_parameters, traces_the_class,
                         transform_options)
from .syntax import PARTIAL, argument_for, literals, named_options, positional_names, transform_spec


class Behaviour(Constants):
    """How a transform treats the function it traces (measured on the installed JAX).

    abstract: comparisons, truth tests and data-dependent shapes fail on its
        tracers (true for jit/vmap/lax bodies; under grad alone they do not).
    cached: the Python body runs at trace time only, so side effects do not
        repeat on later calls or iterations.
    """

    STAGING = "staging"  # jit, pmap, lax bodies: abstract and cached
    BATCHING = "batching"  # vmap, checkpoint: abstract
    DIFFERENTIATING = "differentiating"  # grad and friends
    EAGER = "eager"  # jax.shard_map called eagerly: like grad, every argument traced

    @classmethod
    def measured(cls, abstract, cached):
        """The behaviour of a transform the generator measured as ``abstract``/``cached``."""
        return _MEASURED[(abstract, cached)]

    @property
    def abstract(self):
        return self is Behaviour.STAGING or self is Behaviour.BATCHING

    @property
    def cached(self):
        return self is Behaviour.STAGING


_MEASURED = {(True, True): Behaviour.STAGING, (True, False): Behaviour.BATCHING,
             (False, False): Behaviour.DIFFERENTIATING}


class Transform(Record):
    """One transform applied to a function: its dotted name and how it behaves, and where
    it was applied when that is not at the function's definition (``root``, for messages)."""

    __slots__ = (
        "name", "behaviour", "root",
        "chosen",  # another module's reach chose the traced parameters (across modules)
        "assumed",  # the framework's contract, not a transform the code shows, traces it
    )
    DEFAULTS = {"root": None, "chosen": False, "assumed": False}

    @property
    def shown(self):
        """The transform as messages name it: with its root when applied elsewhere."""
        return f"{self.name} ({self.root})" if self.root else self.name

    @property
    def abstract(self):
        return self.behaviour.abstract

    @property
    def cached(self):
        return self.behaviour.cached


_UNREAD = object()  # a question not asked yet
_STAGING, _BATCHING, _DIFFERENTIATING = Behaviour.STAGING, Behaviour.BATCHING, Behaviour.DIFFERENTIATING
_EAGER = Behaviour.EAGER


@lru_cache(maxsize=8)
def transform_tables(extra_transforms):
    """TraceRoots' tables of transforms, for the generated facts plus ``extra_transforms``."""
    transforms, array_results = function_transforms(), array_result_transforms()
    scalars_static, class_lifting = set(), set()
    for dotted, measured in api.framework_transforms().items():
        behaviour = _framework_behaviour(measured)
        if behaviour is not None:
            transforms[dotted] = behaviour
            array_results.add(dotted)
            if measured.get("lifts_class"):
                class_lifting.add(dotted)
            if measured["python_scalars_static"] and behaviour is not _DIFFERENTIATING:
                scalars_static.add(dotted)
    for dotted in extra_transforms:
        transforms[dotted] = _STAGING
        array_results.add(dotted)
        scalars_static.discard(dotted)
    return MappingProxyType(transforms), frozenset(array_results), frozenset(scalars_static), frozenset(class_lifting)


def function_transforms():
    """Transforms that take the function as first argument -> Behaviour (generated), but those that run
    it at once to compute nothing (``jax.eval_shape(f, x)``): a shape query, usually of a closure made
    per call, whose trace is then not cached (4 false side-effect findings on the library corpus)."""
    return {name: Behaviour.measured(facts["abstract"], facts["cached"]) for name, facts in api.transforms().items()
            if facts["computes"] or facts["arguments"] == "later"}


def array_result_transforms():
    """Transforms whose transformed function gives JAX arrays when called (not ``make_jaxpr``)."""
    return {name for name, facts in api.transforms().items() if facts["arrays"]}


class TracedFunction(Record):
    """A function JAX traces: by what, and which of its parameters are tracers."""

    __slots__ = ("node", "transforms", "traced_params", "array_params", "tree_params", "assumed_params",
                 "python_params", "optional_params", "differentiated_params")
    FROZEN = False

    def __init__(self, node):
        self.node = node
        self.transforms = []
        self.traced_params = set()
        self.array_params = set()  # given one traced array by a call that spread tracing
        self.tree_params = set()  # given anything else traced (a pytree, a tracer of a root)
        # A framework Module's method: the parameters its framework's contract makes tracers, less
        # those a call in the file passes a Python value (``self.repeat(x, 2)``: a static count).
        self.assumed_params = set()
        self.python_params = set()
        self.optional_params = set()  # defaulted ones a call passes: jax.jit(f)(a, 30)
        self.differentiated_params = set()  # those a differentiating transform gives tracers

    @property
    def abstract(self):
        return any(t.abstract for t in self.transforms)

    @property
    def cached_by(self):
        """The first transform that caches the trace (one the code shows first), or None."""
        return next((t for t in self._shown_first if t.cached), None)

    @property
    def transform(self):
        """The transform messages name: the one that caches the trace, else the first abstract one."""
        return (self.cached_by or next((t for t in self._shown_first if t.abstract), self.transforms[0])).shown

    @property
    def _shown_first(self):
        return sorted(self.transforms, key=lambda t: t.assumed)

    def add(self, transform, params, arrays=frozenset()):
        """Record one more trace; ``arrays``: the ``params`` it passes a single traced array."""
        trees = params - arrays
        changed = transform not in self.transforms or not params <= self.traced_params \
            or not arrays <= self.array_params or not trees <= self.tree_params
        if transform not in self.transforms:
            self.transforms.append(transform)
        self.traced_params |= params
        self.differentiated_params |= params if transform.behaviour is _DIFFERENTIATING else set()
        self.array_params |= arrays
        self.tree_params |= trees
        return changed

    @property
    def arrays(self):
        """Parameters every traced call so far passed an array (not a pytree) to."""
        return self.array_params - self.tree_params

    @property
    def tracer_params(self):
        """The parameters that hold tracers: given by a traced call, or by the framework's contract."""
        return self.traced_params | (self.assumed_params - self.python_params)


class TraceRoots:
    """Finds the functions that transforms and lax bodies trace directly."""

    def __init__(self, names, extra_transforms=(), project=None):
        self.names = names
        # transform -> Behaviour; those whose result gives arrays when called; those leaving Python
        # scalars static (eqx.filter_*); those applied to a Module class (nn.scan(Cell, ...)); shared.
        self.transforms, self.array_results, self.scalars_static, self.class_lifting = \
            transform_tables(tuple(extra_transforms))
        self.aliases = TransformAliases(names, self.transforms, project)  # jit_classes = partial(jax.jit, ...)
        self.traced = {}  # function node -> TracedFunction
        self.jitted_callables = set()  # Name-bound values that are transformed functions
        self.differentiated = {}  # function node -> the parameters grad & co. differentiate
        self.traced_fields = {}  # dataclass __post_init__ -> the fields its constructor got tracers for
        self._rules = None  # custom_jvp/custom_vjp def -> its derivative rules, on demand
        self._given_apply_fn = _UNREAD  # what the file's apply_fn= keywords name, on demand
        # The class of the object a name holds (the table is no method of self: no reference cycle).
        self.instances = Instances(names, partial(transform_spec, qualname=names.qualname, transforms=self.transforms))
        self.built = BuiltObjects(names, self.instances)  # what a framework's builders give: tx, a TrainState
        self.conventions = Conventions(names, self.instances)
        self.applies = LinenApplies(names, self.instances)  # what a linen Module's ``apply`` runs
        for func in names.functions:
            if not isinstance(func, ast.Lambda):
                self._from_decorators(func)
        for call in names.calls:
            self._from_call(call)
        for cls in names.by_type.get(ast.ClassDef, ()):
            self._by_convention(cls)
        for call in names.calls:
            self._rebuilt_arguments(call)
        for func in list(self.differentiated):  # jax.grad(f) of a custom_jvp f: its rule is traced
            if self.differentiated[func]:
                self._mark_rules(func, self.traced[func].transforms)

    # ---- custom_jvp / custom_vjp rules ---------------------------------------------
    def rules_reached(self, custom, call, caller, traced):
        """The derivative rules of ``custom`` (a same-file custom_jvp/custom_vjp def) newly
        traced because ``caller``, traced by ``traced``, calls it with a parameter that a
        transform differentiates: JAX runs the JVP rule (or fwd and bwd) only then."""
        differentiated = self.differentiated.get(caller)
        if not differentiated or custom not in self.derivative_rules() or not any(
                type(a) is ast.Name and a.id in differentiated
                and len(self.names.scopes[caller].bindings.get(a.id, ())) == 1 for a in call.args):
            return []
        return self._mark_rules(custom, traced.transforms)

    def _mark_rules(self, custom, transforms):
        """Mark the rules of ``custom`` as traced by ``transforms``. Under jit they get
        tracers throughout; under grad alone only the JVP rule's tangents are tracers
        (primals, fwd and bwd see concrete arrays), as measured on the installed JAX."""
        staged = any(t.behaviour is _STAGING for t in transforms)
        reached = []
        for rule, role in self.derivative_rules().get(custom, ()):
            positional = positional_names(rule)
            if role == "jvp":
                params = set(positional if staged else positional[1:2])
            elif role == "bwd":
                params = set(positional[-1:] if staged else ())
            else:
                params = set(positional if staged else ())
            changed = False
            for transform in transforms if params else ():
                changed |= self.mark(rule, transform, params)
            if changed:
                reached.append(rule)
        return reached

    def derivative_rules(self):
        """{def decorated with jax.custom_jvp/custom_vjp: [(rule def, "jvp" | "fwd" | "bwd")]}
        from ``@f.defjvp``, ``f.defjvp(rule)`` and ``f.defvjp(fwd, bwd)``. A custom function
        with nondiff_argnums is left out: its rules' first parameters are not tracers."""
        if self._rules is None:
            self._rules = {}
            for func in self.names.functions:
                for decorator in getattr(func, "decorator_list", ()):
                    if isinstance(decorator, ast.Attribute) and decorator.attr == "defjvp":
                        self._add_rules(decorator.value, "jax.custom_jvp", [(func, "jvp")])
            for call in self.names.calls:
                func = call.func
                if isinstance(func, ast.Attribute) and func.attr in ("defjvp", "defvjp") and not call.keywords:
                    roles = ("jvp",) if func.attr == "defjvp" else ("fwd", "bwd")
                    rules = [(self.names.function_bound_to(a), r) for a, r in zip(call.args, roles)]
                    if len(call.args) == len(roles) and all(rule is not None for rule, _ in rules):
                        self._add_rules(func.value, "jax.custom_jvp" if roles == ("jvp",) else "jax.custom_vjp",
                                        rules)
        return self._rules

    def _add_rules(self, custom_expr, decorator_name, rules):
        custom = self.names.function_bound_to(custom_expr)
        if custom is not None and not isinstance(custom, ast.Lambda) \
                and [self.names.qualname(d) for d in custom.decorator_list] == [decorator_name]:
            self._rules.setdefault(custom, []).extend(rules)

    def mark(self, func, transform, params, arrays=frozenset()):
        """Record that ``transform`` traces ``func`` with ``params`` as tracers (``arrays`` of
        them known to be single arrays)."""
        entry = self.traced.setdefault(func, TracedFunction(func))
        return entry.add(transform, params, arrays)

    # ---- framework conventions ----------------------------------------------------
    def _by_convention(self, cls):
        """Mark the methods that ``cls``'s framework traces by its contract (``conventions``)."""
        facts = self.conventions.module_facts(cls)
        if facts is None or self.conventions.called_only_here(cls):
            return
        for method, params in self.conventions.traced_methods(cls, facts):
            behaviour = _STAGING if facts["cached"] else _BATCHING
            transform = Transform(facts["names"][0], behaviour, f"{cls.name}.{method.name} runs under {facts['path']}",
                                  assumed=True)
            self.mark(method, transform, set())
            self.traced[method].assumed_params |= params

    # ---- pytree classes rebuilt inside a trace --------------------------------------
    def _rebuilt_arguments(self, call):
        """A transform unflattens each traced argument inside its trace, and the unflattening of
        some pytree classes runs their constructor on the tracers: ``__init__`` of a
        ``register_pytree_node_class`` whose ``tree_unflatten`` returns ``cls(*children)``, and
        ``__post_init__`` of a ``register_dataclass`` dataclass (measured), given its data fields."""
        applied = type(call.func) is ast.Call and call.func.args and self.transform_spec(call.func.func) is not None
        named = call.func.args[0] if applied else call.func
        target = self.names.function_bound_to(named) if type(named) in (ast.Name, ast.Lambda) else None  # no self
        traced = self.traced.get(target) if applied or target in self.jitted_callables else None
        if traced is None:
            return
        names = positional_names(target)
        given = [(names[i], a) for i, a in enumerate(call.args[:len(names)]) if type(a) is not ast.Starred]
        for name, arg in given + [(k.arg, k.value) for k in call.keywords]:
            cls = self.instances.class_of(arg) if name in traced.traced_params and type(arg) in (
                ast.Name, ast.Call) else None
            constructor, params, fields = unflattening_constructor(
                cls, self.names.qualname, self.conventions.dataclass_fields) if cls is not None else (None,) * 3
            if fields is not None:  # __post_init__(self): self holds the data fields
                self.traced_fields.setdefault(constructor, set()).update(fields)
            for transform in traced.transforms if constructor is not None else ():
                root = f"rebuilding {cls.name} from its leaves at line {call.lineno}"
                self.mark(constructor, Transform(transform.name, transform.behaviour, root), params)

    # ---- decorators ---------------------------------------------------------
    def _from_decorators(self, func):
        # Decorators apply bottom-up; each one traces the same def, unless it fails on the class
        # first (a jit under @classmethod, JNP205).
        decorators = [self.names.qualname(d) for d in func.decorator_list]
        for index in reversed(range(len(decorators))):
            spec = self.transform_spec(func.decorator_list[index])
            if spec is not None and not traces_the_class(func, decorators, index, spec[1]):
                name, keywords = spec
                self._trace(func, name, keywords, bound_positional=0, bound_names=())

    def transform_spec(self, expr):
        """(transform name, keywords) for ``jax.jit``, ``partial(jax.jit, ...)``, ``jax.jit(...)``, an alias."""
        return transform_spec(expr, self.names.qualname, self.transforms) or self.aliases.spec(expr)

    # ---- call forms -------------------------------------------------------------
    def _from_call(self, call):
        qualname = self.names.qualname(call.func)
        if qualname in self.transforms and call.args:
            self._trace_argument(call.args[0], qualname, transform_options(qualname, call))
        elif isinstance(call.func, ast.Call):
            spec = self.transform_spec(call.func)  # partial(jax.jit, ...)(f)
            if spec is not None and call.args:
                self._trace_argument(call.args[0], spec[0], spec[1] + call.keywords)
        elif positions := api.control_flow_bodies().get(qualname) or traced_bodies(call, qualname):
            if qualname == "jax.lax.cond" and len(call.args) == 5:
                positions = (2, 4)  # the old cond(pred, t_operand, t_fun, f_operand, f_fun)
            for pos in positions:
                if pos < len(call.args):
                    arg = call.args[pos]
                    bodies = arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]
                    for body in bodies:
                        self._trace_argument(body, qualname, [], lax=True)

    def _trace_argument(self, arg, transform_name, keywords, lax=False, bound_positional=0, bound_names=(),
                        partial_keywords=()):
        if isinstance(arg, ast.Call):
            inner = self.names.qualname(arg.func)
            if inner in self.transforms and arg.args:  # jax.jit(jax.grad(f))
                self._trace_argument(arg.args[0], inner, transform_options(inner, arg))
                self._trace_argument(arg.args[0], transform_name, keywords, lax)
                return
            if inner in PARTIAL and arg.args:  # jax.jit(partial(f, cfg))
                self._trace_argument(arg.args[0], transform_name, keywords, lax,
                                     bound_positional + len(arg.args) - 1,
                                     tuple(bound_names) + tuple(k.arg for k in arg.keywords if k.arg),
                                     tuple(partial_keywords) + tuple(arg.keywords))
                return
        for arm in self.names.function_arms(arg):  # step_fn = checked if check_nan else plain: either may run
            self._trace_argument(arm, transform_name, keywords, lax, bound_positional, bound_names)
        func, root, funcs = self.names.function_bound_to(arg), None, ()
        made = self.instances.constructor(arg) if func is None else None
        if made is not None:  # jax.jit(make_train(config)), or of a name or self.<attr> (set in __init__) bound to it
            funcs = self.names.functions_made_by(made)  # or of MAKERS[name](config): each entry's
            root = f"applied at line {arg.lineno} to what '{ast.unparse(made.func)}' returns" if funcs else None
        if func is not None and binds_first_parameter(arg, func):
            bound_positional += 1  # jax.jit(self._m): the method's positions start after self
        elif func is None and not funcs:
            funcs = self.instance_methods(arg)
            if funcs:  # jax.jit(counter.count): the method's body, self bound to the object
                root = f"applied at line {arg.lineno} to {ast.unparse(arg)}"
            funcs = funcs or self._run_by_calling(arg)
            if funcs and type(self.names.parent.get(funcs[0])) is ast.ClassDef:
                bound_positional += 1  # jax.jit(Model()): __call__ is bound to the instance
        if not funcs and func is None and transform_name in self.class_lifting and isinstance(arg, ast.Name):
            func = method_in(self.instances.class_named(arg), "__call__")  # nn.scan(Cell, ...): Cell's __call__
        if not funcs and func is None:  # jax.jit(model.apply): the variables take self's position, as numbered
            funcs = self.applies.applied_methods(arg, partial_keywords)  # partial(model.apply, method="encode")
            root = f"applied at line {arg.lineno} to {ast.unparse(arg)}" if funcs else None
        for func in (func, *self.instances.overrides(arg)) if func is not None else funcs:  # jax.jit(self._step)
            if lax:
                self.mark(func, Transform(transform_name, _STAGING, root),
                          traced_parameters(func, bound_positional, bound_names))
            else:
                self._trace(func, transform_name, keywords, bound_positional, bound_names, root)

    def _trace(self, func, transform_name, keywords, bound_positional, bound_names, root=None):
        """Mark ``func`` as traced by the transform."""
        behaviour = self.transforms[transform_name]
        params = applied_parameters(func, transform_name, keywords, bound_positional, bound_names)
        if params is None:
            return  # static arguments we cannot read: stay silent
        if behaviour is _DIFFERENTIATING:
            options, positional = named_options(keywords), positional_names(func)[bound_positional:]
            argnums = literals(options["argnums"], int) if "argnums" in options else [0]
            if argnums is None:
                return
            params &= {positional[i] for i in argnums if -len(positional) <= i < len(positional)}
            self.differentiated.setdefault(func, set()).update(params)
        self.mark(func, Transform(transform_name, behaviour, root), params)
        if behaviour is _STAGING:
            self.traced[func].optional_params |= applied_parameters(
                func, transform_name, keywords, bound_positional, bound_names, defaulted=True) - params
        if behaviour is _STAGING and transform_name in self.array_results and not isinstance(func, ast.Lambda) \
                and root is None:
            self.jitted_callables.add(func)

    def methods_called(self, call):
        """The same-file methods that ``call`` runs with ``self`` bound: a class's own
        ``__init__`` for ``Model(x)``, ``__call__`` for ``model(x)`` with a name bound to
        ``Model(...)`` (or passed instances of several classes: each class's), and for
        ``model.apply(variables, x)`` of a linen Module; () when none is known, as for a function
        expression with a dotted name (``optax.adam``, ``np.mean``, ``print``: ``names.qualname``), which
        imports or builtins bind, never a same-file class or an object built here: half the calls a
        forward pass asks about."""
        func_expr = call.func
        if self.names.qualname(func_expr) is not None:
            return ()
        cls = self.instances.class_named(func_expr)
        if cls is not None:
            return _present(method_in(cls, "__init__") or self.conventions.construction_hook(cls))
        if isinstance(func_expr, ast.Attribute) and any(k.arg == "method" for k in call.keywords):
            return self.applies.applied_methods(call.func, call.keywords)
        if isinstance(func_expr, ast.Attribute):
            single = self.applies.applied_module(func_expr) or self._submodule_call(func_expr)
            return _present(single) if single is not None else \
                self.instance_methods(func_expr) or self.stored_functions(func_expr)
        return self._run_by_calling(func_expr)

    def stored_functions(self, func_expr):
        """The same-file defs that ``self.<attr>`` holds when ``__init__`` stores it from a parameter
        (``Instances.stored_arguments``) that every construction of the class in the file passes a
        def or a lambda (``ProjectedGradient(fun, projection=box)``: ``self.projection(x, hp)`` runs
        ``box``, unbound); else ()."""
        owner = func_expr.value
        method = self.names.parameter_of(owner) if type(owner) is ast.Name else None
        cls = self.names.parent.get(method)
        if type(cls) is not ast.ClassDef or positional_names(method)[:1] != [owner.id]:
            return ()
        param = self.instances.stored_arguments(cls).get(func_expr.attr)
        calls = self.instances.calls_of(cls) if param is not None else None
        if not calls:
            return ()
        names = positional_names(method_in(cls, "__init__"), bound=True)
        given = [argument_for(call, names, param) for call in calls]
        funcs = [self.names.function_bound_to(arg) if type(arg) in (ast.Name, ast.Lambda) else None for arg in given]
        return tuple(dict.fromkeys(funcs)) if None not in funcs else ()

    def instance_methods(self, func_expr):
        """The plain methods ``model.loss`` runs, one for each same-file class (not a linen Module,
        whose methods run only through ``apply``) whose instance ``model`` may hold."""
        if not isinstance(func_expr, ast.Attribute):
            return ()
        methods = (self.instances.method(cls, func_expr.attr)
                   for cls in self.instances.receiver_classes(func_expr.value) or ())
        return tuple(method for method in methods if method is not None and not method.decorator_list
                     and self.module_base(method) != LINEN_MODULE)

    def _submodule_call(self, func_expr):
        """``__call__`` of the same-file class whose call built the object ``self.block`` holds in a
        method (an NNX or Equinox module's submodule: ``instances.constructor``), or None."""
        built = self.instances.constructor(func_expr)
        return self.instances.method(self.instances.class_named(built.func), "__call__") if built is not None else None

    def module_base(self, method):
        """The framework Module base (as the data names it) of ``method``'s class, or None: a linen
        Module's methods run through ``apply``; an NNX Module's updates of ``self`` are its state."""
        cls = self.names.parent.get(method)
        facts = self.conventions.module_facts(cls) if isinstance(cls, ast.ClassDef) else None
        return facts["names"][0] if facts else None

    def given_runs(self, func_expr):
        """[(def, whether the variables come first, the parameters it gets tracers in and those of them
        single arrays: None for as the call gives them)] that ``S.apply_fn(...)`` or ``tx.update(...)``
        runs. ``apply_fn``: the function the file gives as ``apply_fn=F`` (``TrainState.create(
        apply_fn=model.apply, ...)``), when every such keyword names the same F, which is a same-file
        linen Module's ``model.apply`` (its ``__call__``, after the variables), a method of a same-file
        class's instance bound once (``model.apply``) or a same-file function (precision first: two
        models in one file, an F of another module). ``update``: the functions given to a gradient
        transformation that what ``tx`` holds is built from, where its ``update`` calls them with
        tracers (measured: ``api.framework_update_callbacks``; a schedule given as ``learning_rate=``), as
        for a framework record's method that runs that update (``state.apply_gradients``, measured)."""
        if type(func_expr) is not ast.Attribute:
            return []
        updating = func_expr.attr == "update" or func_expr.attr in api.record_updating_methods()
        if updating:
            given = self.built.given_to_update(func_expr.value) if func_expr.attr == "update" \
                else self.built.given_to_record_update(func_expr.attr)
            runs = [(func, positional_names(func), arrays) for func, arrays in given]
            return [(func, False, set(names), {names[i] for i in arrays if i < len(names)})
                    for func, names, arrays in runs]
        if func_expr.attr != "apply_fn":
            return []
        if self._given_apply_fn is _UNREAD:
            runs = {self._run_by(k.value) for call in self.names.calls for k in call.keywords if k.arg == "apply_fn"}
            self._given_apply_fn = runs.pop() if len(runs) == 1 else None
        return [(*self._given_apply_fn, None, None)] if self._given_apply_fn is not None else []

    def _run_by(self, given):
        """(def, whether the variables come first) that calling ``given`` runs, or None."""
        module = self.applies.applied_module(given)
        if module is not None:
            return module, True
        methods = self.instance_methods(given)  # model.apply, model = Model(...)
        func = self.names.function_bound_to(given) or (methods[0] if len(methods) == 1 else None)
        return (func, False) if func is not None else None

    def _run_by_calling(self, expr):
        """``__call__`` of each same-file class whose instance ``expr`` is (``jax.jit(Model())``,
        or a name that holds one, ``instances.Instances``: bound to ``Model(...)``, a parameter
        annotated ``model: Model`` or passed one by every call); for a parameter that the calls of
        its function give defs (``forward(p, x)`` in ``make_step(forward)``), those defs."""
        if type(expr) not in (ast.Name, ast.Call):
            return ()
        own = self.instances.own_call(expr)  # self(x) in a method: its class's __call__, as self.loss is its loss
        if own is not None:
            return (own,)
        methods = (self.instances.method(cls, "__call__") for cls in self.instances.classes_of(expr) or ())
        return tuple(method for method in methods if method is not None) or self.instances.functions_passed(expr)


def _present(method):
    """``(method,)``, or () for None."""
    return () if method is None else (method,)


def _framework_behaviour(measured):
    """The behaviour a framework transform showed when the generator ran it, or None when
    NumPy works on what it passes (then it traces nothing by itself)."""
    if measured["abstract"]:
        return _STAGING if measured["cached"] else _BATCHING
    if measured["differentiates"]:
        return _DIFFERENTIATING
    return _EAGER if measured["numpy_fails"] else None
