"""JNP605: a buffer donated to a jitted call and used again afterwards."""
import ast

from ..facts import DONATING, TREE_MAPS
from ..findings import Finding
from ..model.kinds import NUMPY, PYTHON
from ..model.names import BindingKind
from ..model.syntax import FUNCTION_NODES, bound_names, walk_own
from . import blocks, describe, donates, jitted_parameters, repeats, rule
from .donating_objects import factory_donations, object_donations

# What a deleted (donated) jax.Array still answers: its metadata outlives its buffer (measured on
# JAX 0.10.2, as is ``jax.tree.map(np.shape, deleted)``).
METADATA = frozenset({"shape", "dtype", "ndim", "size", "nbytes", "itemsize", "sharding"})
METADATA_FUNCTIONS = frozenset({"numpy.shape", "numpy.ndim", "numpy.size", "jax.numpy.shape", "jax.numpy.ndim",
                                "jax.numpy.size"})
# Functions that, mapped over a pytree, give host NumPy data.
TO_HOST = frozenset({"numpy.asarray", "numpy.array"})
# Annotations that say a parameter holds host NumPy data (``x: np.ndarray``, ``npt.NDArray[np.float32]``).
HOST_ANNOTATIONS = frozenset({"numpy.ndarray", "numpy.typing.NDArray"})
# Container displays whose items an argument holding one passes on.
HOLDING_DISPLAYS = (ast.Dict, ast.List, ast.Tuple)


@rule("JNP605")
def donated_buffer_reuse(model):
    if not donates(model):
        return
    for scope in [model.tree, *model.nodes(*FUNCTION_NODES)]:
        if isinstance(scope, ast.Lambda) or scope in model.traced:
            continue  # inside traced code donation does not apply to the tracers
        for stmts, loop in blocks(scope.body, repeats):
            yield from _block(model, stmts, loop if loop is not None and stmts is loop.body else None)


def _block(model, stmts, loop):
    """Donations in ``stmts`` (the body of ``loop`` when set) and the reads that follow them."""
    for index, stmt in enumerate(stmts):
        for call, name in _donations(model, stmt):
            again = _passed_again(model, call, name, stmts[:index])
            if again is not None:
                where, donated, other = again
                yield Finding.at(where, "JNP605", {"name": donated, "func": describe(call.func), "line": call.lineno,
                                                   "when": f"passed to the same call again as '{other}'"})
                continue
            rebound = bound_names(stmt)  # x = step(x): rebound to the result
            before = [*_run_before(model, stmts), *stmts[:index]]
            uses = [(use, holder) for holder in _aliases(before, name.id) - rebound
                    if (use := _first_read(model, stmts[index + 1:], holder)) is not None]
            if uses:  # the name itself, or an alias bound before the call (old = params)
                use, holder = min(uses, key=lambda found: (found[0].lineno, found[0].col_offset))
                yield Finding.at(use, "JNP605", {"name": name.id, "func": describe(call.func), "line": call.lineno,
                                                 "when": "read again" if holder == name.id
                                                 else f"read again through '{holder}', bound to it before the call"})
            elif name.id in rebound:
                continue
            elif loop is not None and name.id not in set().union(*(bound_names(s) for s in loop.body)) \
                    and name.id not in _loop_targets(loop):
                yield Finding.at(name, "JNP605", {"name": name.id, "func": describe(call.func),
                                                  "line": call.lineno, "when": "passed again on the next iteration"})


def _donations(model, stmt):
    """(call, Name) for each plain name passed at a donated position by a call in ``stmt``'s own
    expressions (Assign, Expr and Return statements only)."""
    if not isinstance(stmt, (ast.Assign, ast.Expr, ast.Return)) or not isinstance(stmt.value, ast.Call):
        return
    call = stmt.value
    donated = jitted_parameters(model, call.func, *DONATING) or object_donations(model, call.func) \
        or factory_donations(model, call.func)
    if donated is None:
        return
    positions, names = donated
    passed = [a for i, a in enumerate(call.args) if i in positions and not any(
        isinstance(b, ast.Starred) for b in call.args[:i + 1])]
    passed += [k.value for k in call.keywords if k.arg in names]
    for arg in passed:
        if isinstance(arg, ast.Name) and not _host_data(model, arg):
            yield call, arg


def _run_before(model, stmts):
    """The statements of the enclosing blocks, up to the enclosing def, that run before the block
    ``stmts`` is entered, outermost first: an alias bound there (``ema = params`` before the loop
    that donates ``params``) still holds the buffer when the block first runs."""
    found, node = [], model.parent(stmts[0])
    while not isinstance(node, (*FUNCTION_NODES, ast.Module, ast.ClassDef)):
        parent = model.parent(node)
        block = next((b for b in (getattr(parent, f, None) for f in ("body", "orelse", "finalbody"))
                      if isinstance(b, list) and node in b), None)
        if block is None:
            return found  # (an except or case arm: what ran before it is not known)
        found[:0] = block[:block.index(node)]
        node = parent
    return found


def _aliases(stmts, name):
    """``name`` and the names ``stmts`` bind to it (``batch = x``) and do not rebind after, as long
    as ``name`` itself is not rebound after them: the names that hold its buffer at their end."""
    holding = {name}
    for stmt in stmts:
        stored = bound_names(stmt)
        if name in stored:
            holding = {name}
        holding -= stored - {name}
        if type(stmt) is ast.Assign and type(stmt.value) is ast.Name and stmt.value.id in holding:
            holding |= {target.id for target in stmt.targets if type(target) is ast.Name}
    return holding


def _passed_again(model, call, donated, before):
    """(the argument, the donated name, the other name) where another place of the donating call's
    arguments holds a donated buffer: ``f(x, x)``, ``update(x, batch)`` after ``batch = x``, or
    ``step(state)`` after ``state = {"a": x, "b": x}``: JAX refuses to donate one buffer twice."""
    arguments = [(arg, _held(model, arg, before)) for arg in (*call.args, *(k.value for k in call.keywords))]
    for leaf in dict(arguments)[donated]:
        holding = _aliases(before, leaf.id)
        for arg, leaves in arguments:
            other = next((n for n in leaves if n is not leaf and n.id in holding), None)
            if other is not None:
                return arg, leaf.id, other.id
    return None


def _held(model, arg, before):
    """The names whose device buffers an argument passes: itself, or the items of the container
    display ``before`` last binds it to (``state = {"w": w, "v": v}``, nested displays followed),
    less host data, which JAX copies one leaf at a time."""
    if type(arg) is not ast.Name:
        return []
    binding = next((stmt for stmt in reversed(before) if arg.id in bound_names(stmt)), None)
    if type(binding) is not ast.Assign or len(binding.targets) != 1 or type(binding.value) not in HOLDING_DISPLAYS:
        return [arg]
    return [node for node in ast.walk(binding.value) if type(node) is ast.Name and _item(model, node)
            and not _host_data(model, node)]


def _item(model, node):
    """Whether a name is an item of the display it sits in (a dict's value, not its key)."""
    parent = model.parent(node)
    return type(parent) in (ast.List, ast.Tuple) or type(parent) is ast.Dict and node in parent.values


def _loop_targets(loop):
    """The names a for loop binds afresh on each iteration."""
    target = getattr(loop, "target", None)
    return {node.id for node in ast.walk(target) if isinstance(node, ast.Name)} if target is not None else set()


def _host_data(model, name):
    """NumPy and Python values, what ``jax.device_get`` or ``jax.tree.map(np.asarray, ...)`` gave
    (NumPy data, or a pytree of it), a parameter annotated as a NumPy array, what an undecorated
    same-file def that returns such data gave, and the batches of a NumPy input pipeline (``for
    batch in tfds.as_numpy(ds)``, ``ds.as_numpy_iterator()``): JAX copies them to the device and
    donates the copy, so they stay usable (measured on JAX 0.10.2: a NumPy array, a list and a
    float read after a donating call keep their values)."""
    value = model.value(name)
    if value.kind in (NUMPY, PYTHON) and not _holds_arrays(value):
        return True
    found = model.resolve(name)
    return found is not None and bool(found[1]) and all(_host_binding(model, binding) for binding in found[1])


def _holds_arrays(value):
    """A Python container whose known items hold JAX arrays (``{"x": jnp.ones(3)}``): not host data."""
    return any(part.on_device or part.traced or _holds_arrays(part) for _, part in value.members or ())


def _host_binding(model, binding):
    if binding.kind is BindingKind.PARAM:
        annotation = binding.node.annotation
        if type(annotation) is ast.Subscript:
            annotation = annotation.value  # npt.NDArray[np.float32]
        return annotation is not None and model.qualname(annotation) in HOST_ANNOTATIONS
    if binding.kind is BindingKind.ASSIGN and type(binding.value) is ast.Call:
        call = binding.value
        helper = model.callee(call.func)
        if helper is not None:  # a same-file def whose every return gives host data (np.load(path))
            returned = model.returned_values(helper)  # (a decorator, jax.jit say, may return anything)
            return bool(returned) and not getattr(helper, "decorator_list", ()) and all(
                value is not None and model.value(value).kind in (NUMPY, PYTHON) for value in returned)
        qualname = model.qualname(call.func)
        return qualname == "jax.device_get" or (qualname in TREE_MAPS and bool(call.args)
                                                and model.qualname(call.args[0]) in TO_HOST)
    loop = binding.stmt
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    batches, target = loop.iter, loop.target
    if type(batches) is ast.Call and model.qualname(batches.func) == "builtins.enumerate" and len(batches.args) == 1 \
            and type(target) is ast.Tuple and len(target.elts) == 2:
        batches, target = batches.args[0], target.elts[1]  # for step, batch in enumerate(pipeline)
    return target is binding.node and type(batches) is ast.Call and (
        model.qualname(batches.func) == "tensorflow_datasets.as_numpy"
        or type(batches.func) is ast.Attribute and batches.func.attr == "as_numpy_iterator" and not batches.args)


def _first_read(model, stmts, name):
    """The first read of ``name``'s buffers in ``stmts`` before anything rebinds it, or None."""
    for stmt in stmts:
        if isinstance(stmt, ast.Assign):
            ordered = [stmt.value, *stmt.targets]  # the value is evaluated before the targets bind
        else:
            ordered = [stmt]
        for part in ordered:
            for node in sorted((n for n in walk_own([part]) if isinstance(n, ast.Name) and n.id == name),
                               key=lambda n: (n.lineno, n.col_offset)):
                if not isinstance(node.ctx, ast.Load):
                    return None
                if not _metadata_only(model, node):
                    return node
    return None


def _metadata_only(model, name):
    """``x.shape``, ``state["w"].dtype``, ``state.keys()``, ``"k" in state``, ``len(x)``: reads that a
    deleted array, or a dict of them, still answers without its buffers."""
    node, parent = name, model.parent(name)
    while type(parent) is ast.Subscript and parent.value is node and type(parent.slice) is ast.Constant \
            and isinstance(parent.slice.value, str):  # a dict entry, not an array element
        node, parent = parent, model.parent(parent)
    if type(parent) is ast.Attribute:
        return parent.attr in METADATA or (parent.attr == "keys" and type(model.parent(parent)) is ast.Call)
    if type(parent) is ast.Call and node in parent.args[1:] and model.qualname(parent.func) in TREE_MAPS:
        return _reads_metadata(model, parent.args[0])  # jax.tree.map(lambda a: a.shape, batch)
    if type(parent) is ast.Compare:
        return node in parent.comparators and all(type(op) in (ast.In, ast.NotIn) for op in parent.ops) \
            and type(parent.left) is ast.Constant and isinstance(parent.left.value, str)
    return type(parent) is ast.Call and parent.args == [node] and model.qualname(parent.func) == "builtins.len"


def _reads_metadata(model, func):
    """``np.shape``, or a lambda that returns its argument's shape (``lambda a: a.shape``)."""
    if type(func) is ast.Lambda:
        params = func.args.args
        body = func.body
        return len(params) == 1 and type(body) is ast.Attribute and body.attr in METADATA \
            and type(body.value) is ast.Name and body.value.id == params[0].arg
    return model.qualname(func) in METADATA_FUNCTIONS
