"""Fixes for timing: wait for the timed result before the clock stops (JNP603)."""
import libcst as cst

from .engine import described, fixer, previous_statement, wrapped


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
