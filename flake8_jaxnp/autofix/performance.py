"""Fixes for performance: jit once before the loop (JNP602); wait for the timed result before the
clock stops (JNP603)."""
import libcst as cst

from .engine import binds, described, fixer, hoisted, loop_around, moved_above, own_nodes, previous_statement, wrapped

PARTIALS = ("partial", "functools.partial")


@fixer("JNP602")
def jit_before_the_loop(finding, context):
    """``x = jax.jit(lambda v: v * 0.5)(x)`` in a loop -> ``jitted = jax.jit(lambda v: v * 0.5)``
    just before the loop and ``x = jitted(x)`` (``jitted_scale`` for ``partial(scale, ...)``);
    ``update = jax.jit(...)``, the one binding of ``update`` in the loop, moves above it. Only
    a lambda or a ``partial`` that reads no name the loop binds (a changing value the jitted
    function would keep from its first trace) and calls nothing else as it is made."""
    fields = dict(finding.fields)
    if fields.get("fix") != "build the jitted function once, before the loop":
        return None  # a decorated def in the loop, a changing static argument, a growing shape
    transform = fields.get("what", "").partition("() of ")[0]
    jit = next((node for node in context.nodes_at(finding, cst.Call) if described(node.func) == transform), None)
    loop = None if jit is None or not jit.args else loop_around(context, jit)
    if loop is None:
        return None
    function = jit.args[0].value
    if isinstance(function, cst.Lambda):
        name, made = "jitted", [jit]
    elif isinstance(function, cst.Call) and described(function.func) in PARTIALS and function.args \
            and isinstance(function.args[0].value, cst.Name):
        name, made = f"jitted_{function.args[0].value.value}", [jit, function]
    else:
        return None
    reads = {node.value for node in _evaluated(jit, lambdas=True) if isinstance(node, cst.Name)}
    if [node for node in _evaluated(jit) if isinstance(node, cst.Call)] != made or any(
            binds(node, read) or isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node.name.value == read
            for node in (loop, *own_nodes(loop)) for read in reads):
        return None
    edit = moved_above(context, jit, loop)
    return edit or (None if name in context.names_in_use() else hoisted(loop, name, jit, jit))


def _evaluated(node, lambdas=False):
    """``node`` and the nodes in it, but for the bodies of its lambdas (they run later) unless ``lambdas``."""
    yield node
    for child in node.children:
        if lambdas or not (isinstance(node, cst.Lambda) and child is node.body):
            yield from _evaluated(child, lambdas)


@fixer("JNP603")
def wait_before_the_clock(finding, context):
    """``y = f(x)`` just before ``elapsed = time.perf_counter() - start`` ->
    ``y = jax.block_until_ready(f(x))``: the last dispatch the finding names, when it is the
    statement right before the clock read."""
    fields = dict(finding.fields)
    for clock in context.calls_at(finding, fields.get("clock")):
        last = previous_statement(context, clock)
        if isinstance(last, (cst.Assign, cst.Expr)) and described(last.value) == fields.get("work"):
            return wrapped(context, last.value, "jax", "jax", "block_until_ready")
    return None
