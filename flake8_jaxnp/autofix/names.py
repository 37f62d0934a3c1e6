"""Fixes that write another name: a removed JAX name's replacement (JNP504)."""
import libcst as cst

from .. import api
from .engine import Edit, fixer


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
