"""The rule catalogue: every JNP code is declared here once.

Messages, the README rule table and the completeness tests all read from this
module, so a rule exists exactly when it has an entry in ``RULES``.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    message: str  # str.format template; fields are filled by the check
    why: str
    fix: str
    on_by_default: bool = True  # False: reported only when selected explicitly

    def format(self, **fields):
        return f"{self.code} {self.message.format(**fields)}"


_RULES = [
    # JNP1xx: host transfers in untraced loops
    Rule(
        "JNP101", "device-to-numpy-in-loop",
        "{what} copies a JAX array to host memory on every iteration of this "
        "loop; keep it on the device and convert once after the loop",
        "Each conversion is a device-to-host copy that blocks until the device "
        "has finished, so the accelerator stalls on every iteration.",
        "Accumulate with jax.numpy inside the loop and call np.asarray once at "
        "the boundary.",
    ),
    Rule(
        "JNP102", "device-to-scalar-in-loop",
        "{what} turns a JAX array into a Python value on every iteration of this "
        "loop, forcing a device-to-host sync; keep it on the device or convert "
        "every N steps",
        "float()/int()/bool()/.item() and Python truth tests wait for the "
        "device and copy the value to the host.",
        "Keep the value as a JAX array; convert inside an `if step % N == 0:` "
        "block or after the loop.",
    ),
    Rule(
        "JNP103", "device-print-in-loop",
        "{what} formats a JAX array on every iteration of this loop, forcing a "
        "device-to-host sync; log every N steps or after the loop",
        "Printing, str(), repr(), f-strings and logging read the array's value, "
        "which waits for the device and copies the data to the host.",
        "Log under `if step % N == 0:` or after the loop.",
    ),
    Rule(
        "JNP104", "loop-invariant-upload",
        "{what} uploads the same NumPy data to the device on every iteration of "
        "this loop; hoist it above the loop",
        "jnp.array/jnp.asarray/jax.device_put of host data copies it to the "
        "device each time; data the loop does not change needs one copy.",
        "Convert once before the loop and reuse the device array.",
    ),
    # JNP2xx: what fails on traced values
    Rule(
        "JNP201", "numpy-on-tracer",
        "{func}() on a traced value in '{scope}' raises {error} under {transform}; "
        "use {fix}",
        "NumPy functions convert their arguments to NumPy arrays, which needs "
        "concrete data; a tracer has none.",
        "Use the jax.numpy function of the same name.",
    ),
    Rule(
        "JNP202", "tracer-to-python",
        "{what} needs a concrete value, but '{scope}' is traced by {transform}; "
        "{fix}",
        "Inside a transformed function, parameters are abstract tracers: Python "
        "control flow, float()/int()/.item() and shapes need concrete values.",
        "Use jnp.where/lax.cond/lax.select for data-dependent choices, or mark "
        "the argument static (static_argnums/static_argnames).",
    ),
    Rule(
        "JNP203", "data-dependent-shape",
        "{what} has a data-dependent shape, which '{scope}' cannot have under "
        "{transform}; {fix}",
        "Traced code needs every shape at trace time; boolean masks and "
        "nonzero/unique/one-argument where produce shapes that depend on data.",
        "Pass size= (and fill_value=), or use jnp.where(mask, x, 0) to keep "
        "the shape.",
    ),
    Rule(
        "JNP205", "traced-self-method",
        "{transform} on method '{cls}.{method}' traces 'self', but {cls} is not a registered "
        "pytree, so every call raises TypeError; jit a function of the arrays, or register the class",
        "A jitted method receives self as its first argument, and JAX can only trace arrays and "
        "registered pytrees; an ordinary object is neither.",
        "Move the computation into a function that takes the arrays, register the class with "
        "jax.tree_util.register_pytree_node_class, or (for an immutable object) mark self static.",
    ),
    # JNP3xx: Python side effects under tracing
    Rule(
        "JNP301", "print-in-traced",
        "print() in '{scope}' runs only while {transform} traces it and shows "
        "tracers, not values; use jax.debug.print",
        "Traced Python runs once per compilation; later calls reuse the "
        "compiled code, so print() fires once and prints abstract tracers.",
        "jax.debug.print(\"x = {{}}\", x) prints the runtime values on every call.",
    ),
    Rule(
        "JNP302", "global-rebind-in-traced",
        "'{name}' is rebound through {statement} in '{scope}', which happens "
        "only while {transform} traces it; return the new value instead",
        "Assignments to global or nonlocal names run at trace time only, so "
        "the name changes once, not on every call.",
        "Return the value from the function and keep state explicit.",
    ),
    Rule(
        "JNP303", "outer-mutation-in-traced",
        "{what} mutates '{name}', which outlives '{scope}'; it happens only "
        "while {transform} traces it (and may store tracers); return the "
        "value instead",
        "Mutating a list, dict or object that outlives the call happens once "
        "at trace time and can leak tracers out of the transformation.",
        "Return the new values and let the caller update its state.",
    ),
    Rule(
        "JNP304", "stale-global-in-traced",
        "'{name}' is rebound elsewhere in this module, but '{scope}' is traced "
        "by {transform} and keeps the value it saw first; pass it as an argument",
        "Globals are read at trace time and frozen into the compiled function; "
        "rebinding them later does not retrace.",
        "Pass the value as an argument (static if it is a Python constant).",
    ),
    Rule(
        "JNP305", "stateful-random-in-traced",
        "{func}() in '{scope}' is evaluated once while {transform} traces it and "
        "then stays constant; {fix}",
        "Host random number generators and clocks run at trace time only; the "
        "compiled function replays the first value forever.",
        "Use jax.random with an explicit key passed in, or pass time values as "
        "arguments.",
    ),
    Rule(
        "JNP306", "stale-static-self",
        "'{name}.{attr}' changes after {cls}.{method}() was compiled with self static; JAX keeps "
        "the compiled code, so later calls use the old '{attr}'; pass it as an argument instead",
        "A static argument is a cache key and must never change: mutating the object does not "
        "retrace (the cache entry holds the same object), so the jitted method keeps the "
        "attribute values it was traced with, even when the class defines __hash__ and __eq__.",
        "Pass the changing value as a traced argument, or build a new object instead of "
        "mutating the old one.",
    ),
    # JNP4xx: dtype pitfalls
    Rule(
        "JNP401", "implicit-promotion",
        "{left} {op} {right} promotes implicitly to {result} in JAX{numpy}; "
        "cast one side explicitly with .astype()",
        "Mixing dtypes of different kinds or widths promotes silently, and "
        "JAX's promotion lattice differs from NumPy's.",
        "Make the conversion explicit with .astype(dtype).",
    ),
    Rule(
        "JNP402", "x64-dtype-without-x64",
        "{what} asks for {dtype}, but x64 is off, so JAX silently gives "
        "{narrow}; use {narrow} or enable jax_enable_x64",
        "Without jax_enable_x64, JAX truncates 64-bit dtypes to 32 bits with "
        "only a warning.",
        "Request the 32-bit dtype, or enable x64 at startup.",
    ),
    Rule(
        "JNP403", "numpy-float64-to-jax",
        "{what} hands NumPy {dtype} data to JAX, which narrows it to {narrow} "
        "while x64 is off; create it as {narrow} on the host",
        "NumPy defaults to float64/int64; JAX silently narrows them to 32 bits.",
        "Create host data with dtype=np.float32 or cast with .astype(np.float32).",
        # Off by default: on published code it fires mostly on test inputs whose
        # narrowing is harmless (see the README's real-world figures).
        on_by_default=False,
    ),
    # JNP5xx: NumPy APIs and idioms JAX does not implement
    Rule(
        "JNP501", "in-place-update",
        "{what} tries to update a JAX array in place, but {effect}; use {fix}",
        "JAX arrays are immutable: item assignment raises TypeError and "
        "in-place methods do not exist or return a new array.",
        "x = x.at[i].set(v) (or .add/.mul/...), and rebind sort results.",
    ),
    Rule(
        "JNP502", "missing-jax-api",
        "{name} does not exist in the installed JAX {version}; {fix}",
        "jax.numpy and jax.Array mirror most of NumPy but not all of it.",
        "Use the JAX equivalent, or do the step in NumPy outside traced code.",
    ),
    Rule(
        "JNP503", "numpy-only-argument",
        "{func}() does not accept {arg}= in JAX (it raises {error}); {fix}",
        "Some NumPy arguments (out=, kind=, ...) are rejected by jax.numpy "
        "because arrays are immutable or the option has no XLA equivalent.",
        "Drop the argument and use the returned value (or the suggested "
        "alternative).",
    ),
    Rule(
        "JNP504", "removed-jax-api",
        "{name} was removed or deprecated in JAX; use {replacement}",
        "Old aliases such as jax.tree_map were deprecated and then removed.",
        "Use the replacement named in the message.",
    ),
    Rule(
        "JNP505", "sequence-argument",
        "{func}() refuses a Python {kind} ({arg}) with a TypeError, where NumPy accepts it; "
        "wrap it in jnp.asarray() (or pass an array)",
        "jax.numpy functions take arrays, not lists or tuples: converting a sequence element by "
        "element would hide a slow host-side loop, so most of them raise TypeError instead.",
        "Convert once with jnp.asarray([...]) and pass the array.",
    ),
    # JNP6xx: randomness and performance
    Rule(
        "JNP601", "prng-key-reuse",
        "'{name}' {how}; the same key gives the same random bits, so the draws repeat: "
        "split it and use a fresh subkey",
        "JAX random functions are pure: a key consumed twice (by samplers, or by split) gives the "
        "same random bits twice, so the draws are identical or correlated.",
        "key, subkey = jax.random.split(key) before each use, and pass each subkey to one sampler.",
    ),
    Rule(
        "JNP602", "recompile-in-loop",
        "{what} on every iteration of the loop on line {loop}, so JAX traces and compiles again "
        "each time; {fix}",
        "jax.jit caches compiled code per function object and per static argument value; a "
        "lambda, partial or nested def made inside a loop is a new function each time, and a "
        "static argument that changes each iteration is a new cache key.",
        "Build the jitted function once, before the loop; pass changing values as traced "
        "(non-static) arguments.",
    ),
    Rule(
        "JNP603", "unsynchronised-timing",
        "{clock}() ends a timed region that started on line {start}, but JAX dispatches "
        "asynchronously and nothing waits for {work}; call .block_until_ready() on the result "
        "before reading the clock",
        "JAX returns from a call as soon as the work is queued, so a clock read right after it "
        "measures dispatch, not computation.",
        "Call jax.block_until_ready(result) (or result.block_until_ready()) before the second "
        "clock read.",
    ),
    Rule(
        "JNP604", "where-nan-gradient",
        "jnp.where() in '{scope}' is differentiated by {transform}, but {operation} also runs where "
        "the condition excludes '{name}', and its infinite slope there makes the gradient nan; "
        "guard the input first: {name} = jnp.where(cond, {name}, <safe value>)",
        "jnp.where picks values, not gradients: the discarded branch is still computed and "
        "differentiated, and a zero cotangent times an infinite derivative (log or sqrt at 0, "
        "division by 0, arcsin beyond 1) is nan.",
        "The double where: replace the input with a safe value where the condition is false "
        "before the unsafe operation, then select.",
    ),
    Rule(
        "JNP605", "donated-buffer-reuse",
        "'{name}' was donated to {func}() on line {line}, so its buffer is deleted, but it is "
        "{when}; use the call's result instead, or do not donate it",
        "An argument named in donate_argnums/donate_argnames hands its device buffer to the "
        "output; the backend deletes the input (CPU and GPU both do on the installed JAX), and "
        "any later use raises 'Array has been deleted'.",
        "Rebind the name to the result (x = step(x)), or drop the argument from donate_argnums.",
    ),
    # JNP9xx: the checker itself
    Rule(
        "JNP900", "checker-error",
        "flake8-jaxnp could not analyse this file ({error}); please report it",
        "The checker never aborts flake8; an internal error becomes a finding.",
        "Report the file to flake8-jaxnp; other checks still ran.",
    ),
]

RULES = {rule.code: rule for rule in _RULES}
OFF_BY_DEFAULT = [rule.code for rule in _RULES if not rule.on_by_default]


def markdown_table():
    """The README's rule table, generated from the catalogue."""
    rows = ["| code | name | what goes wrong | fix |", "| --- | --- | --- | --- |"]
    rows += [f"| {r.code} | {r.name}{'' if r.on_by_default else ' (off by default)'} | {r.why} | {r.fix} |"
             for r in _RULES]
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())
