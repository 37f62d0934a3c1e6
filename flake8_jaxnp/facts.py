"""Facts about Python and its standard library that running JAX cannot teach.

The checks, the runtime probes and the generator all import these; what can be
learned by running JAX and NumPy lives in ``jax_api.json`` instead.
"""
# Container methods that change the container they are called on.
MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "update", "add", "setdefault",
    "popitem", "discard", "appendleft", "extendleft", "popleft", "sort", "reverse",
})
# Host random number generators of the standard library's ``random`` module.
STDLIB_RANDOM = frozenset({
    "random", "randint", "uniform", "gauss", "choice", "choices", "shuffle", "sample",
    "normalvariate", "randrange", "getrandbits", "betavariate", "expovariate", "triangular",
    "lognormvariate", "vonmisesvariate", "gammavariate", "paretovariate", "weibullvariate",
    "randbytes",
})
# Calls whose value changes from one call to the next: clocks and entropy sources.
CLOCKS = frozenset({
    "time.time", "time.time_ns", "time.perf_counter", "time.perf_counter_ns", "time.monotonic",
    "time.monotonic_ns", "time.process_time", "datetime.datetime.now", "datetime.datetime.utcnow",
    "datetime.datetime.today", "datetime.date.today", "uuid.uuid1", "uuid.uuid4", "os.urandom",
})
# The 64-bit dtypes and what JAX gives instead while jax_enable_x64 is off.
NARROW = {"float64": "float32", "int64": "int32", "uint64": "uint32", "complex128": "complex64"}
WIDE_DTYPES = frozenset(NARROW)
# Builtins that turn an array into a Python value, and those that format it as text.
SCALAR_CONVERSIONS = frozenset({"builtins.float", "builtins.int", "builtins.bool", "builtins.complex",
                                "builtins.range"})
FORMATTERS = frozenset({"builtins.str", "builtins.repr", "builtins.format", "builtins.print"})
