"""Which calls of a module consume a PRNG key (JNP601, JNP606): samplers, splits whose outputs
are used, and the project's functions that consume a key parameter on every call."""
import ast
from functools import lru_cache

from .. import api
from ..model.keys import (SPLIT, consumed_parameters, deferred, every_call_consumers, guard_leaves, key_argument,
                          key_name, returned_keys, rotation, seeded_sample, stepped_call, truth, unbound_after)
from ..model.names import BindingKind
from ..model.parameters import transform_options
from ..model.syntax import TRIES, argument_for, defaults, method_in, positional, positional_names

# A split whose outputs only callees not known to consume a key read: it repeats the subkeys of a
# split before it (JNP601), but consumes nothing another use could repeat (the callee may draw nothing).
UNSEEN = "unseen split"
VMAP = "jax.vmap"
_MAX_WRAPS = 8  # transforms around transforms followed (jax.jit(jax.grad(f)))


@lru_cache(maxsize=1)
def _samplers():
    """jax.random's samplers, the framework layers whose construction draws from key= and the classes
    whose keys the key they are built around decides (nnx.Rngs; measured): read once per process."""
    return api.random_samplers() | api.framework_key_builders() | {
        name for name, facts in api.framework_layers().items() if facts.get("draws_from_key")}


@lru_cache(maxsize=1)
def _drawing_layers():
    """The framework layers whose built object draws from the key= it is called with, and the options
    it was measured built with (an Equinox dropout): read once per process."""
    return {name: facts["draws_when_called"] for name, facts in api.framework_layers().items()
            if "draws_when_called" in facts}


@lru_cache(maxsize=1)
def _applied_layers():
    """The Linen layers that draw, in a Module ``apply`` runs, from the key it is given in their rngs
    collection, and the options they were measured built with (``draws_when_applied``): read once."""
    return {name: facts["draws_when_applied"] for name, facts in api.framework_layers().items()
            if "draws_when_applied" in facts}


class Consumers:
    """The module's calls that consume a key, each with the expression of the key it consumes:
    samplers, splits whose outputs are used, and same-file functions that consume a parameter
    on every call. A key handed to any other callee is not a consumption the model can assert
    (a model called with ``enable_dropout=False`` never draws from it)."""

    def __init__(self, model):
        self.model = model
        self.samplers, self.drawing_layers = _samplers(), _drawing_layers()
        self.consumed = {}  # call -> (the key expression it consumes, "draw" or "split"), or None
        self.consuming = {}  # def -> {parameter: how} it consumes on every call (None while computing)
        self.guarded = {}  # def -> {parameter: (how, (the parameters its guards read, their tests))} past a guard
        self.may_consume = set()  # the functions whose parameters a call of them may consume
        self.run = {}  # call -> (the function expression it runs, whether a transform wraps it, its arguments)
        self.functions_run = {}  # call -> the same-file function it runs, or None (``function_run``)
        self.chains = {}  # call -> the transform calls that wrap the function it runs, outermost first
        self.fields = {}  # call -> the key field (``self.key``) of its object that the method it runs consumes
        self.rotations = {}  # ``obj.step()`` call -> the field it consumes and stores afresh, reported at the call
        self.rotated = set()  # the fields that only ``__init__`` and rotations store (``rotated_field``)
        self.transforms = api.transforms()
        # The names that can reach another module's function (helper_facts): those a module-level import of a
        # project module binds once (relative, or under a top package of the project: ``Project.resolve``; asked of
        # the project once per top package, so that ``reuse`` sees a module appear under an imported name).
        bound = model.scope(model.tree).bindings.items() if model.project is not None else ()
        imported = {name: bindings[0].qualname for name, bindings in bound
                    if len(bindings) == 1 and bindings[0].kind is BindingKind.IMPORT}
        packages = {dotted.split(".")[0] for dotted in imported.values() if dotted is not None}
        in_project = {package: model.project.project_module(package) for package in sorted(packages)}
        self.imports = {name for name, dotted in imported.items() if dotted is None or in_project[dotted.split(".")[0]]}

    def calls(self):
        """{call: (key expression, "draw" or "split", positions of its result that hand the key
        back)} for every call that consumes a key; none in a module without a sampler, a split
        or a call of another module's function that consumes a key, as a same-file function
        consumes only through one of those."""
        calls = self.model.nodes(ast.Call)
        qualname, consuming = self.model.qualname, self.samplers | {SPLIT}
        direct = [call for call in calls if qualname(call.func) in consuming or seeded_sample(call) is not None
                  or self._drawing_layer(call) or self._applied_key(call) is not None
                  or self._imported_consumer(call) is not None]
        if not direct:
            return {}
        self.may_consume = self._functions_reaching(direct, calls)
        # any other call consumes only by running a same-file function that may consume
        direct, functions = set(direct), self.may_consume - {None}
        return {call: self.consumed[call] for call in calls
                if (call in direct or self.function_run(call) in functions) and self.key_of(call) is not None}

    def _functions_reaching(self, direct, calls):
        """The functions that hold one of the ``direct`` calls or call (through same-file calls)
        one that does: only their parameters can be consumed."""
        model = self.model
        callers = {}  # same-file function -> the functions whose calls name it
        for call in calls:
            callee = self.function_run(call)
            if callee is not None:
                callers.setdefault(callee, []).append(model.enclosing_function(call))
        reaching = {model.enclosing_function(call) for call in direct}
        pending = list(reaching)
        while pending:
            for caller in callers.get(pending.pop(), ()):
                if caller not in reaching:
                    reaching.add(caller)
                    pending.append(caller)
        return reaching

    def runs(self, call):
        """(the expression of the function ``call`` runs, whether a transform wraps it, the call
        whose arguments it is given): ``f`` of ``f(x)``, and of ``jax.grad(f)(x)``,
        ``jax.value_and_grad(f)(x)``, ``jax.jit(f)``, ``jax.vmap(f)``, ``eqx.filter_jit(f)`` and
        ``fast(x)`` with ``fast = jax.jit(f)`` bound once: a transformed function takes the function's
        arguments and draws from the same keys; and of ``jax.vjp(f, x)``, ``jax.linearize(f, x)`` and
        ``jax.jvp(f, (x,), (t,))``, which run ``f`` on those arguments at once (the generator measured
        which shape each transform takes). A transform that computes nothing (``make_jaxpr``,
        ``eval_shape``) runs nothing that draws."""
        found = self.run.get(call)
        if found is None:
            expr, wrapped, given, chain = call.func, False, call, []
            facts = self._facts(call.func)
            if facts is not None and facts["arguments"] != "later":
                given = self._given(call, facts["arguments"]) if facts["computes"] else None
                expr, wrapped = (call.args[0] if given is not None else None), True
            elif self.model.qualname(call.func) in api.lax_bodies() \
                    and (stepped := stepped_call(call, self.model.qualname(call.func), self.callee, self._drawn)):
                expr, wrapped, given = stepped.func, True, stepped
            for _ in range(_MAX_WRAPS):
                transform = self._transformed(expr) if expr is not None else None
                if transform is None:
                    break
                chain.append(transform)
                expr, wrapped = transform.args[0], True
            found = self.run[call] = (expr, wrapped, given)
            self.chains[call] = chain
        return found

    def function_run(self, call):
        """The same-file function ``call`` runs (``callee`` of what ``runs`` finds), or None: asked
        of every call of a module that draws, by the reach of its consumers and again by each
        consumption, so found once."""
        if call not in self.functions_run:
            self.functions_run[call] = self.callee(self.runs(call)[0])
        return self.functions_run[call]

    def batching(self, call):
        """The ``jax.vmap`` calls among the transforms that wrap the function ``call`` runs
        (``jax.vmap(f, in_axes=(0, None))(xs, key)``, ``jax.jit(jax.vmap(f))``): each runs it once per
        element of its batch."""
        self.runs(call)
        return [transform for transform in self.chains[call] if self.model.qualname(transform.func) == VMAP]

    def broadcast_by(self, call):
        """The ``jax.vmap`` call that hands the key ``call`` consumes, unbatched (``in_axes`` None at
        its position), to every element of its batch, so that each element consumes the same key; or None.
        Keyword arguments are batched (vmap maps them over their first axis)."""
        key, given = self.key_of(call), self.runs(call)[2]
        position = next((i for i, arg in enumerate(given.args) if arg is key), None) if given is not None else None
        for vmap in self.batching(call) if position is not None else ():
            in_axes = dict((k.arg, k.value) for k in transform_options(VMAP, vmap)).get("in_axes")
            if type(in_axes) in (ast.Tuple, ast.List) and position < len(in_axes.elts) \
                    and not any(type(axis) is ast.Starred for axis in in_axes.elts):
                in_axes = in_axes.elts[position]
            if type(in_axes) is ast.Constant and in_axes.value is None:
                return vmap
        return None

    def _facts(self, func):
        """The measured facts of the JAX transform that ``func`` names, called with a function
        first (``jax.vjp(f, x)``), or None."""
        found = self.transforms.get(self.model.qualname(func))
        call = self.model.parent(func)
        return found if found is not None and type(call) is ast.Call and call.func is func and call.args \
            and type(call.args[0]) is not ast.Starred else None

    def _drawn(self, expr):
        """Whether ``expr`` is what a ``jax.random`` call gives (``split(key, n)``), inline or bound once."""
        found = self.model.one_binding(expr, BindingKind.ASSIGN) if type(expr) is ast.Name else None
        expr = found.value if found is not None else expr
        return type(expr) is ast.Call and (self.model.qualname(expr.func) or "").startswith("jax.random.")

    @staticmethod
    def _given(call, arguments):
        """A call node holding the arguments a transform that runs its function at once passes it:
        those after the function ("after"), or the elements of a primals tuple written out ("tuple");
        else None."""
        if arguments == "after":
            return ast.Call(func=call.args[0], args=call.args[1:], keywords=[])
        primals = call.args[1] if len(call.args) > 1 else None
        return ast.Call(func=call.args[0], args=list(primals.elts), keywords=[]) \
            if type(primals) in (ast.Tuple, ast.List) else None

    def _transformed(self, expr):
        """The transform call ``expr`` is (or a name bound once to one is), its function first, or
        None (also for a transform that computes nothing, or runs its function at once)."""
        if type(expr) is ast.Name:
            found = self.model.one_binding(expr, BindingKind.ASSIGN)
            if found is None:
                return None
            expr = found.value
        if type(expr) is not ast.Call or not expr.args or type(expr.args[0]) is ast.Starred:
            return None
        spec = self.model.transform_spec(expr.func)
        facts = self.transforms.get(spec[0], {"computes": True, "arguments": "later"}) if spec is not None else None
        return expr if facts is not None and facts["computes"] and facts["arguments"] == "later" else None

    def callee(self, func):
        """The same-file def a call runs: the one its function expression names, the own
        ``__init__`` of the class that a name bound once by a class statement refers to, or the
        ``__call__`` of the same-file class whose instance a name holds (``model(x, key)``), or the
        method of that class it names (``schedule.explore()``)."""
        found = self.model.callee(func) if func is not None else None
        if found is None and type(func) is ast.Attribute and type(func.value) is ast.Name \
                and self.model.qualname(func) is None:
            cls = self.model.class_of(func.value)
            return self.model.method_of(cls, func.attr) if cls is not None else None
        if found is not None or type(func) is not ast.Name:
            return found
        if self.model.resolve(func) is None:
            return None
        binding = self.model.one_binding(func, BindingKind.CLASS)
        if binding is not None:
            return method_in(binding.node, "__init__")
        cls = self.model.class_of(func)
        return self.model.method_of(cls, "__call__") if cls is not None else None

    def _imported_consumer(self, call):
        """The summary facts of a function of another project module that ``call`` runs and that
        consumes a key parameter (``handed_keys``), jitted or not, or None. (A jitted one consumes
        the key data given to every call: the runtime mode records what its trace consumed.)"""
        if not self.imports or not any(type(a) is ast.Name for a in (*call.args, *(k.value for k in call.keywords))):
            return None  # (asked of every call: the cheap tests first; with no project import, none consumes)
        func = self.runs(call)[0]
        made = self._made_by(func)
        if made is not None:  # step = steps.make_step(cfg): the def the factory returns
            facts = self._imported_function(made.func) or {}
            inner = facts.get("gives") or facts.get("jits") or {}
            return inner if inner.get("keys") else None
        facts = self._imported_function(func)
        return facts if facts is not None and facts.get("keys") else None

    def _made_by(self, func):
        """The call a name bound once by a plain assignment holds the result of (also as an element
        of a tuple written out: ``step, key = make_step(cfg), make_key(1)``), or None."""
        found = self.model.resolve(func) if type(func) is ast.Name else None
        if not found or len(found[1]) != 1 or found[1][0].kind not in (BindingKind.ASSIGN, BindingKind.OTHER):
            return None
        stmt, value = found[1][0].stmt, found[1][0].value
        if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Tuple \
                and type(stmt.value) is ast.Tuple and len(stmt.value.elts) == len(stmt.targets[0].elts):
            value = next((v for t, v in zip(stmt.targets[0].elts, stmt.value.elts)
                          if type(t) is ast.Name and t.id == func.id), None)
        return value if type(value) is ast.Call else None

    def _imported_function(self, func):
        """The summary facts of the function of another project module that ``func`` names
        through a module-level import, or None."""
        root = func
        while type(root) is ast.Attribute:
            root = root.value
        if type(root) is not ast.Name or root.id not in self.imports:
            return None
        if self.model.callee(func) is not None or (self.model.qualname(func) or "").startswith(("jax.", "numpy.")):
            return None
        found = self.model.helper_facts(func)
        return found[0] if found is not None and found[1] is not None else None

    def _drawing_layer(self, call):
        """Whether ``call`` calls, with ``key=`` its only keyword, an object that a framework layer
        built and that then draws from that key (measured ``draws_when_called``): built as measured,
        with none of its other options, each a constant and none a false one (``Dropout(0.0)`` draws
        nothing; so may ``Dropout(rate)`` with a configured rate of 0, the usual default)."""
        if not call.keywords or any(keyword.arg != "key" for keyword in call.keywords):
            return False  # (asked of every call: the cheap test first)
        built = self.model.constructor(call.func)
        options = self.drawing_layers.get(self.model.qualname(built.func)) if built is not None else None
        given = [*built.args, *(keyword.value for keyword in built.keywords)] if options is not None else []
        return options is not None and len(built.args) <= len(options) \
            and all(keyword.arg in options for keyword in built.keywords) \
            and all(type(v) is ast.Constant and v.value for v in given)

    def _applied_key(self, call):
        """The key that ``module.apply(variables, ..., rngs={"dropout": key})`` hands to a layer that draws
        from it on every call: the same-file Linen Module's ``__call__`` (no ``method=``) builds and calls,
        before its first compound statement, a layer measured to draw from that rngs collection
        (``draws_when_applied``), each option it is built or called with (by keyword, nothing else given
        to the call) as measured (a rate, not ``deterministic``): a constant, or ``not flag`` of a
        ``__call__`` parameter the call, or its default, sets. Else None: a dropout that may be off, or
        given its own ``rng``, draws nothing from the key."""
        func = call.func
        if not call.keywords or type(func) is not ast.Attribute or func.attr != "apply":
            return None  # (asked of every call: the cheap test first)
        keywords = {keyword.arg: keyword.value for keyword in call.keywords}
        method = self.model.applied_module(func) if type(keywords.get("rngs")) is ast.Dict else None
        if method is None or "method" in keywords or None in keywords or any(type(a) is ast.Starred for a in call.args):
            return None
        rngs = keywords["rngs"]
        keys = {k.value: v for k, v in zip(rngs.keys, rngs.values) if type(k) is ast.Constant}
        params = positional_names(method)[1:]
        given = {**dict(zip(params, call.args[1:])), **keywords}
        scope, method_defaults = self.model.scope(method).bindings, defaults(method)
        constants = {param: passed.value for param in params if len(scope.get(param, ())) == 1
                     and type(passed := given.get(param, method_defaults.get(param))) is ast.Constant}

        for inner in every_call_consumers(method, lambda node: type(node) is ast.Call):
            built = self.model.constructor(inner.func)
            facts = _applied_layers().get(self.model.qualname(built.func)) if built is not None else None
            measured = dict(facts["options"]) if facts is not None else {}
            if facts is None or facts["rngs"] not in keys or len(built.args) > len(measured) \
                    or len(inner.args) > 1 or any(k.arg not in measured for k in inner.keywords):
                continue  # (the call's other arguments, deterministic by position or its own rng=, are not read)
            options = {**dict(zip(measured, built.args)), **{k.arg: k.value for k in built.keywords},
                       **{k.arg: k.value for k in inner.keywords}}
            if all(name in measured and truth(value, constants) is bool(measured[name])
                   for name, value in options.items()):
                return keys[facts["rngs"]]
        return None

    def key_of(self, call):
        """The expression of the key ``call`` consumes, or None (also while it is being found: a
        split whose outputs feed it again, as ``key, sub = split(key)`` in a loop does)."""
        if call not in self.consumed:
            self.consumed[call] = None
            self.consumed[call] = self._consumption(call)
        found = self.consumed[call]
        return found and found[0]

    def _consumption(self, call):
        """(key expression, how, the positions of the call's result that hand the consumed key
        back) for a sampler, a used split, or a project function that consumes a parameter."""
        qualname = self.model.qualname(call.func)
        if qualname in self.samplers or seeded_sample(call) is not None or self._drawing_layer(call):
            return key_argument(call), "draw", ()
        applied = self._applied_key(call)
        if applied is not None:
            return applied, "draw", ()
        if qualname == SPLIT:
            outputs = self._split_outputs(call)
            return None if outputs == "unread" else (key_argument(call), "split" if outputs == "read" else UNSEEN, ())
        (func, wrapped, given), callee = self.runs(call), self.function_run(call)
        if isinstance(callee, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if callee not in self.may_consume:
                return None
            names = positional_names(callee, isinstance(func, ast.Attribute) or callee.name in ("__init__", "__call__"))
            posonly = {a.arg for a in callee.args.posonlyargs}
            consumed = self.parameters_consumed(callee)
            returned = returned_keys(callee, consumed) if not wrapped else []  # grad gives no key back
            return _passed_key(given, names, consumed, returned, posonly) or self._field_key(call, func, callee) \
                or self._guarded_key(call, func, given, callee, names)
        facts = self._imported_consumer(call)
        if facts is not None:
            returned = facts.get("returned_keys", []) if not wrapped else []  # (a factory's step hands none back)
            return _passed_key(given, facts["params"], facts["keys"], returned, ())
        return None

    def parameters_consumed(self, func):
        """{parameter: how} for the parameters ``func`` consumes on every call (``consumed_parameters``),
        and for a method, the fields of ``self`` it consumes that only ``__init__`` stores (``self.key``)."""
        if func in self.consuming:
            return self.consuming[func] or {}
        self.consuming[func] = None  # a recursive helper consumes nothing known
        params = {a.arg for a in positional(func) + func.args.kwonlyargs} | self._fixed_fields(func)
        guarded = {}
        found = self.consuming[func] = consumed_parameters(func, params, self._consumed, guarded) if params else {}
        if guarded:
            self.guarded[func] = {param: (found.pop(param), guards) for param, guards in guarded.items()}
        return found

    def _guarded_key(self, call, func, given, callee, names):
        """(key, (how, the callee, what the call passes its guard, the names that reads), ()) when
        ``call`` passes plainly a parameter the same-file ``callee`` consumes on every call that passes
        its guard (``if key is None or rate == 0.0: return x``), and passes the guard's other parameters
        values that stay the same in the caller (``_steady``): another call passing the same consumes
        the key alike, if either does (a conditional consumption, ``conditional``). Else None."""
        if callee not in self.guarded:
            return None
        receiver = func.value if type(func) is ast.Attribute else func  # the ``self`` of a method's guard
        posonly = {a.arg for a in callee.args.posonlyargs}
        params = positional(callee) + callee.args.kwonlyargs
        given_by_default = defaults(callee)
        scope = self.model.enclosing_function(call)
        for param, (how, (guards, tests)) in self.guarded[callee].items():
            key = argument_for(given, names, param, param not in posonly)
            if key is None:
                continue
            passed, read, constants = [], set(), {}
            for guard in sorted(guards - {param}):
                value = receiver if params and guard == params[0].arg and guard not in names else \
                    argument_for(given, names, guard, guard not in posonly) or given_by_default.get(guard)
                if value is None or not self._steady(value, scope):
                    return None
                constant = self.model.names.constant_given(value)
                if constant is not None:
                    constants[guard] = constant.value
                passed.append(ast.dump(value))
                read.update(n.id for n in ast.walk(value) if type(n) is ast.Name)
            if guard_leaves(tests, constants):
                return None  # this call leaves at the guard: it draws nothing
            return key, (how, callee, tuple(passed), frozenset(read)), ()
        return None

    def _steady(self, expr, scope):
        """Whether ``expr`` holds one value all through ``scope``: a constant, a name bound once there,
        or an attribute of one that ``scope`` stores nowhere (``self.rate``)."""
        root = expr
        while type(root) is ast.Attribute:
            root = root.value
        if type(root) is ast.Constant:
            return root is expr
        if type(root) is not ast.Name or scope is None or len(self.model.scope(scope).bindings.get(root.id, ())) != 1:
            return False
        held = ast.dump(expr.value) if root is not expr else None
        return held is None or not any(type(n) is ast.Attribute and type(n.ctx) is not ast.Load and n.attr == expr.attr
                                       and ast.dump(n.value) == held for n in ast.walk(scope))

    def _fixed_fields(self, method):
        """``self.<field>`` for the fields a method of a class reads that the module stores nowhere but in
        the class's own ``__init__`` (an Equinox Module's fields, frozen after it): every call of the
        method on one object reads the same value. (``self.<field>`` stored by a method of another
        class, neither a base nor a subclass of it, is another object's.)"""
        cls = self.model.parent(method)
        if type(cls) is not ast.ClassDef or positional_names(method)[:1] != ["self"] or method.name == "__init__":
            return set()
        read = {node.attr for node in ast.walk(method) if type(node) is ast.Attribute and type(node.ctx) is ast.Load
                and type(node.value) is ast.Name and node.value.id == "self"}
        for node in self.model.nodes(ast.Attribute) if read else ():
            if node.attr in read and type(node.ctx) is not ast.Load:
                where = self.model.enclosing_function(node)
                if where is not None and self.model.parent(where) is cls and where.name == "__init__" \
                        or self.model.stores_another_object(node, cls):
                    continue
                read.discard(node.attr)
        return {f"self.{attr}" for attr in read}

    def _field_key(self, call, func, callee):
        """(the object, how, ()) when ``call`` runs a method on an object it names (``block(x)``
        running ``__call__``, ``block.sample(x)``) that consumes a field of it on every call: the
        object holds the key, consumed again by each call. The field's read is kept (``fields``)."""
        receiver = func.value if type(func) is ast.Attribute else func
        if type(receiver) is not ast.Name or callee.name == "__init__":
            return None
        rotated = self.rotated_field(callee) if type(func) is ast.Attribute else None
        if rotated is not None:  # the object's field holds the key: ``obj.key``, consumed and then fresh
            self.rotations[call] = rotated
            return ast.copy_location(ast.Attribute(receiver, rotated.attr, ast.Load()), call), "split", ()
        consumed = self.parameters_consumed(callee)
        for node in ast.walk(callee):
            key = self.key_of(node) if type(node) is ast.Call else None
            if key is not None and key_name(key) in consumed and "." in key_name(key):
                self.fields[call] = key
                return receiver, consumed[key_name(key)], ()
        return None

    def rotated_field(self, method):
        """``rotation(method)``'s field, when the module stores that attribute only in the
        ``__init__`` of the method's class, in rotations of that class's methods, and in methods of
        unrelated classes (``self.key`` there is another object's); else None."""
        key, cls = rotation(method, self.model.qualname), self.model.parent(method)
        if key is None or type(cls) is not ast.ClassDef:
            return None
        for node in self.model.nodes(ast.Attribute):
            if node.attr == key.attr and type(node.ctx) is not ast.Load \
                    and not self.model.stores_another_object(node, cls):
                where = self.model.enclosing_function(node)
                if where is None or self.model.parent(where) is not cls or type(node.value) is not ast.Name \
                        or node.value.id != "self" or where.name != "__init__" and not self._rotates_at(where, node):
                    return None
        self.rotated.add(key.attr)
        return key

    def _rotates_at(self, method, store):
        """Whether ``store`` is a target of ``method``'s rotation (``rotation``)."""
        key = rotation(method, self.model.qualname)
        parent = self.model.parent
        return key is not None and parent(parent(store)) is parent(parent(key))

    def _consumed(self, call):
        """(key expression, how) that ``call`` consumes, as a function's parameters go: also a key
        that the def or lambda of the caller's scope it runs closes over (``_closed_over``)."""
        found = self.consumed[call][:2] if self.key_of(call) is not None else self._closed_over(call)
        return found if found is None or found[1] != UNSEEN and not conditional(found[1]) else None

    def _closed_over(self, call):
        """(key, how) for the first key that the def or lambda of the caller's own scope that ``call``
        runs (``loss(p)``, ``jax.grad(loss)(p)``) closes over and consumes on every call, or None:
        a step that defines its loss around its ``key`` parameter consumes that parameter where it
        runs the loss. (The forward pass reads such calls itself: ``keys._branch_calls``.)"""
        func = self.runs(call)[0]
        function = func if type(func) is ast.Lambda else self.model.callee(func) if type(func) is ast.Name else None
        if function is None or deferred(function) \
                or self.model.enclosing_function(function) is not self.model.enclosing_function(call):
            return None
        own = self.model.scope(function).bindings
        for inner in every_call_consumers(function, lambda node: self._consumed(node) is not None):
            key, how = self._consumed(inner)
            if type(key) is ast.Name and key.id not in own:
                return key, how
        return None

    def _split_outputs(self, call):
        """Who reads the split's outputs: "unread" (``split(key)`` as a statement, names nothing
        reads, ``_, _ = split(key)``, or names bound again before anything reads them), "unseen"
        (only callees not known to consume a key, such as a model whose dropout may be off, read
        them), or "read". A module's public names may be read by importers, so there only
        ``_``-prefixed ones count as unread."""
        model = self.model
        statement = model.parent(call)
        if isinstance(statement, ast.Expr):
            return "unread"
        if self._handed_to_unknown(call):
            return "unseen"
        if not isinstance(statement, ast.Assign) or statement.value is not call:
            return "read"
        targets = [n for target in statement.targets for n in ast.walk(target) if not isinstance(n, ast.expr_context)]
        if not all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Starred)) for n in targets):
            return "read"  # an attribute or item outlives the function
        scope = model.enclosing_function(call)
        scope = model.tree if scope is None else scope
        own = model.scope(scope)
        names = {n.id for n in targets if isinstance(n, ast.Name)}
        if names & (own.globals | own.nonlocals):
            return "read"
        if self._overwritten(statement, names, scope):
            return "unread"
        if scope is model.tree and any(not name.startswith("_") for name in names):
            return "read"  # importers may read them
        reads = [read for name in names for read in self._reads_within(scope, name)]
        return "read" if not all(self._handed_to_unknown(read) for read in reads) else "unseen" if reads else "unread"

    def _overwritten(self, statement, names, scope):
        """Whether each of ``names`` (what ``statement`` binds) is bound again by a plain
        assignment before anything reads it (``unbound_after``): later in the same block, or
        after an ``if`` or ``with`` that the block falls out of, or not read before the function
        ends. A read by a nested function or a ``try`` around the statement (a handler may read
        them) leaves the split used."""
        model = self.model
        if any(model.enclosing_function(read) is not (None if scope is model.tree else scope)
               for name in names for read in self._reads_within(scope, name)) \
                or any(isinstance(node, TRIES) for node in self._ancestors(statement, scope)):
            return False
        pending, node = set(names), statement
        while True:
            parent = model.parent(node)
            block = next(getattr(parent, field) for field in ("body", "orelse") if node in getattr(parent, field, ()))
            pending = unbound_after(block[block.index(node) + 1:], pending)
            if pending is not None and not pending:
                return True
            if pending is not None and parent is scope and scope is not model.tree:
                return True  # the function returns without reading them
            if pending is None or parent is scope or not isinstance(parent, (ast.If, ast.With, ast.AsyncWith)):
                return False
            node = parent

    def _ancestors(self, node, scope):
        """The nodes between ``node`` and ``scope``."""
        node = self.model.parent(node)
        while node is not None and node is not scope:
            yield node
            node = self.model.parent(node)

    def _reads_within(self, scope, name):
        """The reads of ``name`` anywhere inside ``scope``, nested functions included."""
        reads = self.model.reads(name)
        return reads if scope is self.model.tree else [read for read in reads if self._inside(read, scope)]

    def _inside(self, node, scope):
        while node is not None and node is not scope:
            node = self.model.parent(node)
        return node is scope

    def _handed_to_unknown(self, expr):
        """Whether ``expr`` is an argument of a call that is neither a ``jax.random`` function nor
        a same-file function consuming that argument."""
        call = self.model.parent(expr)
        if isinstance(call, ast.keyword):
            call = self.model.parent(call)
        if not isinstance(call, ast.Call) or expr is call.func:
            return False
        if (self.model.qualname(call.func) or "").startswith("jax.random."):
            return False
        return self.key_of(call) is not expr


def conditional(how):
    """Whether a consumption is conditional (``Consumers._guarded_key``): (how, the callee, what its
    guard is passed, the names that reads), alike only to another with the same."""
    return type(how) is tuple


def _passed_key(call, names, consumed, returned, posonly):
    """(argument, how, positions it is handed back at) for the first parameter of ``consumed``
    ({parameter: how}) that ``call`` passes plainly; ``returned``: [[position, parameter]]."""
    for param, how in consumed.items():
        argument = argument_for(call, names, param, param not in posonly)
        if argument is not None:
            return argument, how, tuple(position for position, name in returned if name == param)
    return None
