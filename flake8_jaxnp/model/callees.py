"""What a call of one of the project's own functions gives: a top-level def of this
module or a function of another project module, with its summary's facts (what it
returns, which parameters it converts to the host, whether it is jitted) and the
shape of a jitted function's result. Library calls are ``library``'s."""
import ast

from ..facts import TIMERS
from .names import BindingKind
from .project.modules import shown
from .project.targets import TABLE_ENTRY
from .project.records import CACHING_DECORATORS, built_jitted, jitted_result_shape, module_records
from .project.wrappers import forwarded_argument, wrapper_classes
from .syntax import import_binding, lookup_key, module_imports, split_attributes
from .traced import Behaviour


# The facts of a call that gives a jitted function, and of one that gives an object whose
# methods do (which the array reach counts as a source); the other facts: none known.
INSTANCE_HANDS_OUT_JITTED = {"params": [], "traceable": [], "line": None, "returns": None, "converts": [], "keys": {},
                             "returned_keys": [], "jitted": False, "builds_jitted": False, "hands_out_jitted": True}
HANDS_OUT_JITTED = dict(INSTANCE_HANDS_OUT_JITTED, builds_jitted=True, hands_out_jitted=False)
HOLDS_DATA = dict(INSTANCE_HANDS_OUT_JITTED, hands_out_jitted=False)  # (what it holds: its "returns")


_LOOP_TYPES = frozenset({ast.For, ast.AsyncFor, ast.While})
# Where a call's value can be kept for a loop's checks to read (``Callees._kept``): bound, returned, read.
_KEEPING = frozenset({ast.Assign, ast.Tuple, ast.Return, ast.Attribute})
_SCOPE_TYPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module})


class Callees:
    """The functions a call names, and what they are known to return."""

    def __init__(self, names, roots, project):
        self.names = names
        # The same-file def that a call's function expression names: the index's own lookup, with
        # no call in between (forward passes ask it several times at every call).
        self.callee = names.function_bound_to
        self.returned_values = names.returned_values
        self.roots = roots
        self.project = project  # the Project around the file, or None (a buffer with no path)
        self._facts = {}  # def node -> its facts (returns, conversions), on demand
        self._helpers = {}  # a call's function expression -> helper_facts' answer (the forward pass asks again)
        self._imports = None  # module-level import bindings, on demand
        self._records = None  # this module's pytree classes, on demand
        self._results = {}  # jitted def -> the shape of its result, on demand
        self._builders = {}  # def -> whether it returns a jitted function, on demand
        self._asked = {}  # (question, import binding, attributes) -> the project's answer (``_ask``)
        self._bound_imports = {}  # (scope, name) -> the module-level import binding a read there reaches, or None
        self._own_classes = None  # this module's classes that hand out jitted functions (wrappers), on demand
        self._uses = None  # (names called in a loop or a timed scope, {name: names bound to its method calls})
        self._held = {}  # a call building an object -> ``held_facts``' answer (the forward passes ask again)

    def helper_facts(self, func_expr):
        """(facts, path shown in messages) for the function a call names: a top-level def
        of this module (path None) or a function of another project module. Facts: params,
        returns, converts, and for another module's function whether it is jitted."""
        if func_expr not in self._helpers:
            self._helpers[func_expr] = self._helper_facts(func_expr)
        return self._helpers[func_expr]

    def _helper_facts(self, func_expr):
        callee = self.callee(func_expr)
        if callee is not None:
            if isinstance(callee, ast.Lambda) or self.names.parent.get(callee) is not self.names.tree:
                return None
            return self._own_facts(callee), None
        binding = self._project_import(func_expr)
        imported = self.project.function(*binding) if binding else None
        if imported is None:
            return self._instance(func_expr, binding) or self._handed_out(func_expr, binding)
        path, facts = imported
        return facts, shown(path)

    def entry_facts(self, func_expr):
        """[(facts, path shown)] of each function that a lookup in an imported project dict of functions may
        give (``gp.KERNELS["rbf"]``, ``KERNELS[name]``: ``Project.table_entries``); [] for any other call."""
        binding = self._project_import(func_expr.value) if type(func_expr) is ast.Subscript else None
        if binding is None:
            return []
        return [tuple(entry) for entry in self._ask(
            "table_entries", (binding[0], (*binding[1], TABLE_ENTRY, lookup_key(func_expr), 0)))]

    def _instance(self, func_expr, binding):
        """(facts, path shown) for a call that builds an object of a project class, this module's
        (path None) or an imported one, some calls of which give device arrays (``wrappers``'
        ``jitted_calls``: ``trainer = Trainer(cfg)``, then ``trainer.train_step(params, x)``)."""
        known = self._project_class(binding) if binding else self._own_class(func_expr)
        calls = known[0].get("jitted_calls") if known else None
        return (dict(INSTANCE_HANDS_OUT_JITTED, jitted_calls=calls, kept=known[0].get("kept"),
                     donates=known[0].get("donates")), known[1]) \
            if calls else None

    def held_facts(self, call, traced):
        """(facts, path shown) for a call that builds an object of an imported project class whose module's
        forward pass knows something it holds (``Project.held_object``: ``data.x``, ``data.view(0)``): asked
        by the forward pass alone, where ``helper_facts`` knows nothing of the call, in host code (not
        ``traced``), and only where the answer can reach a check (``_kept``): each class's module costs a
        pass of its own."""
        if traced:
            return None
        if call not in self._held:
            binding = self._project_import(call.func) if type(self.names.parent.get(call)) in _KEEPING \
                and self.callee(call.func) is None else None
            found = self._ask("held_object", binding) if binding and self._kept(call) else None
            self._held[call] = (dict(HOLDS_DATA, returns={"object": found[1]}), shown(found[0])) if found else None
        return self._held[call]

    def _in_project(self, binding):
        """Whether an import binding names a module of the project: relative, or its top package a file of
        the project's (``project_module``, asked once per file and package): no other is asked more."""
        module, level, _ = binding
        key = ("project_module", module.split(".")[0])
        if not level and key not in self._asked:
            self._asked[key] = self.project.project_module(key[1])
        return bool(level) or self._asked[key]

    def _kept(self, call):
        """Whether what ``call`` gives reaches the checks of a loop as data that the loop does not compute
        itself (JNP104's same upload): its def returns it (``return Dataset(cfg)``, or the name an assignment
        binds it to: ``data = Dataset(cfg)``, ``return data, keys``), or reads an attribute of it (``data.x``),
        or calls a method of it outside a loop (``view = data.view(0)``). A method called in a loop gives
        new data on each step."""
        parent = self.names.parent.get(call)  # (data, keys = Dataset(cfg), KeyStream(seed): the name in its place)
        statement = self.names.parent.get(parent) if type(parent) is ast.Tuple else parent
        if type(statement) is ast.Return:
            return True
        targets = statement.targets if type(statement) is ast.Assign and len(statement.targets) == 1 else ()
        if targets and type(parent) is ast.Tuple:
            places = targets[0].elts if type(targets[0]) is ast.Tuple and len(targets[0].elts) == len(parent.elts) \
                else ()
            targets = [place for place, value in zip(places, parent.elts) if value is call]
        func = self.names.enclosing_function(call)
        bound = {target.id for target in targets if type(target) is ast.Name}
        reads = [call] + [read for name in bound for read in self.names.reads(name)
                          if self.names.enclosing_function(read) is func]
        for read in reads:
            parent = self.names.parent.get(read)
            if type(parent) is ast.Tuple:  # (return data, keys)
                parent = self.names.parent.get(parent)
            if type(parent) is ast.Return:
                return True
            if type(parent) is ast.Attribute and parent.value is read:
                method = self.names.parent.get(parent)
                if not (type(method) is ast.Call and method.func is parent and self._in_loop(method)):
                    return True
        return False

    def _own_class(self, func_expr):
        """(facts, None) for the top-level class of this module that ``func_expr`` names, when
        calls on its instances give device arrays (``wrappers``' ``jitted_calls``); else None."""
        if self.names.one_binding(func_expr, BindingKind.CLASS, module_level=True) is None:
            return None
        facts = self._wrappers().get(func_expr.id)
        return (facts, None) if facts else None

    def own_instance(self, method):
        """The facts of an instance (``_instance``) for the ``self`` of an undecorated method of this
        module's top-level class whose instances hand out jitted calls: ``self.step = jax.jit(...)``
        in ``__init__`` makes ``self.step(x)`` in ``fit`` give device arrays, as ``trainer.step(x)``
        does; else None."""
        cls = self.names.parent.get(method)
        if type(cls) is not ast.ClassDef or self.names.parent.get(cls) is not self.names.tree \
                or method.decorator_list or not method.args.args:
            return None
        known = self._wrappers().get(cls.name, {})
        calls = known.get("jitted_calls")
        return dict(INSTANCE_HANDS_OUT_JITTED, jitted_calls=calls, kept=known.get("kept")) if calls else None

    def _wrappers(self):
        """``wrappers.wrapper_classes`` of this module, built once."""
        if self._own_classes is None:
            builders = {stmt.name for stmt in self.names.tree.body
                        if type(stmt) is ast.FunctionDef and self.builds_jitted(stmt) is True}
            self._own_classes = wrapper_classes(self.names.tree, self._jit_call, builders,
                                                lambda names: lambda func: func.name == "__init__")
            # (an __init__ is read whole; the other methods only for calls of what it stores)
        return self._own_classes

    def _own_facts(self, callee):
        """``function_facts`` of a top-level def of this module, computed once."""
        facts = self._facts.get(callee)
        if facts is None:
            from .project.function_facts import function_facts  # (summarising: see ``project.modules``)
            facts = self._facts[callee] = function_facts(callee, self._module_imports())
        return facts

    def _handed_out(self, func_expr, binding):
        """(facts of a function that returns a jitted one, path) for a call that gives a jitted
        function through an object of a project class (``project.wrappers``): a method that
        returns one, looked up on a name bound once to an instance (``partitioner.partition``),
        or an instance of a forwarding class built from one (``Wrapped(jax.jit(f), mesh)``); else None.
        ``binding``: the import that ``func_expr`` names, if any."""
        call = self.names.parent.get(func_expr)
        bound = self._bound_name(call) if type(call) is ast.Call and call.func is func_expr else None
        if bound is None:  # what is asked for is a name called in a loop or a timed scope: see _called_uses
            return None
        repeated, results = self._called_uses()
        if binding is None and type(func_expr) is ast.Attribute and type(func_expr.value) is ast.Name:
            value = self.names.assigned_value(func_expr.value) if bound in repeated else None
            if type(value) is not ast.Call:
                return None
            binding = self._project_import(value.func)  # partitioner = Partitioner(...)
            known = self._project_class(binding) if binding else None
            if known is None or func_expr.attr not in known[0].get("builds_jitted", ()):
                return None
            return HANDS_OUT_JITTED, known[1]
        if binding is None or not (bound in repeated or not repeated.isdisjoint(results.get(bound, ()))):
            return None
        known = self._project_class(binding)
        if known is None:
            return None
        if "forwards" not in known[0]:  # partitioner = Partitioner(): its methods hand out jitted functions
            return INSTANCE_HANDS_OUT_JITTED, known[1]
        argument = forwarded_argument(call, known[0]["forwards"])
        if argument is None or not self._jit_call(argument) or bound not in repeated:
            return None
        return HANDS_OUT_JITTED, known[1]

    def _bound_name(self, call):
        stmt = self.names.parent.get(call)
        return stmt.targets[0].id if type(stmt) is ast.Assign and stmt.value is call and len(stmt.targets) == 1 \
            and type(stmt.targets[0]) is ast.Name else None

    def _called_uses(self):
        """(names called in a loop or in a scope that reads a clock, {name: the names bound
        to calls of its methods}), from one pass over the module's calls: only there does a
        jitted function handed out by an object matter to the checks (JNP603, JNP1xx), so only
        a call whose value is bound to such a name (``step = partitioner.partition(f)``), or to
        a name a method of which gives one (``partitioner = Partitioner()``), looks its class up."""
        if self._uses is None:
            names, calls = self.names, self.names.calls
            timed = {names.enclosing_function(c) for c in calls if names.qualname(c.func) in TIMERS}
            repeated, results = set(), {}
            for call in calls:
                func = call.func
                if type(func) is ast.Name and (func.id in repeated or names.enclosing_function(call) in timed
                                               or self._in_loop(call)):
                    repeated.add(func.id)
                elif type(func) is ast.Attribute and type(func.value) is ast.Name:
                    bound = self._bound_name(call)
                    if bound is not None:
                        results.setdefault(func.value.id, set()).add(bound)
            self._uses = repeated, results
        return self._uses

    def _in_loop(self, node):
        """Whether ``node`` is in the body of a loop of its own scope."""
        parent = self.names.parent.get(node)
        while parent is not None and type(parent) not in _SCOPE_TYPES:
            if type(parent) in _LOOP_TYPES:
                return True
            parent = self.names.parent.get(parent)
        return False

    def _project_class(self, binding):
        """(facts, path shown) for the imported project class that ``binding`` (see
        ``_project_import``) names, when it hands out jitted functions; else None."""
        found = self._ask("project_class", binding)
        return (found[1], shown(found[0])) if found else None

    def _ask(self, question, binding):
        """The answer of the project's ``question`` (a method's name) about ``binding`` (see
        ``_project_import``), asked once per file."""
        key = (question, tuple(binding[0]), tuple(binding[1]))
        if key not in self._asked:
            self._asked[key] = getattr(self.project, question)(*binding)
        return self._asked[key]

    def _jit_call(self, expr):
        """``jax.jit(f)`` (a staging transform that gives arrays), a name bound once to one
        (``fast = jax.jit(step); return fast``), or a def decorated with one (``@jax.jit def step``, the def
        itself or a name bound to it)."""
        if isinstance(expr, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return expr in self.roots.jitted_callables
        if type(expr) is ast.Name:
            found = self.names.one_binding(expr)
            if found is not None and found.kind is BindingKind.DEF:
                return found.node in self.roots.jitted_callables
            if found is None or found.kind is not BindingKind.ASSIGN:
                return False
            expr = found.value
        transform = self.names.qualname(expr.func) if type(expr) is ast.Call and expr.args else None
        return transform in self.roots.array_results and self.roots.transforms[transform] is Behaviour.STAGING

    def imported_dtype(self, expr):
        """(dtype, spelled as a Python type) for a dtype constant bound in another project
        module (``util.f64``, ``from .util import f64``), or None."""
        binding = self._project_import(expr)
        alias = self.project.dtype_alias(*binding) if binding else None
        return tuple(alias) if alias else None

    def field_literal(self, class_expr, field):
        """The text of the literal that ``field`` of the dataclass ``class_expr`` names defaults to
        (``donate: bool = True``): a top-level class of this module, or of another project module
        (``Project.field_literal``); None otherwise."""
        found = self.names.one_binding(class_expr, BindingKind.CLASS, module_level=True) \
            if type(class_expr) is ast.Name else None
        if found is not None:
            from .project.summaries import field_literals  # (summarising: see ``project.modules``)
            return field_literals(self.names.tree, self._module_imports()).get(f"{class_expr.id}.{field}")
        binding = self._project_import(class_expr)
        return self.project.field_literal(*binding, field) if binding else None

    def imported_numpy(self, expr):
        """Whether ``expr`` (``MASK`` of ``from .config import MASK``, or ``config.MASK``) names
        a NumPy array constant of another project module."""
        binding = self._project_import(expr) if type(expr) in (ast.Name, ast.Attribute) else None
        if not binding:
            return False
        return self._ask("numpy_data", binding)  # (every ``jnp.sum`` asks: once per file)

    def imported_rebound(self, expr):
        """[module, line] where a function of another project module rebinds the global that
        ``expr`` reads of it through ``global`` (``callbacks.LR_SCALE``), or None."""
        binding = self._project_import(expr) if type(expr) is ast.Attribute else None
        return self._ask("rebound_global", binding) if binding else None

    def jitted_result(self, callee, call):
        """The shape of what ``call`` of a same-file jitted function gives (see project.records.result_shape;
        else a framework record it is given back, ``instances.record_result``), when its transforms turn
        every leaf into an array; else None."""
        roots = self.roots
        traced = roots.traced.get(callee)
        if traced is None or self.names.parent.get(callee) is not self.names.tree or not callee.decorator_list:
            return None
        if any(t.behaviour is not Behaviour.STAGING or t.name in roots.scalars_static for t in traced.transforms) \
                or any(roots.transform_spec(d) is None for d in callee.decorator_list):
            return None
        if callee not in self._results:
            returns = self._own_facts(callee)["returns"]
            self._results[callee] = jitted_result_shape(callee, self._module_records(), returns)
        return self._results[callee] or roots.instances.record_result(call, callee)

    def class_record(self, cls):
        """The shape (``{"record": ...}``) of a top-level pytree class of the file, or None."""
        record = self._module_records().get(cls.name) if self.names.parent.get(cls) is self.names.tree else None
        return {"record": record} if record else None

    def _module_records(self):
        if self._records is None:
            self._records = module_records(self.names.tree, self._module_imports())
        return self._records

    def builds_jitted(self, callee):
        """``records.built_jitted`` of a same-file def, undecorated or cached by functools: True when
        it returns a transformed function whose calls give device arrays (``return jax.jit(step)``),
        the positions of the tuple it returns that hold one (``return step, tx``), else None."""
        if callee not in self._builders:
            self._builders[callee] = None if isinstance(callee, ast.Lambda) or not all(
                self.names.qualname(d.func if isinstance(d, ast.Call) else d) in CACHING_DECORATORS
                for d in callee.decorator_list) else built_jitted(self.returned_values(callee), self._jit_call)
        return self._builders[callee]

    def _project_import(self, expr):
        """(import binding, attributes) for ``name`` or ``module.name`` bound by a module-level
        import of a project module (``_in_project``), when the file has a project; else None: the
        project resolves no name of another module (``jax.numpy``, ``optax``), so no question about
        one is asked of it."""
        if self.project is None:
            return None
        name, attributes = split_attributes(expr)
        if name is None:
            return None
        # Kept per scope and name: every read of ``jnp`` in a scope reaches the same binding, and the
        # forward passes ask at each read (``imported_numpy``), some 9,000 times on six repositories.
        key = (self.names.scope_of[name], name.id)
        binding = self._bound_imports.get(key, False)
        if binding is False:
            found = self.names.one_binding(name, BindingKind.IMPORT, module_level=True)
            binding = import_binding(found.stmt, name.id) if found is not None else None
            binding = self._bound_imports[key] = binding if binding and self._in_project(binding) else None
        return (binding, attributes) if binding else None

    def _module_imports(self):
        if self._imports is None:
            self._imports = module_imports(self.names.tree)
        return self._imports
