"""The methods a framework traces by its own contract, whatever calls them: a Flax linen
Module's ``__call__`` and ``@nn.compact`` methods, an NNX or Equinox Module's ``__call__``.

Which base classes and which methods run traced come from the API data (the generator runs a
probe Module of each framework through its standard path: ``datagen.frameworks``); which
parameters hold tracers is the convention's, chosen for precision: those the body uses as
arrays, not ``self``, not Python config (``train: bool``, a defaulted ``n=2``).
"""
import ast

from .. import api
from .parameters import traced_parameters
from .syntax import positional

# The Module bases whose methods other parts of the model tell apart (the data's names for them).
LINEN_MODULE, NNX_MODULE = "flax.linen.Module", "flax.nnx.Module"
# Annotations of a Module method's parameters that hold Python config, not arrays.
PYTHON_ANNOTATIONS = frozenset({"bool", "int", "float", "str"})
# How many same-file base classes deep a Module's framework is looked for.
_MAX_BASES = 4


class Conventions:
    def __init__(self, names, class_named):
        self.names = names
        self.class_named = class_named  # a base-class expression -> the same-file ClassDef, or None

    def module_facts(self, cls, depth=0):
        """What the generator measured of the framework Module base ``cls`` derives from, directly
        or through same-file classes (``api.framework_module_bases``), or None."""
        for base in cls.bases if depth < _MAX_BASES else ():
            facts = api.framework_module_bases().get(self.names.qualname(base))
            inherited = self.class_named(base)
            if facts is None and inherited is not None and inherited is not cls:
                facts = self.module_facts(inherited, depth + 1)
            if facts is not None:
                return facts
        return None

    def traced_methods(self, cls, facts):
        """[(method, its parameters that hold tracers)] for the methods of ``cls`` that its
        framework (``facts``) runs traced. Not linen's ``setup``, though measured traced: it
        takes no arguments, and what it computes is config (its prints show structure during
        an eager ``init``). Not ``self``'s fields: an object a step closes over holds constants
        (``tracing._module_fields`` reads them where a transform is given the object)."""
        if facts is None:
            return []
        roles = set(facts["traced_methods"]) - {"setup"}
        found = []
        for method in cls.body:
            if type(method) is ast.FunctionDef and (method.name in roles or "compact" in roles and any(
                    self.names.qualname(d) in facts["decorators"] for d in method.decorator_list)):
                params = {arg.arg for arg in positional(method) + method.args.kwonlyargs
                          if arg.arg in traced_parameters(method) and not python_annotation(arg.annotation)}
                found.append((method, self._used_as_arrays(method, params)))
        return found

    def _used_as_arrays(self, method, params):
        """The ``params`` that ``method`` uses as arrays: an attribute or method (``x.sum()``),
        a ``@`` operand, an argument of a JAX function or of a submodule (``nn.Dense(4)(x)``,
        ``self.block(x)``). A parameter only converted (``np.arange(qlen)``) may be a Python
        int its caller computes from shapes: the convention says nothing of it."""
        found = set()
        for node in self.names.own_nodes(method):
            kind = type(node)
            if kind is ast.Attribute and type(node.value) is ast.Name:
                found.add(node.value.id)
            elif kind is ast.BinOp and type(node.op) is ast.MatMult:
                found.update(side.id for side in (node.left, node.right) if type(side) is ast.Name)
            elif kind is ast.Call and type(node.func) is not ast.Name and (
                    type(node.func) is ast.Call or (self.names.qualname(node.func) or "").startswith("jax.")
                    or type(node.func) is ast.Attribute and type(node.func.value) is ast.Name
                    and node.func.value.id == "self"):
                found.update(arg.id for arg in node.args if type(arg) is ast.Name)
        return params & found


def python_annotation(annotation):
    """``train: bool``, ``n: int``, ``Optional[bool]``: a Python config value, static by convention."""
    if type(annotation) is ast.Subscript:
        annotation = annotation.slice
    if type(annotation) is ast.BinOp:  # bool | None
        return python_annotation(annotation.left)
    return type(annotation) is ast.Name and annotation.id in PYTHON_ANNOTATIONS
