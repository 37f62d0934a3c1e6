"""Which defs a Flax linen Module's ``apply`` runs: ``model.apply(variables, x)`` runs the same-file
Module's ``__call__``, ``method=`` another of its methods; and the calls that run ``__call__``
through a transform of ``model.apply``."""
import ast

from .instances import method_in
from .syntax import forwarding_lambda

# Flax linen's Module: ``model.apply(variables, *args)`` runs the instance's ``__call__(*args)``.
LINEN_MODULES = frozenset({"flax.linen.Module", "flax.linen.module.Module"})
# Linen's decorator for a method that defines its submodules inline: it keeps the arguments.
LINEN_COMPACT = frozenset({"flax.linen.compact", "flax.linen.module.compact"})
# Keywords of ``Module.apply`` that are its own options, not arguments of ``__call__``.
APPLY_OPTIONS = frozenset({"rngs", "mutable", "capture_intermediates", "method"})


class LinenApplies:
    def __init__(self, names, instances):
        self.names = names
        self.instances = instances  # which class, and which call, an object comes from
        self._applies = None  # the file's ``X.apply`` attributes, on demand

    def applied_module(self, func_expr):
        """``__call__`` of the same-file linen Module whose ``apply`` ``func_expr`` is (``model.apply``,
        ``model`` holding an instance of ``MLP``: ``instances.class_of``; ``MLP().apply``), or None."""
        if not isinstance(func_expr, ast.Attribute) or func_expr.attr != "apply" \
                or type(func_expr.value) not in (ast.Name, ast.Call):
            return None
        cls = self.instances.class_of(func_expr.value)
        if cls is None or not any(self.names.qualname(base) in LINEN_MODULES for base in cls.bases):
            return None
        return method_in(cls, "__call__")

    def applied_calls(self, module):
        """The calls that run the linen Module's ``__call__`` ``module`` through a transform of
        ``model.apply`` (``apply = jax.jit(model.apply)``, then ``apply(variables, x, True)``), whose
        positions are ``module``'s (the variables in self's); None when a ``model.apply`` is called
        eagerly (its Python values stay Python) or escapes."""
        if getattr(module, "name", None) != "__call__":
            return None
        if self._applies is None:
            self._applies = [node for node in self.names.by_type.get(ast.Attribute, ()) if node.attr == "apply"]
        calls = []
        for node in self._applies:
            if self.applied_module(node) is module:
                found = self.instances.calls_through(node)
                if found is None or any(call.func is node for call in found):
                    return None
                calls.extend(found)
        return calls or None

    def applied_methods(self, func_expr, keywords):
        """The defs that ``model.apply(variables, ...)`` (``func_expr``, called or given to
        ``partial`` with ``keywords``) runs: ``__call__`` of the same-file linen Module
        (``applied_module``), or with ``method=`` the methods of the same class it names
        (``_named_method``), or that the calls of its function pass the parameter it reads
        (``method=method``: each, when every call passes one); () otherwise."""
        module = self.applied_module(func_expr)
        methods = [k.value for k in keywords if k.arg == "method"]
        if module is None or not methods:
            return () if module is None else (module,)
        cls, given = self.names.parent.get(module), methods[0]
        func = self.names.parameter_of(given) if type(given) is ast.Name else None
        if func is None:
            method = self._named_method(cls, given)
            return () if method is None else (method,)
        passed = self.instances.passed_to(func, given.id, lambda argument: [self._named_method(cls, argument)])
        return tuple(dict.fromkeys(passed or ()))

    def _named_method(self, cls, given):
        """The method of the linen Module ``cls`` that ``given`` names (``MLP.encode``, ``model.encode``,
        ``"encode"``, ``lambda module, x: module.encode(x)``), plain or compact, or None."""
        if type(given) is ast.Constant and type(given.value) is str:
            name = given.value
        elif type(given) is ast.Attribute and (self.instances.class_named(given.value)  # MLP.encode, model.encode
                                               or self.instances.class_of(given.value)) is cls:
            name = given.attr
        elif forwarding_lambda(given):  # lambda module, x: module.encode(x)
            name = given.body.func.attr
        else:
            return None
        method = method_in(cls, name)
        return method if method is not None and all(
            self.names.qualname(d) in LINEN_COMPACT for d in method.decorator_list) else None
