"""Fixes for NumPy on tracers: the jax.numpy function of the same name (JNP201)."""
import libcst as cst

from .. import api
from .engine import Edit, fixer, module_name_for


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
    if qualname in api.size_functions() or qualname in api.jnp_inplace_functions():
        return None
    for call in context.calls_at(finding, fields.get("func")):
        if any(arg.keyword is not None and arg.keyword.value in rejected for arg in call.args):
            return None
        named = module_name_for(context, "jax.numpy", "jnp")
        if named is None:
            return None
        expression, imports = named
        function = cst.parse_expression(f"{expression}.{suggested[len('jnp.'):]}")
        return Edit(call.func, lambda node: function, imports)
    return None
