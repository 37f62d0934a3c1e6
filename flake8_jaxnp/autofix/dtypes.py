"""Fixes for dtypes: a 64-bit request with x64 off asks for the 32-bit dtype JAX gives (JNP402)."""
import libcst as cst

from .engine import Edit, described, fixer


@fixer("JNP402")
def narrow_request(finding, context):
    """``dtype=jnp.float64`` -> ``dtype=jnp.float32``, ``"float64"`` -> ``"float32"``,
    ``jnp.float64(x)`` -> ``jnp.float32(x)``: when exactly one argument (or the called
    constructor) names the 64-bit dtype there; a dtype held by a variable is left alone."""
    fields = dict(finding.fields)
    wide, narrow = fields.get("dtype"), fields.get("narrow")
    for call in (call for call in context.nodes_at(finding, cst.Call) if described(call) == fields.get("what")):
        named = [node for node in (call.func, *(arg.value for arg in call.args)) if _names(node, wide)]
        if len(named) == 1:
            return Edit(named[0], lambda node: _narrowed(node, narrow))
        return None
    return None


def _narrowed(node, narrow):
    if isinstance(node, cst.Attribute):
        return node.with_changes(attr=cst.Name(narrow))
    return node.with_changes(value=node.quote + narrow + node.quote)


def _names(node, dtype):
    return isinstance(node, cst.Attribute) and node.attr.value == dtype or \
        isinstance(node, cst.SimpleString) and node.evaluated_value == dtype and not node.prefix
