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
# Lines that ran fewer times under jit than under jax.disable_jit, with the effect in the line.
TRACE_ONLY_PRINT = "trace-only-print"
TRACE_ONLY_REBIND = "trace-only-rebind"
TRACE_ONLY_MUTATION = "trace-only-mutation"
TRACE_ONLY_HOST_RANDOM = "trace-only-host-random"
STALE_GLOBAL = "stale-global"  # a global read by a trace-only line took several values eagerly
TRACE_ONLY_LINE = "trace-only-line"  # the line ran only while JAX traced, whatever it did
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
    TRACE_ONLY_PRINT: "the `print` ran fewer times jitted than under `jax.disable_jit()`: only while tracing",
    TRACE_ONLY_REBIND: "the `global`/`nonlocal` rebinding ran fewer times jitted than under `jax.disable_jit()`",
    TRACE_ONLY_MUTATION: "the mutation of an outer container ran fewer times jitted than under `jax.disable_jit()`",
    TRACE_ONLY_HOST_RANDOM: "the host RNG or clock call ran fewer times jitted than under `jax.disable_jit()`",
    STALE_GLOBAL: "a global read by a line that ran only while tracing took several values in the eager runs",
    TRACE_ONLY_LINE: "the line ran only while JAX traced, whatever it did",
    STRICT_PROMOTION: "the case raises `TypePromotionError` under `jax.numpy_dtype_promotion(\"strict\")`",
    X64_TRUNCATION: "JAX warns that the 64-bit dtype is not available and truncates it",
    WIDE_HOST_DATA: "NumPy 64-bit data reaches JAX while x64 is off",
    JAX_DEPRECATION: "JAX emits a `DeprecationWarning`/`FutureWarning` at the line",
    DISCARDED_RESULT: "`x.sort()` or `x.at[i].set(v)` runs as a statement, throwing the new array away",
}
