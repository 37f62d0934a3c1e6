"""What an object of each top-level class of a module holds, by the module's own forward pass: the
Value of each attribute that ``__init__`` alone stores (``Tracing.stored_value``: NumPy data where every
store puts NumPy data, device data likewise) and of what each plain method returns (``self.x[index]`` of
such an attribute, a dict of them, another method's result). The project summaries keep them (the part
``project.returned_objects.HELD``, by the module's bytes), and a module that builds an object of the
class (``Dataset(cfg)``, or through a function that returns one) reads ``data.x`` and ``data.view(0)``
from them as it reads an object of a class of its own (``kinds.data_value``)."""
import ast

from .callees import Callees
from .kinds import value_data
from .names import Names
from .reach import ArraySources
from .syntax import positional_names
from .traced import TraceRoots
from .tracing import Tracing


def held_summary(source, extra_transforms):
    """{"objects": {class name: ``value_data`` of its object: ("attr", name) and ("call", method) parts}}
    for the module's top-level classes whose objects hold something known."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {"objects": {}}
    classes = _plain_classes(tree)
    if not classes:
        return {"objects": {}}
    names = Names(tree)
    roots = TraceRoots(names, extra_transforms, None)
    tracing = Tracing(names, roots, Callees(names, roots, None), False,
                      lambda found: ArraySources(names, found).bodies(), up_front=False)
    objects = {}
    for cls in classes:
        members = _attributes(tracing, roots, cls) + _methods(tracing, cls)
        if members:
            objects[cls.name] = ["unknown", None, False, None, members]
    return {"objects": objects}


def _plain_classes(tree):
    """The top-level classes, each defined once, without a decorator or a base but ``object``: a
    dataclass, a NamedTuple or a framework's Module holds what its constructor is given (``constructors``,
    ``conventions``), and a base may store what this pass cannot see."""
    classes = [stmt for stmt in tree.body if type(stmt) is ast.ClassDef]
    names = [cls.name for cls in classes]
    return [cls for cls in classes if names.count(cls.name) == 1 and not cls.decorator_list and not cls.keywords
            and all(type(base) is ast.Name and base.id == "object" for base in cls.bases)]


def _attributes(tracing, roots, cls):
    """[[["attr", name], data]] for the attributes that only ``__init__`` stores, where every such
    store puts known data: what the object holds on every read after it is built."""
    found = []
    for attr, stores in sorted(roots.instances.self_assignments(cls).items()):
        if any(getattr(tracing.names.enclosing_function(statement), "name", None) != "__init__"
               for statement, _ in stores):
            continue
        target = next((t for t in stores[0][1] if type(t) is ast.Attribute and t.attr == attr), None)
        data = value_data(tracing.stored_value(target)) if target is not None else None
        if data is not None:
            found.append([["attr", attr], data])
    return found


def _methods(tracing, cls):
    """[[["call", name], data]] for the undecorated methods, each defined once and not special, whose
    every ``return`` gives known data."""
    defs = [stmt.name for stmt in cls.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))]
    found = []
    for method in cls.body:
        if type(method) is not ast.FunctionDef or method.decorator_list or defs.count(method.name) != 1 \
                or method.name.startswith("__") or positional_names(method)[:1] != ["self"] \
                or method in tracing.traced:  # (a traced method's pass here is no traced pass: left out)
            continue
        value = tracing.returned_value(method, tracing.flow_of(method))
        data = value_data(value) if value is not None else None
        if data is not None:
            found.append([["call", method.name], data])
    return found
