"""The same-file class of the object a name holds, so that traced code reached through an
object (``step(model, x)`` running ``model(x)``) reaches the class's ``__call__`` and methods.

A name holds an instance of class ``C`` when each of its bindings says so: an assignment of
``C(...)``, a parameter annotated ``C``, or a parameter that every call of its function in
the file passes such a name (``step(m, x)`` with ``m = M(...)``; ``jax.grad(loss_fn)(model)``
with ``model`` a parameter known so). A rebinding to a call's result counts as the same class
when the called function returns that very argument, or a pytree with its structure
(``eqx.apply_updates(model, updates)``): ``m, opt = step(m, opt, x)``, the loop-carried
update of every Equinox or NNX training loop. A transform returns what the function
returns, as the same pytree (the class is its node type), so a jitted step keeps it too.
Callers that pass instances of different known classes give them all (each class's method
runs for its callers); anything else (a function referenced other than by calls, a call that
passes something unknown) knows no class: the checks stay silent. The calls are this file's: a
function another module imports and calls is taken at this file's word.
"""
import ast
from functools import partial

from .. import api
from .carried import MAX_DEPTH as _MAX_DEPTH, CarriedStructure, measured_record_methods
from .stores import ObjectStores
from .containers import LITERALS
from .library import body_call
from .names import BindingKind
from .syntax import (argument_or_default, class_body_names, method_in, positional_names,
                     walk_own)


class Instances(CarriedStructure, ObjectStores):
    """Which class the object a name holds is an instance of, as far as the file says: a
    same-file ClassDef, or whatever ``class_named`` makes of the expression naming the class
    (the project's summaries: an imported class)."""

    def __init__(self, names, transform_spec, class_named=None):
        self.names = names
        self.transform_spec = transform_spec  # expression -> (transform, keywords) or None
        self._resolver = class_named  # expression -> what names the class it refers to; None: class_named
        self._classes = {}  # (parameter arg node, what names a class) -> its class, or None
        self._passed = {}  # (def, parameter, what names a class) -> the classes its calls pass it (_classes_passed)
        self._assignments = {}  # ClassDef -> its assignments of self.<attribute> (self_assignments)
        self._stored_attributes = {}  # ClassDef (None: any object) -> its Counter (attribute_stores), on demand
        self._sharing = None  # ClassDef -> those that may share its objects (stores_another_object), on demand
        self._body_names = {}  # ClassDef -> the names its body binds (stored_values), on demand
        self._self_returning = None  # method name -> the methods that return self (_returning_self), on demand

    def class_of(self, name, seen=frozenset(), named=None):
        """The one class whose instance ``name`` holds (``classes_of``), else None."""
        found = self.classes_of(name, seen, named)
        return next(iter(found)) if found is not None and len(found) == 1 else None

    def classes_of(self, name, seen=frozenset(), named=None):
        """The classes whose instances ``name`` may hold, each of them known: what every binding of
        the Name says, when they agree (the callers of a parameter may each pass another class:
        ``forward(Encoder(k), x)`` and ``forward(Decoder(k), x)`` run both classes' methods), or the
        object built in place (``Env()`` of ``jax.jit(Env().step)``); None when one of them is not
        known. ``named``: what an expression naming a class refers to (default ``_named``: a
        same-file class)."""
        named = named or self._named
        if type(name) is ast.Call:
            func = name.func
            if type(func) is ast.Call and func.args \
                    and self.names.qualname(func.func) in api.framework_class_transforms():
                func = func.args[0]  # eqx.filter_vmap(Layer)(keys): measured to give a Layer
            found_class = named(func)
            if found_class is not None:
                return frozenset({found_class})
            if type(func) is ast.Name:
                return self._classes_passed(func, named) or self._returned_classes(func, seen, named)
            if type(func) is ast.Subscript:  # REGISTRY[name](rngs): the classes its lookup may give
                arms = [named(arm) for arm in self.names.looked_up(func)]
                return frozenset(arms) if arms and None not in arms else None
            kept = self._kept_receiver(func, seen, named) if type(func) is ast.Attribute else None
            if kept:
                return kept  # Data(n).clip(), clip returning self
            split = self._parts_split(name)
            taken_apart = split.args[0] if split is not None else None
            return self.classes_of(taken_apart, seen, named) if type(taken_apart) in (ast.Name, ast.Call) else None
        found = self.names.resolve_name(name)
        if not found:
            return None
        scope, bindings = found
        classes, binding_classes, by_methods = set(), set(), []
        for binding in bindings:
            if binding.kind is BindingKind.PARAM:
                found_classes = self._parameter_classes(scope.node, binding.node, seen, named)
            elif self._carried(binding, name.id, methods=measured_record_methods()):
                if not self._carried(binding, name.id):  # state, _ = step(state, x): checked against the class below
                    by_methods.append(binding)
                continue
            elif binding.kind is BindingKind.ASSIGN and type(binding.value) is ast.Call:
                found_classes = self.classes_of(binding.value, seen, named)
            elif (item := self._iterated_item(binding)) is not None:
                found_classes = self.classes_of(item, seen, named)
            elif (unpacked := binding.unpacked()) is not None:  # _, data = setup(cfg)
                found_classes = self._returned_classes(unpacked[0].func, seen, named, unpacked[1])
            else:
                return None
            if not found_classes:
                return None
            classes |= found_classes
            binding_classes.add(found_classes)
        # (bindings of different classes: which one a use sees is the path's, not known here)
        if len(binding_classes) != 1:
            return None
        return self.carried_records(frozenset(classes), by_methods, name.id) if by_methods else frozenset(classes)

    def _returned_classes(self, func, seen, named, position=None):
        """The classes of what a same-file def named by ``func`` gives (at ``position`` of the tuple every
        ``return`` builds, ``return params, Data(n)``), when every ``return`` gives the same ones known
        (``return REGISTRY[name](rngs)``); else None."""
        target = self.names.function_bound_to(func)
        if type(target) not in (ast.FunctionDef, ast.AsyncFunctionDef) or target in seen or len(seen) > _MAX_DEPTH:
            return None
        found = {self.classes_of(value, seen | {target}, named) if type(value) in (ast.Name, ast.Call) else None
                 for value in map(partial(_part, position), self.names.returned_values(target))}
        return found.pop() if len(found) == 1 else None

    def _kept_receiver(self, func, seen, named):
        """The classes of ``obj`` for ``obj.method(...)`` where every ``method`` that may run returns its
        ``self`` alone (a chained setter, ``Data(n).clip()``); else None."""
        if func.attr not in self._returning_self() or type(func.value) not in (ast.Name, ast.Call) \
                or func in seen or len(seen) > _MAX_DEPTH:
            return None  # (x = x.method(): the rebinding asks of itself)
        receivers = self.classes_of(func.value, seen | {func}, named)
        return receivers if receivers and all(  # (of the file's classes: another module's are not read here)
            type(cls) is ast.ClassDef and self.method(cls, func.attr) in self._returning_self()[func.attr]
            for cls in receivers) else None

    def _returning_self(self):
        """{name: the undecorated methods of that name, of the file's classes, whose every ``return``
        gives their ``self`` alone}, found once."""
        if self._self_returning is None:
            self._self_returning = {}
            for cls in self.names.by_type.get(ast.ClassDef, ()):
                for method in cls.body:
                    params = positional_names(method) if type(method) is ast.FunctionDef else ()
                    if params and not method.decorator_list and all(
                            type(value) is ast.Name and value.id == params[0]
                            for value in self.names.returned_values(method) or (None,)):
                        self._self_returning.setdefault(method.name, set()).add(method)
        return self._self_returning

    def _parts_split(self, call):
        """The call that took apart the object a framework rebuilder (``nnx.merge(graphdef, params)``,
        measured) puts together again: the one every one of its Name arguments bound by a tuple
        target was unpacked from (``graphdef, params = nnx.split(model)``); else None."""
        rebuilder = api.framework_rebuilders().get(self.names.qualname(call.func))
        if rebuilder is None:
            return None
        splits = set()
        for argument in call.args:
            binding = self.names.one_binding(argument) if type(argument) is ast.Name else None
            stmt = binding.stmt if binding is not None else None
            if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Tuple \
                    and type(stmt.value) is ast.Call and stmt.value.args \
                    and self.names.qualname(stmt.value.func) == rebuilder["parts_of"]:
                splits.add(stmt.value)
        return splits.pop() if len(splits) == 1 else None

    def _named(self, expr):
        return self._resolver(expr) if self._resolver is not None else self.class_named(expr)

    def class_named(self, expr):
        """The ClassDef a Name refers to, bound once by a class statement, or None."""
        found = self.names.one_binding(expr, BindingKind.CLASS)
        return found.node if found is not None else None

    def receiver_classes(self, expr):
        """The classes whose instance the receiver of a method call holds: a name's or a call's
        (``classes_of``), or the one whose call built ``self.block``, ``self.heads["cls"]`` or
        ``self.blocks[0]`` (``constructor``); None when not known."""
        if type(expr) in (ast.Name, ast.Call):
            return self.classes_of(expr)
        built = self.constructor(expr) if type(expr) in (ast.Attribute, ast.Subscript) else None
        return self.classes_of(built) if built is not None else self._item_classes(expr)

    def _item_classes(self, expr):
        """The classes of ``carry[0]``, an item of a parameter: those of that item of the display every call
        of its function passes (``nnx.fori_loop(0, n, body, (model, x))`` calls ``body(0, (model, x))``)."""
        index = getattr(expr.slice, "value", None) if type(expr) is ast.Subscript else None
        func = self.names.parameter_of(expr.value) if type(index) is int and type(expr.value) is ast.Name else None
        items = [] if func is None else self.passed_to(func, expr.value.id, lambda given: [given.elts[index] if type(
            given) in (ast.Tuple, ast.List) and -len(given.elts) <= index < len(given.elts) else None])
        found = [self.classes_of(item) if type(item) in (ast.Name, ast.Call) else None for item in items or ()]
        return frozenset().union(*found) if found and None not in found else None

    def _classes_passed(self, name, named):
        """The classes that a parameter the code calls (``block(rngs)``, ``cls(cfg)``) names: those every
        call of its function, or of its class for ``__init__``, passes by name (``Gated(NumpyGate, rngs)``),
        leaves to a default that names one (``def setup(cls=Model)``) or hands on from a parameter of its
        caller known so (``setup(cls)`` in ``def run(cls=Model)``); else None."""
        func = self.names.parameter_of(name)
        if func is None or isinstance(func, ast.Lambda):
            return None
        key = (func, name.id, getattr(named, "__func__", named))
        if key not in self._passed:
            self._passed[key] = None  # (while it is asked: a parameter handed round in a cycle names no class)
            owner, calls, positional = self.names.parent.get(func), None, None
            if type(owner) is not ast.ClassDef:
                calls = self.calls_of(func)
            elif func.name == "__init__":
                calls, positional = self.calls_of(owner), positional_names(func, bound=True)
            classes = given_by_calls(calls or (), lambda call: self._class_named_by(
                argument_or_default(call, func, name.id, positional), named))
            self._passed[key] = frozenset(classes) if classes else None
        return self._passed[key]

    def _class_named_by(self, argument, named):
        """[the classes a Name given as a class may name]: one it names, or those a parameter holding
        classes may (``_classes_passed``); None for anything else."""
        found = named(argument) if type(argument) is ast.Name else None
        handed = self._classes_passed(argument, named) if type(argument) is ast.Name and found is None else None
        return [found] if found is not None else list(handed) if handed else None

    def _iterated_item(self, binding):
        """The call that built every item a loop variable (``for block in self.blocks``) takes, or None."""
        loop = self.names.parent.get(binding.node)
        if type(loop) not in (ast.For, ast.comprehension) or loop.target is not binding.node:
            return None
        return self._built(self._held(loop.iter))

    def parameter_class(self, func, arg):
        """The one class a parameter is annotated with, or that every call of its function passes."""
        found = self._parameter_classes(func, arg)
        return next(iter(found)) if found is not None and len(found) == 1 else None

    def _parameter_classes(self, func, arg, seen=frozenset(), named=None):
        """The class a parameter is annotated with, or the classes the calls of its function pass."""
        named = named or self._named
        if arg.annotation is not None:
            found_class = named(arg.annotation)
            return None if found_class is None else frozenset({found_class})
        # (keyed by the method's function: its bound object, this one or one holding it, would make a
        # cycle that keeps the file's tree and Names alive until the garbage collector's next full pass)
        key = (arg, getattr(named, "__func__", named))
        if key not in self._classes:
            if func in seen or len(seen) > _MAX_DEPTH:  # a recursive or a long chain of calls: not settled here
                return None
            self._classes[key] = self._passed_classes(func, arg.arg, seen | {func}, named)
        return self._classes[key]

    def _passed_classes(self, func, param, seen, named):
        if param in ("self", "cls") and positional_names(func)[:1] == [param] or func.args.vararg or func.args.kwarg:
            return None
        found = self.passed_to(func, param, lambda argument: self.classes_of(argument, seen, named)
                               if type(argument) in (ast.Name, ast.Call) else None)
        return frozenset(found) if found else None

    def functions_passed(self, expr):
        """The same-file defs that the parameter the Name ``expr`` reads may hold: each one that a
        call of its function passes by name, as a lambda or as a factory's result (``make_step(mse)``,
        ``make_step(loss_fn=mae)``, ``make_step(make_schedule(0.1))``,
        ``loop(lambda f: ~jnp.all(f), ...)``; another call may pass ``jnp.tanh``: that one runs no def
        of the file), or () when the function escapes; for another expression, the defs of which one
        runs (``names.function_arms``: ``LOSSES[name]``)."""
        func = self.names.parameter_of(expr) if type(expr) is ast.Name else None
        if func is None:
            return tuple(self.names.function_bound_to(arm) for arm in self.names.function_arms(expr))
        return tuple(self.passed_to(func, expr.id, self._function_given, every=False) or ())

    def _function_given(self, argument):
        """[the def an argument passes]: a def by name, a lambda, or what a factory call makes
        (``make_step(make_schedule(0.1))``); None for anything else."""
        if type(argument) in (ast.Name, ast.Lambda):
            return [self.names.function_bound_to(argument)]
        return list(self.names.functions_made_by(argument) or (None,)) if type(argument) is ast.Call else None

    def passed_to(self, func, param, given, every=True):
        """What the calls of ``func`` in the file give its parameter ``param`` (``given_by_calls``, asked
        of the argument each passes it: ``given(argument)``; ``every``, as there); None when ``func`` is a method."""
        if type(self.names.parent.get(func)) is ast.ClassDef:
            return None
        calls = self.calls_of(func)
        return given_by_calls((self.control_flow_calls(func) if calls is None else calls) or (),
                              lambda call: given(argument_or_default(call, func, param)), every)

    def control_flow_calls(self, func):
        """When ``func`` is only given to control flow as a function it calls, the calls it runs,
        written as calls of ``func`` with the arguments that reach its parameters
        (``nnx.cond(pred, f, g, model, x)`` runs ``f(model, x)``; ``api.control_flow_operands``);
        else None."""
        if isinstance(func, ast.Lambda):
            references = [func]
        elif func.decorator_list:
            return None
        else:
            references = self._references_to(func.name, func)
        calls = []
        for reference in references:
            given = self.names.parent.get(reference)
            if type(given) is ast.List:  # lax.switch(index, [f, g], x)
                given = self.names.parent.get(given)
                reference = self.names.parent.get(reference)
            if type(given) is not ast.Call or reference not in given.args \
                    or any(type(a) is ast.Starred for a in given.args):
                return None
            runs = body_call(given, self.names.qualname(given.func), given.args.index(reference), reference)
            if runs is None:
                return None
            calls.append(runs)
        return calls or None

    def own_call(self, expr):
        """``__call__`` of the class whose method (not a static or class one) has the Name ``expr`` as
        its first parameter (``self(x)``), or None."""
        func = self.names.parameter_of(expr) if type(expr) is ast.Name else None
        cls = self.names.parent.get(func)
        decorators = {getattr(d, "id", None) for d in getattr(func, "decorator_list", ())}
        own = type(cls) is ast.ClassDef and positional_names(func)[:1] == [expr.id]
        return self.method(cls, "__call__") if own and not decorators & {"staticmethod", "classmethod"} else None

    def overrides(self, func):
        """The methods of same-file subclasses that ``self.m`` in a method of a class runs instead of
        the class's own ``m``, for an instance of the subclass: each one that defines ``m`` and
        inherits the method reading it (a base's ``__call__`` calling an abstract hook a subclass
        implements, a base's ``__init__`` jitting ``self._step`` a subclass overrides); () for any
        other expression."""
        if type(func) is not ast.Attribute or type(func.value) is not ast.Name:
            return ()
        caller = self.names.enclosing_function(func)
        cls = self.names.parent.get(caller)
        if type(cls) is not ast.ClassDef or positional_names(caller)[:1] != [func.value.id]:
            return ()
        found = []
        for sub in self.names.by_type.get(ast.ClassDef, ()):
            if sub is not cls and self.method(sub, caller.name) is caller:
                method = self.method(sub, func.attr)
                if method is not None and self.names.parent.get(method) is sub and method not in found:
                    found.append(method)
        return tuple(found)

    def method(self, cls, name):
        """The def of the method ``name`` in the ClassDef ``cls`` or, when its body binds no
        such name, in its single base, a same-file class (and so on up), or None. Not past a
        decorated class for ``__init__``: a generated one (a dataclass's) may take its place."""
        seen = set()
        while cls is not None and cls not in seen:
            if name == "__init__" and cls.decorator_list or len(cls.bases) != 1 or name in class_body_names(cls):
                return method_in(cls, name)
            seen.add(cls)
            cls = self.class_named(cls.bases[0])
        return None

    def bound_method(self, cls, name, inherits):
        """Whether ``obj.<name>`` of an instance of the ClassDef ``cls`` is a method, bound anew on each
        access: a def of the first class up its same-file bases that binds ``name`` (in its body or on
        ``self``), not a ``@staticmethod``; where none binds it, ``inherits`` (the class derives from a
        framework Module, whose attributes a subclass does not bind are the framework's methods)."""
        seen = set()
        while cls is not None and cls not in seen:
            seen.add(cls)
            if name in class_body_names(cls) or name in self.self_assignments(cls):
                method = method_in(cls, name)
                return method is not None and name not in self.self_assignments(cls) and not any(
                    getattr(d, "id", None) == "staticmethod" for d in method.decorator_list)
            cls = self.class_named(cls.bases[0]) if len(cls.bases) == 1 else None
        return inherits

    def stored_value(self, cls, attr, depth=0):
        """What every assignment of ``self.<attr>`` in the ClassDef ``cls`` stores, all of them in its
        ``__init__`` or linen's ``setup``: a call of one function (``self.linear = nnx.Linear(...)``) or
        one display (``self.blocks = [block(k) for k in keys]``); where ``cls`` assigns none, its single
        same-file base's; else None."""
        assigned = self.self_assignments(cls).get(attr, ())
        if not assigned:
            base = self.class_named(cls.bases[0]) if len(cls.bases) == 1 and depth < _MAX_DEPTH else None
            return self.stored_value(base, attr, depth + 1) if base is not None and base is not cls else None
        calls = {}
        for node, targets in assigned:
            init = self.names.enclosing_function(node)
            if len(targets) != 1 or type(node) is not ast.Assign \
                    or getattr(init, "name", None) not in ("__init__", "setup") \
                    or self.names.parent.get(init) is not cls:
                return None
            if type(node.value) is not ast.Call:
                return node.value if len(assigned) == 1 and type(node.value) in LITERALS else None
            calls[ast.dump(node.value.func)] = node.value
            in_setup = init.name == "setup"
        # linen refuses a second assignment of a submodule in setup: such code never runs
        return calls.popitem()[1] if len(calls) == 1 and not (in_setup and len(assigned) > 1) else None

    def constructor(self, expr):
        """The call that built the object ``expr`` holds: ``nn.Dense(4)`` of ``nn.Dense(4)(x)``,
        a name's single assignment (``layer = nn.Dense(4)``), ``self.<attr>`` in a method
        (``stored_value``), an item of a list that holds only such objects (``self.layers[-1]``, the
        ``layer`` of ``for layer in self.layers``: ``built``); else None."""
        if type(expr) is ast.Call:
            return expr
        if type(expr) is ast.Subscript and type(expr.slice) is not ast.Slice:
            return self._built(self._held(expr.value))
        if type(expr) is ast.Name:
            binding = self.names.one_binding(expr)
            value = binding.value if binding is not None and binding.kind is BindingKind.ASSIGN \
                else self._iterated_item(binding) if binding is not None else None
            return value if type(value) is ast.Call else None
        stored = self._held(expr) if type(expr) is ast.Attribute else None
        return stored if type(stored) is ast.Call else None

    def _held(self, expr):
        """What ``expr`` holds as written: a slice of it (``self.layers[:-1]``) holds its items; a
        name or ``self.<attr>`` in a method its one assignment's value (a display, or a call)."""
        while type(expr) is ast.Subscript and type(expr.slice) is ast.Slice:
            expr = expr.value
        if type(expr) is ast.Name:
            return self.names.assigned_value(expr)
        if type(expr) is not ast.Attribute or type(expr.value) is not ast.Name or expr.value.id != "self":
            return None
        cls = self.names.parent.get(self.names.enclosing_function(expr))
        return self.stored_value(cls, expr.attr) if type(cls) is ast.ClassDef else None

    def _built(self, container, depth=0):
        """The one call that builds every item of a list ``container`` is (a display, a dict display's
        values, a comprehension, a framework container built around one (``nnx.List``, measured), or a
        call of a same-file def each ``return`` of which gives one: ``_linears(dims, key)`` returning
        ``[eqx.nn.Linear(...) for ...]``), when all are calls of the same function; else None."""
        if type(container) in (ast.List, ast.Tuple):
            items = container.elts
        elif type(container) is ast.Dict:
            items = container.values if None not in container.keys else ()
        elif type(container) is ast.ListComp:
            items = [container.elt]
        elif type(container) is ast.Call and len(container.args) == 1 and not container.keywords \
                and self.names.qualname(container.func) in api.framework_containers() and depth < _MAX_DEPTH:
            held = container.args[0]  # nnx.List([...]), nnx.Dict({...}): measured to give their items back
            return self._built(self._held(held) if type(held) is ast.Name else held, depth + 1)
        elif type(container) is ast.Call and depth < _MAX_DEPTH:
            func = self.names.function_bound_to(container.func)
            returns = [n.value for n in walk_own(func.body) if type(n) is ast.Return] \
                if isinstance(func, ast.FunctionDef) else ()
            items = [self._built(value, depth + 1) for value in returns]
        else:
            return None
        built = {ast.dump(item.func): item for item in items if type(item) is ast.Call}
        return built.popitem()[1] if items and len(built) == 1 and len(items) == sum(
            type(item) is ast.Call for item in items) else None

    def calls_of(self, func):
        """Every call of ``func`` (a def, or a class) in the file (``f(x)``, ``jax.grad(f)(x)``, ``fast(x)``
        with ``fast = jax.jit(f)``), or None when it is referenced otherwise: passed on, kept, or
        wrapped by a decorator that is not a transform."""
        if isinstance(func, ast.Lambda):
            references = [func]
        elif any(self.transform_spec(d) is None for d in func.decorator_list):
            return None
        else:
            references = self._references_to(func.name, func)
        calls = []
        for reference in references:
            found = self.calls_through(reference)
            if found is None:
                return None
            calls.extend(found)
        return calls

    def method_calls(self, method):
        """The calls that run the undecorated method ``method`` on an object (``obj.apply(x)``,
        ``eqx.filter_vmap(obj.apply)(xs)``: their positions start after ``self``), when every read of
        an attribute of its name in the file is of an object whose classes are known; ``__call__`` runs
        on the calls of what each construction of its class builds (``eqx.filter_jit(Rate())(x)``,
        ``m = Rate(); m(x)``), when the class and each object are only called. Else None."""
        if method.decorator_list or positional_names(method)[:1] != ["self"]:
            return None
        if method.name == "__call__":
            cls = self.names.parent.get(method)
            built = None if self._calls_itself(cls) else self.calls_of(cls)
            # (depth -1: the name the construction binds is no step of a chain)
            calls = [self.calls_through(construction, -1, built=True) for construction in built or ()]
            return [call for each in calls for call in each] if built and None not in calls else None
        calls = []
        for node in self.names.by_type.get(ast.Attribute, ()):
            if node.attr != method.name or type(node.ctx) is not ast.Load:
                continue
            classes = self.receiver_classes(node.value)
            if not classes:
                return None
            if any(self.method(each, method.name) is method for each in classes):
                found = self.calls_through(node)
                if found is None:
                    return None
                calls.extend(found)
        return calls

    def _calls_itself(self, cls):
        """Whether a method of ``cls`` (or a def nested in one) calls its own object (``self(x)``)."""
        parent = self.names.parent.get
        for name in self.names.reads("self"):
            node = parent(name)
            if type(node) is ast.Call and node.func is name:
                while node is not None and node is not cls:
                    node = parent(node)
                if node is cls:
                    return True
        return False

    def calls_through(self, reference, depth=0, built=False):
        """The calls that run what ``reference`` gives, or None if it escapes: a call of it, of
        a transform of it, of a name bound to either (``loss = lambda m: ...``, ``fast = jax.jit(f)``).
        ``built``: ``reference`` builds an object, so reading an attribute of the name bound to it
        (``model.cast``) is no call of it, nor an escape."""
        parent = self.names.parent.get(reference)
        if depth > _MAX_DEPTH:
            return None
        if type(parent) is ast.Assign and parent.value is reference and len(parent.targets) == 1 \
                and type(parent.targets[0]) is ast.Name:
            found = self.names.resolve_name(parent.targets[0])
            if found is None or len(found[1]) != 1:
                return None
            calls = []
            for use in self._references_to(parent.targets[0].id, None, found[0]):
                through = [] if built and type(self.names.parent.get(use)) is ast.Attribute \
                    else self.calls_through(use, depth + 1)
                if through is None:
                    return None
                calls.extend(through)
            return calls
        if type(parent) is not ast.Call:
            return None
        if parent.func is reference:
            return [parent]
        if not parent.args or parent.args[0] is not reference or self.transform_spec(parent.func) is None:
            return None
        return self.calls_through(parent, depth + 1)  # jax.grad(f)(x): the transformed function's calls

    def _references_to(self, name, node, scope=None):
        """The Name loads that resolve to the def ``node`` (or to the single binding in ``scope``)."""
        found = []
        for load in self.names.reads(name):
            resolved = self.names.resolve_name(load)
            if resolved and len(resolved[1]) == 1 and (resolved[1][0].node is node if node is not None
                                                       else resolved[0] is scope):
                found.append(load)
        return found


def given_by_calls(calls, given, every=True):
    """What the calls of a function give one of its parameters: each item of ``given(call)``, once,
    in order. The one reading of what a parameter holds, over this file's calls (``Instances``) or
    the project's (``defaults.passed_values``). ``every``: the answer is what the parameter holds
    (a class every caller passes), so a call that gives nothing known (none, or a None item) makes
    it None; else it is what some call passes (a function a module's call makes a factory trace),
    and an unknown is left out."""
    found = []
    for call in calls:
        items = given(call)
        if every and (not items or None in items):
            return None
        found.extend(item for item in items or () if item is not None and item not in found)
    return found


def _part(position, value):
    """``value``, or its element at ``position`` where it is a tuple display with nothing starred, else None."""
    if position is None:
        return value
    if type(value) is not ast.Tuple or len(value.elts) <= position or any(type(e) is ast.Starred for e in value.elts):
        return None
    return value.elts[position]
