"""What the objects a framework's functions build hold, read from the calls that build them: the
functions a gradient transformation runs in its ``update`` (``optax.adam(learning_rate=schedule)``),
the fields of a framework's pytree dataclass (``TrainState.create(...)``), both measured by running
the frameworks (``api.framework_update_callbacks``, ``api.framework_record_builders``)."""
import ast
from functools import lru_cache

from .. import api
from .instances import given_by_calls
from .syntax import argument_for, positional_names

# How many names, calls and returns ``built_by`` follows back.
_MAX_BUILD_DEPTH = 6


@lru_cache(maxsize=None)
def _transformation_packages():
    """The packages whose calls build gradient transformations from others (``optax.chain``)."""
    return frozenset(name.partition(".")[0] for name in api.framework_update_callbacks())


class BuiltObjects:
    """The calls that build what an expression holds, in one module."""

    def __init__(self, names, instances):
        self.names = names
        self.instances = instances

    def given_to_update(self, expr):
        """[(def or lambda, its array positions)] of the same-file functions that the gradient transformation
        ``expr`` may hold calls in its ``update``: given to a measured builder (``optax.adam(learning_rate=
        schedule)``) in the Optax calls that build it (``optax.chain``, ``optax.MultiSteps``)."""
        found = []
        for call in self.built_by(expr, every=False):
            qualname = self.names.qualname(call.func) or ""
            if qualname.partition(".")[0] not in _transformation_packages():
                continue
            for position, keyword, arrays in api.framework_update_callbacks().get(qualname, {}).get("arguments", ()):
                given = argument_for(call, [None] * position + [keyword] if position is not None else [], keyword)
                found += [(func, tuple(arrays)) for func in self._functions_given(given)]
            for inner in [*call.args, *(k.value for k in call.keywords)]:  # optax.chain(optax.stateless(f), ...)
                found += self.given_to_update(inner)
        return list(dict.fromkeys(found))

    def given_to_record_update(self, method):
        """``given_to_update`` of the gradient transformations that the file builds its framework records
        around, where their ``method`` runs that transformation's ``update`` (``state.apply_gradients``, the
        transformation given as ``tx=``: measured, ``api.framework_records``' ``updating``). Every builder
        call of the file, as for ``apply_fn=``: the state a training loop steps is rebound to each step's result."""
        found = []
        for call in self.names.calls:
            facts = api.framework_record_builders().get(self.names.qualname(call.func) or "")
            keyword = facts.get("updating", {}).get(method) if facts else None
            given = next((k.value for k in call.keywords if k.arg == keyword), None) if keyword else None
            found += self.given_to_update(given) if given is not None else []
        return list(dict.fromkeys(found))

    def _functions_given(self, given):
        """The same-file defs ``given`` names: a def or lambda, or those the calls of its function pass
        the parameter it reads (``optax.adam(schedule)`` in ``make_state(schedule)``)."""
        if type(given) is ast.Name and self.names.parameter_of(given) is not None:
            return [func for func in self.instances.functions_passed(given) if func is not None]
        func = self.names.function_bound_to(given) if type(given) in (ast.Name, ast.Lambda) else None
        return [func] if func is not None else []

    def framework_record(self, func, param):
        """The shape (``{"record": ...}``) of the framework pytree dataclass that every call of ``func``
        gives ``param``, built by a measured builder (``TrainState.create(...)``; ``api.framework_record_builders``:
        its data fields, arrays where measured so), or None."""
        calls = self.instances.calls_of(func) if type(self.names.parent.get(func)) is not ast.ClassDef else None
        built = given_by_calls(calls or (), lambda call: self.built_by(
            argument_for(call, positional_names(func), param), every=True)) if calls else None
        facts = [api.framework_record_builders().get(self.names.qualname(call.func)) for call in built or ()]
        if not facts or facts[0] is None or any(fact is not facts[0] for fact in facts):
            return None
        return {"record": {"fields": facts[0]["fields"], "arrays": facts[0]["arrays"], "methods": []}}

    def built_by(self, expr, every, depth=0):
        """The calls of other modules' functions whose result ``expr`` may hold, followed through a
        name's one assignment, the calls of a parameter's function and a same-file function's
        ``return``s; ``every``: all of them, or None when one is unknown (else those known)."""
        unknown = None if every else []
        if depth > _MAX_BUILD_DEPTH:
            return unknown
        if type(expr) is ast.Name:
            func = self.names.parameter_of(expr)
            if func is not None and type(self.names.parent.get(func)) is not ast.ClassDef:
                return given_by_calls(self.instances.calls_of(func) or (), lambda call: self.built_by(
                    argument_for(call, positional_names(func), expr.id), every, depth + 1), every=every)
            value = self.names.assigned_value(expr)
            return self.built_by(value, every, depth + 1) if value is not None else unknown
        if type(expr) is not ast.Call:
            return unknown
        builder = self.names.function_bound_to(expr.func) if type(expr.func) is ast.Name else None
        if builder is None:
            return [expr]
        if isinstance(builder, ast.Lambda):
            return unknown
        found = []
        for node in self.names.own_nodes(builder):  # make_state(): what it returns
            if type(node) is ast.Return:
                returned = self.built_by(node.value, every, depth + 1)
                if returned is None:
                    return None
                found += returned
        return found or unknown
