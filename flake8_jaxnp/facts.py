"""Facts about Python and its standard library that running JAX cannot teach, and the
texts of JAX's messages that both the generator and the runtime mode recognise.

The checks, the runtime probes and the generator all import these; what can be
learned by running JAX and NumPy lives in ``jax_api.json`` instead.
"""
# Container methods that change the container they are called on.
MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "update", "add", "setdefault",
    "popitem", "discard", "appendleft", "extendleft", "popleft", "sort", "reverse",
})
# Builtins that advance the iterator they are given (a container whose state changes on each call).
ADVANCING_BUILTINS = frozenset({"next"})
# Methods where ``self.x = ...`` builds the object rather than mutating a live one.
CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__new__", "setup", "__setstate__"})
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
# Clocks that time a region (not entropy sources such as uuid4).
TIMERS = frozenset(name for name in CLOCKS if name.startswith(("time.", "datetime.")))
# Calls that time a callable they are given (``timeit.repeat(lambda: f(x))``): its run is the region.
CALLABLE_TIMERS = frozenset({"timeit.timeit", "timeit.repeat"})
# Methods of a probability distribution that draw from the key they get as ``seed=``
# (``dist.sample(seed=key)``: the convention of distrax and TensorFlow Probability).
SEEDED_SAMPLERS = frozenset({"sample", "sample_and_log_prob"})
# The 64-bit dtypes and what JAX gives instead while jax_enable_x64 is off.
NARROW = {"float64": "float32", "int64": "int32", "uint64": "uint32", "complex128": "complex64"}
WIDE_DTYPES = frozenset(NARROW)
# ``.at[...]`` methods that return an updated copy; calling one as a statement loses the update.
AT_UPDATES = frozenset({"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"})


def is_promotion(operands):
    """Whether mixing ``operands``, (dtype name, weakly typed) pairs, is an implicit promotion.

    A weakly typed Python scalar takes the other side's dtype (``int_array * 0.5``), and a
    bool mask promotes losslessly (``x * (x > 0)``): neither is a promotion to report.
    """
    return not any(weak or dtype == "bool" for dtype, weak in operands)


# NumPy functions the generator does not call (they read or write files, print, build
# classes, or are gone from NumPy 2), whose results are never arrays.
UNPROBED_NON_ARRAY_FUNCTIONS = frozenset({
    "load", "save", "savez", "info", "get_printoptions", "set_printoptions", "printoptions",
    "ndarray", "frompyfunc", "obj2sctype", "sctype2char", "typename",
})
# Functions whose result stays where their argument is: on the device for device data
# (flax 0.12.8's unreplicate takes each leaf's first replica, freeze and unfreeze copy the
# dicts around the leaves; NumPy leaves stay NumPy).
DEVICE_PRESERVING = frozenset({"flax.jax_utils.unreplicate", "flax.core.freeze", "flax.core.unfreeze",
                               "flax.core.frozen_dict.freeze", "flax.core.frozen_dict.unfreeze"})
# Flax NNX transforms that write the state of the objects they are given back into them
# (flax 0.12.8: a Module's or Optimizer's Variables hold the step's device arrays after the call).
NNX_STATE_UPDATING = frozenset({"flax.nnx.jit", "flax.nnx.pmap", "flax.nnx.shard_map"})
# Functions that call their first argument on the leaves of the trees that follow it.
# Selections by a condition (condition, kept, discarded) and how messages name them: jnp.where
# stages lax.select, so both differentiate the branch they discard.
SELECTS = {"jax.numpy.where": "jnp.where", "jax.lax.select": "lax.select"}

TREE_MAPS = frozenset({"jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map"})
# The jit options that donate arguments (their buffers are deleted by the call).
DONATING = ("donate_argnums", "donate_argnames")
# Functions that return the list of the leaves of the tree they are given.
TREE_LEAVES = frozenset({"jax.tree.leaves", "jax.tree_util.tree_leaves", "jax.tree_leaves"})
# Namespaces, as dotted module names.
NUMPY_MODULES = ("numpy", "numpy.linalg", "numpy.fft")  # NumPy functions that jax.numpy mirrors
# Namespaces whose functions return JAX arrays (the model reads them by bare name).
JAX_ARRAY_MODULES = ("jax.numpy", "jax.numpy.linalg", "jax.numpy.fft", "jax.nn", "jax.lax", "jax.scipy.special")
# Namespaces whose functions take a dtype that JAX canonicalizes (narrows without x64).
JAX_DTYPE_MODULES = ("jax.numpy", "jax.random", "jax.lax", "jax.nn")
# The dtypes the linter names (and the generated promotion tables cover), by NumPy's name.
DTYPE_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float16", "bfloat16", "float32", "float64", "complex64", "complex128")
# The floating dtypes JAX computes in without x64: dtype_keeping_functions keep each of them.
KEPT_FLOATS = ("bfloat16", "float16", "float32")
# Builtins that turn an array into a Python value, and those that format it as text.
SCALAR_CONVERSIONS = frozenset({"builtins.float", "builtins.int", "builtins.bool", "builtins.complex",
                                "builtins.range"})
FORMATTERS = frozenset({"builtins.str", "builtins.repr", "builtins.format", "builtins.print"})
# The standard library's logging: its module functions, and the same methods of the Logger that
# getLogger gives, write a record of their arguments (a tracer's text, under a trace).
LOG_LEVELS = frozenset({"debug", "info", "warning", "error", "critical", "exception", "log"})
LOGGER_FACTORIES = frozenset({"logging.getLogger"})
# jax.numpy's TypeError for a list or tuple where it takes arrays (JNP505's evidence).
SEQUENCE_REFUSAL = "requires ndarray or scalar arguments"
