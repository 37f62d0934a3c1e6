"""JNP104's data: NumPy data that a loop hands to the device unchanged on every iteration, through
``jnp.asarray``/``jax.device_put`` or as an argument of a jitted function (the loop's facts come
from ``transfers._Loops``)."""
import ast

from ..model.kinds import NUMPY
from ..model.names import BindingKind
from . import describe, is_jitted

UPLOADS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "jax.device_put"})


def jitted_upload(model, call):
    """(its first NumPy argument, JNP104, what) for NumPy data passed to a jitted function: each call
    copies it to the device again (the loop's check then looks for an argument it repeats)."""
    if not call.args or any(type(a) is ast.Starred for a in call.args) or not is_jitted(model, call.func):
        return None
    data = next(numpy_arguments(model, call), None)
    return None if data is None else (data, "JNP104", jitted_upload_what(data, call))


def numpy_arguments(model, call):
    """The arguments of a jitted call that are NumPy data, or a literal container holding some (a dict of
    NumPy batches: each leaf is uploaded)."""
    return (a for a in call.args
            if type(_held_by(a)) in (ast.Name, ast.Attribute) and _holds_numpy(model.array_value(a)))


def _holds_numpy(value):
    return value.kind is NUMPY or value.container in ("dict", "list", "tuple") and any(
        _holds_numpy(part) for key, part in value.members or () if key[0] in ("key", "item"))


def _held_by(data):
    """The name or attribute that holds ``data``: itself, or the container of an item read with a
    constant key (``view["rays_o"]``, the same item of the same container)."""
    return data.value if type(data) is ast.Subscript and type(data.slice) is ast.Constant else data


def jitted_upload_what(data, call):
    return f"passing {describe(data)} to the jitted {describe(call.func)}()"


def numpy_data(model, expr):
    """NumPy data: a value the model knows to be a NumPy array (another project module's NumPy
    constant too: ``MASK`` of ``from .config import MASK``, ``config.MASK``; ``self.table`` or
    ``windows.x`` that every store puts NumPy data in)."""
    return model.array_value(expr).kind is NUMPY


def _numpy_attribute(model, data):
    """``self.table`` set to NumPy data once, by its class's ``__init__``, and elsewhere only read
    (``_read_only_use``): the same NumPy data on every call."""
    found = model.set_once_in_init(data) if type(data) is ast.Attribute else None
    return found is not None and model.array_value(found[0].value).kind is NUMPY \
        and all(_read_only_use(model, node) for node in found[1])


def same_upload(model, loops, call, loop):
    """True when every iteration uploads the same data to the same place: the data is a
    name the loop neither rebinds nor touches otherwise, and the other arguments (a
    device, a dtype) are names and constants the loop does not rebind."""
    rebound, _ = loops.names(loop)
    for other in call.args[1:] + [k.value for k in call.keywords]:
        for node in ast.walk(other):
            if not isinstance(node, (ast.Name, ast.Attribute, ast.Constant, ast.expr_context)) \
                    or (isinstance(node, ast.Name) and node.id in rebound):
                return False  # e.g. device_put(x, d) for d in devices: a new place each time
    return same_data(model, loops, call.args[0], loop)


def same_data(model, loops, data, loop):
    """True when ``data`` is a name the loop neither rebinds nor touches otherwise, bound in
    the loop's scope or a module constant, an attribute set once (``_numpy_attribute``; of another
    module's class, ``_held_in_init``), or another module's NumPy constant (``MASK``, ``config.MASK``)
    that the loop only reads; an item with a constant key of such a container (``view["rays_o"]``)."""
    if _numpy_attribute(model, data):
        return True
    data = _held_by(data)
    attribute = type(data) is ast.Attribute
    name = data.value if attribute else data
    if type(name) is not ast.Name:
        return False
    rebound, loads = loops.names(loop)
    uses = [model.parent(node) if attribute else node for node in loads.get(name.id, ())]
    if name.id in rebound or any(use is not data and not _read_only_use(model, use)
                                 for use in uses if not attribute or _same_attribute(use, data)):
        return False
    if attribute and _held_in_init(model, data):
        return _same_scope(model, name, loop)
    return not attribute and _same_scope(model, data, loop) or _imported_constant(model, data)


def _held_in_init(model, data):
    """``data.x`` of an object of another module's class that only its ``__init__`` stores NumPy data in
    (``model.held``: such are the attributes an object's summary holds): the same data on every read."""
    found = model.value(data.value).member(("attr", data.attr))
    return found is not None and found.kind is NUMPY and model.value(data.value).container is None


def _same_attribute(node, data):
    """Whether ``node`` reads the same attribute of the same name as ``data`` (``config.MASK``)."""
    return type(node) is ast.Attribute and node.attr == data.attr


def _imported_constant(model, data):
    """Another module's NumPy constant, through an import bound once here and never rebound."""
    name = data.value if type(data) is ast.Attribute else data
    return model.one_binding(name, BindingKind.IMPORT, module_level=True) is not None \
        and not model.rebound_by_functions(name.id) \
        and model.imported_numpy(data)


def _read_only_use(model, name):
    """Another upload of the same data (a jitted call's argument too), arithmetic, indexing or
    an attribute read: none changes it (a call it is passed to, or a method called on it, might)."""
    parent = model.parent(name)
    if isinstance(parent, ast.Call) and name in parent.args:
        return model.qualname(parent.func) in UPLOADS or is_jitted(model, parent.func)
    if isinstance(parent, (ast.Subscript, ast.Attribute)):
        grandparent = model.parent(parent)
        is_method = isinstance(grandparent, ast.Call) and grandparent.func is parent
        return parent.value is name and isinstance(parent.ctx, ast.Load) and not is_method
    return isinstance(parent, (ast.BinOp, ast.Compare, ast.UnaryOp))


def _same_scope(model, data, loop):
    """Data bound in the scope the loop runs in and never rebound through ``global``, or a
    module constant; other data from an outer scope may be changed by what the loop calls."""
    found = model.resolve(data)
    if found is None or model.rebound_by_functions(data.id):
        return False
    home = model.enclosing_function(loop)
    return found[0].node is (home if home is not None else model.tree) or _module_constant(model, found)


def _module_constant(model, found):
    """A module-level name bound once, at the top level, and only ever read (indexed,
    sliced, uploaded, used in arithmetic) anywhere in the module."""
    scope, bindings = found
    if not model.is_module_scope(scope) or len(bindings) != 1 or bindings[0].kind is not BindingKind.ASSIGN \
            or model.parent(bindings[0].stmt) is not model.tree:
        return False
    return all(model.resolve(node) != found or _read_only_use(model, node) for node in model.reads(bindings[0].node.id))
