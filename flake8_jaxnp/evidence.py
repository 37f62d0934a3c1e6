"""The kinds of runtime evidence the confirmation mode can observe.

Each rule in the catalogue names the kinds that confirm it (``Rule.evidence``);
the probes report kinds, never rule codes, so a new rule only has to declare
which of these confirm it. The probes report each sighting either as an event
(the pitfall happened) or as an observation (a weaker fact, such as a transfer
repeated fewer times than its loop ran): both confirm a finding, but only an
event on a line without a finding is a missed pitfall.
"""
# Device-to-host conversions and uploads, each repeated on every iteration of a loop.
TO_NUMPY = "to-numpy"  # np.asarray(x), np.sum(x) returning host data, jax.device_get, .tolist()
TO_SCALAR = "to-scalar"  # float(x), int(x), bool(x), .item()
FORMATTING = "formatting"  # str(x), repr(x), f-strings, "%f" % x
SAME_UPLOAD = "same-upload"  # the same host data uploaded with jnp.array/asarray/device_put
# Exceptions raised while a case runs (the innermost line of a watched file).
TRACER_TO_NUMPY = "tracer-to-numpy"  # TracerArrayConversionError
TRACER_TO_PYTHON = "tracer-to-python"  # TracerBool/IntegerConversionError, a Tracer TypeError
CONCRETIZATION = "concretization"  # ConcretizationTypeError: a concrete value or a concrete shape
BOOLEAN_INDEX = "boolean-index"  # NonConcreteBooleanIndexError
IMMUTABLE_ARRAY = "immutable-array"  # item assignment or an in-place method on a jax.Array
UNSUPPORTED_ARGUMENT = "unsupported-argument"  # a NumPy-only argument refused by jax.numpy
MISSING_JAX_ATTRIBUTE = "missing-jax-attribute"  # AttributeError on a JAX module or array, x.flat, x.device()
MISSING_JAX_IMPORT = "missing-jax-import"  # ImportError for a name JAX does not have
TRACED_SLICE = "traced-slice"  # IndexError: slice entries must be static integers
SEQUENCE_ARGUMENT = "sequence-argument"  # jax.numpy's TypeError for a list or tuple argument
DELETED_BUFFER = "deleted-buffer"  # "Array has been deleted": a donated buffer used again
UNTRACEABLE_SELF = "untraceable-self"  # TypeError for a jitted argument (a method's self: at its first decorator)
# Observations of the JNP3xx/JNP6xx probes.
STALE_STATIC_SELF = "stale-static-self"  # an attribute assigned on an object a jitted method ran on
KEY_REUSE = "key-reuse"  # a jax.random sampler or split consumed key data consumed before
RETRACE = "retrace"  # JAX traced more than once for one line, or jax.jit there wrapped new functions
UNFINISHED_AT_CLOCK = "unfinished-at-clock"  # a clock read while a local jax.Array was not ready
NAN_GRADIENT = "nan-gradient"  # jax.grad & co. gave nan where the function's value is finite
# Lines that ran fewer times under jit than under jax.disable_jit, with the effect in the line.
TRACE_ONLY_PRINT = "trace-only-print"
TRACE_ONLY_REBIND = "trace-only-rebind"
TRACE_ONLY_MUTATION = "trace-only-mutation"
TRACE_ONLY_HOST_RANDOM = "trace-only-host-random"
STALE_GLOBAL = "stale-global"  # a global or closure variable read by a trace-only line took several values eagerly
TRACE_ONLY_LINE = "trace-only-line"  # the line ran only while JAX traced, whatever it did
LEAKED_TRACER = "leaked-tracer"  # after the line, self or a closure's container held a tracer
# Dtypes.
STRICT_PROMOTION = "strict-promotion"  # TypePromotionError under jax_numpy_dtype_promotion="strict"
X64_TRUNCATION = "x64-truncation"  # JAX's "not available ... truncated" warning
WIDE_HOST_DATA = "wide-host-data"  # NumPy 64-bit data reaching JAX while x64 is off
JAX_DEPRECATION = "jax-deprecation"  # a DeprecationWarning/FutureWarning from JAX
DISCARDED_RESULT = "discarded-result"  # x.sort() or x.at[i].set(v) as a statement

# Kinds seen only by comparing a jitted run with a run under jax.disable_jit.
NEEDS_EAGER_RUN = frozenset({TRACE_ONLY_PRINT, TRACE_ONLY_REBIND, TRACE_ONLY_MUTATION, TRACE_ONLY_HOST_RANDOM,
                             STALE_GLOBAL, TRACE_ONLY_LINE})
KINDS = frozenset(value for name, value in dict(globals()).items() if name.isupper() and isinstance(value, str))

# What each kind means, for the rule pages ("confirmed at runtime when ...").
DESCRIPTIONS = {
    TO_NUMPY: "the line copies a JAX array to host memory (`np.asarray`, a NumPy function returning host "
              "data, `jax.device_get`, `.tolist()`) on every iteration of its loop",
    TO_SCALAR: "the line turns a JAX array into a Python value (`float`, `int`, `bool`, `.item()`) on every "
               "iteration of its loop",
    FORMATTING: "the line formats a JAX array (`str`, `repr`, an f-string, `%`) on every iteration of its loop",
    SAME_UPLOAD: "the line uploads the same host data (`jnp.array`, `jnp.asarray`, `jax.device_put`) on every "
                 "iteration of its loop",
    TRACER_TO_NUMPY: "the case raises `TracerArrayConversionError` at the line",
    TRACER_TO_PYTHON: "the case raises `TracerBoolConversionError`, `TracerIntegerConversionError` or a "
                      "tracer's `TypeError` at the line",
    CONCRETIZATION: "the case raises `ConcretizationTypeError` (a concrete value or shape) at the line",
    BOOLEAN_INDEX: "the case raises `NonConcreteBooleanIndexError` at the line",
    IMMUTABLE_ARRAY: "the case raises the `TypeError`/`AttributeError` of an in-place update of a `jax.Array`",
    UNSUPPORTED_ARGUMENT: "jax.numpy refuses the NumPy-only argument, or its value, at the line",
    MISSING_JAX_ATTRIBUTE: "the case raises `AttributeError` for a JAX module or array attribute at the line "
                           "(or the error of a member that exists only to refuse: `x.flat`, `x.device()`)",
    MISSING_JAX_IMPORT: "the case raises `ImportError` for a name JAX does not have",
    TRACE_ONLY_PRINT: "the `print` ran fewer times jitted than under `jax.disable_jit()`: only while tracing; or it "
                      "showed a tracer on a line that ran only while JAX traced",
    TRACE_ONLY_REBIND: "the `global`/`nonlocal` rebinding ran fewer times jitted than under `jax.disable_jit()`",
    TRACE_ONLY_MUTATION: "the mutation of an outer container ran fewer times jitted than under `jax.disable_jit()`",
    TRACE_ONLY_HOST_RANDOM: "the host RNG or clock call ran fewer times jitted than under `jax.disable_jit()`",
    STALE_GLOBAL: "a global or closure variable read by a line that ran only while tracing took several values in the "
                  "eager runs",
    TRACE_ONLY_LINE: "the line ran only while JAX traced, whatever it did",
    LEAKED_TRACER: "after the line stored into `self`, an enclosing function's container or a module global, that "
                   "object held a tracer (it outlives the trace)",
    STRICT_PROMOTION: "the case raises `TypePromotionError` under `jax.numpy_dtype_promotion(\"strict\")`",
    X64_TRUNCATION: "JAX warns that the 64-bit dtype is not available and truncates it",
    WIDE_HOST_DATA: "NumPy 64-bit data reaches JAX while x64 is off",
    JAX_DEPRECATION: "JAX emits a `DeprecationWarning`/`FutureWarning` at the line",
    DISCARDED_RESULT: "`x.sort()` or `x.at[i].set(v)` runs as a statement, throwing the new array away",
    TRACED_SLICE: "the case raises JAX's `IndexError` for slice entries that are not static integers at the line",
    SEQUENCE_ARGUMENT: "the case raises jax.numpy's `TypeError` for a Python list or tuple argument at the line",
    DELETED_BUFFER: "the case uses a donated array at the line and JAX raises that it has been deleted",
    UNTRACEABLE_SELF: "calling the jitted function raises `TypeError` because JAX cannot trace an argument "
                      "(a method's `self`: reported at the method's first decorator)",
    STALE_STATIC_SELF: "the line assigns an attribute that the jitted method reads, on an object the method "
                       "already ran on with `self` static",
    KEY_REUSE: "a `jax.random` sampler or `split` at the line consumes key data that was consumed before",
    RETRACE: "JAX traces and compiles more than once for the line, or `jax.jit` there wraps several new "
             "functions that JAX each compiles",
    UNFINISHED_AT_CLOCK: "the clock is read at the line while a local `jax.Array`, or what a jitted call of the same "
                         "function returned, is still being computed",
    NAN_GRADIENT: "`jax.grad` (or `value_and_grad`, `jacrev`, `jacfwd`, `hessian`, also under `jax.vmap` or "
                  "`jax.jit`) returns nan while the function's value is finite, and the `jnp.where` at the "
                  "line ran inside that call",
}
