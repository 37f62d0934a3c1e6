"""Fixes that write another name: a removed JAX name's replacement (JNP504), the jax.numpy
function for a NumPy one on a tracer (JNP201)."""
import libcst as cst

from .. import api
from .engine import Edit, fixer, module_name_for


@fixer("JNP504")
def removed_name(finding, context):
    """``jax.tree_map`` -> ``jax.tree.map``, ``jnp.product`` -> ``jnp.prod``: where the data
    knows a one-to-one replacement in the same module or below it. An import of the
    removed name is left alone (its uses would need renaming too)."""
    name = dict(finding.fields).get("name", "")
    replacement = api.removed_name_replacements().get(name)
    module, _, attr = name.rpartition(".")
    if replacement is None or not replacement.startswith(module + "."):
        return None
    nodes = [node for node in context.nodes_at(finding, cst.Attribute) if node.attr.value == attr]
    if not nodes:
        return None
    path = replacement[len(module) + 1:].split(".")

    def rewrite(node):
        value = node.value
        for part in path[:-1]:
            value = cst.Attribute(value=value, attr=cst.Name(part))
        return node.with_changes(value=value, attr=cst.Name(path[-1]))
    return Edit(nodes[-1], rewrite)


@fixer("JNP201")
def numpy_function(finding, context):
    """``np.tanh(x)`` -> ``jnp.tanh(x)`` where the finding names the jax.numpy function of the
    same name, unless JAX takes that call differently: a size that depends on the data
    (``np.unique``), an in-place function, or an argument jax.numpy refuses."""
    fields = dict(finding.fields)
    suggested = fields.get("fix", "")
    if not suggested.startswith("jnp."):
        return None
    qualname = "jax.numpy." + suggested[len("jnp."):]
    rejected = api.jnp_rejected_arguments().get(qualname, {})
    if qualname in api.data()["jnp_size_functions"] or qualname in api.jnp_inplace_functions():
        return None
    for call in context.nodes_at(finding, cst.Call):
        if any(arg.keyword is not None and arg.keyword.value in rejected for arg in call.args):
            return None
        named = module_name_for(context, "jax.numpy", "jnp")
        if named is None:
            return None
        expression, imports = named
        function = cst.parse_expression(f"{expression}.{suggested[len('jnp.'):]}")
        return Edit(call.func, lambda node: function, imports)
    return None
