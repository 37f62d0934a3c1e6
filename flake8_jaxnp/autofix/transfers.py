"""Fixes for host transfers in loops: upload loop-invariant host data once, before the loop (JNP104)."""
import libcst as cst

from .engine import described, fixer, hoisted, loop_around, module_name_for, moved_above

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
    loop = loop_around(context, data)
    if not isinstance(data, cst.Name) or loop is None:
        return None
    name = data.value.lower() + SUFFIX
    if name in context.names_in_use():  # hoisted out of an inner loop already: this loop repeats it too
        return moved_above(context, upload, loop, name)
    return hoisted(loop, name, upload, data if what.startswith("passing ") else upload, imports)
