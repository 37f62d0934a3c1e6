"""Whether a rebinding keeps an object's pytree structure, and so its class: ``m =
eqx.apply_updates(m, updates)``, or ``m, opt = step(m, opt, x)`` with a ``step`` of the file that
returns ``m``'s structure there (the loop-carried update of every Equinox or NNX training loop), or
a framework record's own class through its measured methods (``state.apply_gradients(grads=grads)``).
A part of ``instances.Instances``, kept apart to keep that module's size.
"""
import ast
from functools import lru_cache

from .. import api
from ..facts import TREE_MAPS
from .names import BindingKind
from .syntax import argument_for, positional_names

# Calls that return a pytree with the structure of one argument (its position): the same class.
STRUCTURE_KEEPING = {"equinox.apply_updates": 0, "optax.apply_updates": 0, "jax.tree_util.tree_map": 1,
                     "jax.tree.map": 1, "equinox.tree_at": 1}
# Those whose result's leaves keep their shapes and dtypes too, so that a donated argument's buffers can
# become its outputs: not a tree map, whose function may cast or reshape every leaf (``p.astype(bf16)``).
BUFFER_KEEPING = {name: at for name, at in STRUCTURE_KEEPING.items() if name not in TREE_MAPS}
# Calls that give a copy of an object with one field replaced: (where, object, value).
FIELD_REPLACING = frozenset({"equinox.tree_at"})
# How many rebindings deep a value's structure is followed (m = train(m) running m = step(m), ...),
# and how many functions deep the calls that pass an object are.
MAX_DEPTH = 6


class CarriedStructure:
    """The structure-keeping questions of ``Instances`` (it gives ``names`` and ``transform_spec``)."""

    def _carried(self, binding, name, depth=0, keeping=STRUCTURE_KEEPING, methods=frozenset()):
        """Whether ``binding`` rebinds ``name`` to a pytree of its own structure: a call that
        keeps it (``m = eqx.apply_updates(m, updates)``), or ``m = step(m, x)``, ``m, opt =
        step(m, opt, x)`` with a ``step`` of the file that returns ``m``'s structure there
        (``depth``: how many rebindings the question has gone through; ``keeping``: the calls that keep
        it, ``STRUCTURE_KEEPING`` or ``BUFFER_KEEPING``; ``methods``: the methods that give an object of
        its receiver's class, ``state.apply_gradients(grads=grads)``, where that class has them)."""
        stmt = binding.stmt
        if type(stmt) is not ast.Assign or len(stmt.targets) != 1 or type(stmt.value) is not ast.Call:
            return False
        target, call = stmt.targets[0], stmt.value
        if self._updates(call, name, keeping) or _method_of(call, methods, name):
            return type(target) is ast.Name  # model = eqx.apply_updates(model, updates)
        if type(target) is ast.Name:
            place = None
        elif type(target) is ast.Tuple and [type(e) for e in target.elts].count(ast.Name) == len(target.elts) \
                and [e.id for e in target.elts].count(name) == 1:
            place = [e.id for e in target.elts].index(name)
        else:
            return False
        func = self._called_function(call)
        if func is None or isinstance(func, ast.Lambda):
            return False
        positional = positional_names(func)
        parameter_names = positional + [a.arg for a in func.args.kwonlyargs]
        arguments = {p: argument_for(call, positional, p) for p in parameter_names}
        passed = [p for p, argument in arguments.items() if type(argument) is ast.Name and argument.id == name]
        if len(passed) != 1:
            return False
        returns = self.names.returned_values(func)
        if not returns:
            return False
        for value in returns:
            if place is not None:
                if type(value) is not ast.Tuple or len(value.elts) != len(target.elts):
                    return False
                value = value.elts[place]
            if not self._keeps_structure(value, func, passed[0], depth, keeping, methods):
                return False
        return True

    def gives_back(self, func, param):
        """Whether every return of ``func`` gives back the structure of its parameter ``param``, as its
        value or an element of the tuple it returns (``return eqx.apply_updates(model, updates), opt_state``
        gives ``model``'s) through calls that keep its leaves' shapes and dtypes (``BUFFER_KEEPING``): an
        output whose buffers a donated ``param`` can become."""
        returns = self.names.returned_values(func)
        return bool(returns) and all(any(self._keeps_structure(value, func, param, 0, BUFFER_KEEPING) for value in (
            returned.elts if type(returned) is ast.Tuple else [returned])) for returned in returns)

    def _updates(self, call, name, keeping):
        """Whether ``call`` keeps the structure of the Name ``name`` it is given (one of ``keeping``)."""
        position = keeping.get(self.names.qualname(call.func))
        return position is not None and position < len(call.args) and type(call.args[position]) is ast.Name \
            and call.args[position].id == name

    def _called_function(self, call):
        """The same-file def or lambda that ``call`` runs: ``f(x)``, ``jax.jit(f)(x)``, ``fast(x)``
        with ``fast = jax.jit(f)`` bound once."""
        func = self.names.function_bound_to(call.func)
        if func is not None:
            return func
        expr = call.func
        if type(expr) is ast.Name:
            expr = self.names.assigned_value(expr)
        if type(expr) is ast.Call and expr.args and self.transform_spec(expr.func) is not None:
            return self.names.function_bound_to(expr.args[0])
        return None

    def _keeps_structure(self, value, func, param, depth, keeping=STRUCTURE_KEEPING, methods=frozenset()):
        """Whether ``value``, in ``func``, is the parameter ``param`` or a pytree of its structure, kept
        by the calls ``keeping`` or the receiver's ``methods``."""
        if type(value) is ast.Call and _method_of(value, methods):
            return self._keeps_structure(value.func.value, func, param, depth, keeping, methods)
        if type(value) is ast.Call:
            position = keeping.get(self.names.qualname(value.func))
            return position is not None and position < len(value.args) \
                and self._keeps_structure(value.args[position], func, param, depth, keeping)
        if type(value) is not ast.Name or depth > MAX_DEPTH:
            return False
        found = self.names.resolve_name(value)
        if not found or found[0].node is not func:
            return False
        for binding in found[1]:  # the parameter itself, else rebound to its own structure
            if binding.kind is BindingKind.PARAM:
                if binding.node.arg != param:
                    return False
            elif not (self._carried(binding, value.id, depth + 1, keeping, methods)
                      or binding.kind is BindingKind.ASSIGN
                      and self._keeps_structure(binding.value, func, param, depth + 1, keeping, methods)):
                return False
        return True

    def carried_records(self, classes, carried_by_methods, name):
        """``classes`` when every rebinding in ``carried_by_methods`` keeps ``name``'s class through the methods
        that each of them, a framework record, was measured to give one of its class by (``state, loss =
        step(state, x)`` returning ``state.apply_gradients(grads=grads)``); else None."""
        methods = _record_methods(classes)
        return classes if methods and all(self._carried(binding, name, methods=methods)
                                          for binding in carried_by_methods) else None

    def record_result(self, call, func):
        """The shape of what ``call`` of the same-file def ``func`` gives where some ``return`` gives back a
        framework record it is given, through the record's measured methods (``return
        state.apply_gradients(grads=grads), loss``): ``{"record": ...}``, or ``{"tuple": [...]}`` with one
        at each position where every ``return`` does so and the call passes that parameter a record; else None."""
        returns = self.names.returned_values(func)
        if not returns or not any(_method_of(part, measured_record_methods()) for value in returns
                                  for part in (value.elts if type(value) is ast.Tuple else [value])):
            return None
        sizes = {len(value.elts) if type(value) is ast.Tuple else None for value in returns}
        size = sizes.pop() if len(sizes) == 1 else -1
        if size == -1 or any(type(v) is ast.Tuple and any(type(e) is ast.Starred for e in v.elts) for v in returns):
            return None
        parts = [self._returned_record(call, func, returns, at) for at in (range(size) if size is not None else [None])]
        if not any(parts):
            return None
        return parts[0] if size is None else {"tuple": parts}

    def _returned_record(self, call, func, returns, at):
        """``record_result`` at the position ``at`` of the returned tuples (None: the whole value)."""
        positional = positional_names(func)
        for param in positional + [a.arg for a in func.args.kwonlyargs]:
            given = argument_for(call, positional, param)
            if type(given) not in (ast.Name, ast.Call) or not all(self._keeps_structure(
                    value if at is None else value.elts[at], func, param, 0, methods=measured_record_methods())
                    for value in returns):
                continue
            classes = self.classes_of(given, named=self.record_named)
            methods = _record_methods(classes)
            if not methods or not all(self._keeps_structure(value if at is None else value.elts[at], func, param, 0,
                                                            methods=methods) for value in returns):
                return None
            facts = api.framework_records()[next(iter(classes))]
            return {"record": {"fields": facts["fields"], "arrays": facts["arrays"], "methods": []}} \
                if len(classes) == 1 else None
        return None

    def record_named(self, expr):
        """The dotted name of the framework record that the measured builder ``expr`` builds
        (``TrainState.create``), as ``classes_of`` names a class; else None."""
        facts = api.framework_record_builders().get(self.names.qualname(expr))
        return facts["builders"][0] if facts is not None else None


@lru_cache(maxsize=None)
def measured_record_methods():
    """The methods some framework record was measured to give an object of its class by."""
    return _record_methods(api.framework_records(), every=False)


def _record_methods(classes, every=True):
    """The methods that every one of ``classes`` (any, without ``every``), each a framework record, was
    measured to give an object of its class by; empty when one is no record."""
    measured = [frozenset(api.framework_records()[cls].get("returning", ())) if type(cls) is str
                and cls in api.framework_records() else frozenset() for cls in classes or ()]
    if not measured:
        return frozenset()
    return frozenset.intersection(*measured) if every else frozenset.union(*measured)


def _method_of(call, methods, receiver=None):
    """Whether ``call`` is ``obj.m(...)`` with ``m`` one of ``methods`` (``obj`` the Name ``receiver``, if given)."""
    func = call.func if type(call) is ast.Call else None
    return type(func) is ast.Attribute and func.attr in methods and (
        receiver is None or type(func.value) is ast.Name and func.value.id == receiver)
