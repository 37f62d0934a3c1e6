"""Fixes for host transfers in loops: upload loop-invariant host data once, before the loop (JNP104)."""
import libcst as cst

from .engine import Edit, binds, described, fixer, module_name_for, own_nodes

SUFFIX = "_on_device"  # features -> features_on_device: the name the upload gets


@fixer("JNP104")
def upload_before_the_loop(finding, context):
    """``jnp.asarray(features)`` in a loop that does not change ``features`` ->
    ``features_on_device = jnp.asarray(features)`` just before the loop (the name in lower case),
    and the new name in its place; NumPy data ``features`` passed to a jitted function gets
    ``jax.device_put(features)``, the upload jit makes. Only the upload of one name, in the body
    (or a ``while`` test) of a ``for`` or ``while`` statement, and only when the new name is free."""
    what = dict(finding.fields).get("what", "")
    if what.startswith("passing "):  # passing features to the jitted step()
        data = next((node for node in context.nodes_at(finding, cst.Name)), None)
        named = module_name_for(context, "jax", "jax")
        if data is None or named is None:
            return None
        upload, imports = cst.parse_expression(f"{named[0]}.device_put({data.value})"), named[1]
    else:
        upload = next((node for node in context.nodes_at(finding, cst.Call) if described(node) == what), None)
        if upload is None or len(upload.args) != 1 or upload.args[0].keyword or upload.args[0].star:
            return None
        data, imports = upload.args[0].value, ()
    loop = _loop_around(context, data)
    if not isinstance(data, cst.Name) or loop is None:
        return None
    if data.value.lower() + SUFFIX in context.names_in_use():
        return _hoisted_again(context, upload, loop, data.value.lower() + SUFFIX)
    name = cst.Name(data.value.lower() + SUFFIX)
    replaced = data if what.startswith("passing ") else upload

    def rewrite(updated_loop):
        if not updated_loop.deep_equals(loop):  # another fix changed the loop: the command's next round does this
            return updated_loop
        hoisted = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(name)], upload)])
        return cst.FlattenSentinel([hoisted, loop.visit(_Replace(replaced, name))])
    return Edit(loop, rewrite, imports)


def _hoisted_again(context, upload, loop, name):
    """The Edit that moves ``name = upload``, a line of ``loop``'s body (the fix hoisted it out of
    an inner loop, and this loop repeats it), above ``loop`` too; None when it is not such a line
    or something else in the loop binds ``name``."""
    assign, line = context.parents.get(upload), context.parents.get(context.parents.get(upload))
    if not (isinstance(assign, cst.Assign) and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1
            and [target.target for target in assign.targets if isinstance(target.target, cst.Name)
                 and target.target.value == name] == [target.target for target in assign.targets]
            and len(assign.targets) == 1 and any(line is statement for statement in loop.body.body)
            and sum(binds(node, name) for node in own_nodes(loop)) == 1):
        return None

    def rewrite(updated_loop):
        if not updated_loop.deep_equals(loop):
            return updated_loop
        return cst.FlattenSentinel([line, loop.visit(_Replace(line, cst.RemovalSentinel.REMOVE))])
    return Edit(loop, rewrite)


def _loop_around(context, node):
    """The ``for``/``while`` statement whose every iteration runs ``node``, or None (a
    comprehension, a function, a lambda or a class in between, or a statement run once: a
    ``for``'s iterable, an ``else`` clause)."""
    child, parent = node, context.parents.get(node)
    while parent is not None:
        if isinstance(parent, (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.FunctionDef,
                               cst.Lambda, cst.ClassDef, cst.Module)):
            return None
        if isinstance(parent, cst.For) and child is parent.body or \
                isinstance(parent, cst.While) and child in (parent.body, parent.test):
            return parent
        if isinstance(parent, (cst.For, cst.While)):
            return None
        child, parent = parent, context.parents.get(parent)
    return None


class _Replace(cst.CSTTransformer):
    """Puts ``replacement`` where ``node`` is (a node of the tree it visits: the transformer's
    nodes are new objects, so the visit is of the original loop)."""

    def __init__(self, node, replacement):
        super().__init__()
        self.node, self.replacement = node, replacement

    def on_leave(self, original_node, updated_node):
        return self.replacement if original_node is self.node else updated_node
