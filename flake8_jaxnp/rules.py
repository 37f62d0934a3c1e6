"""The rule catalogue: every JNP code is declared here once.

Messages, the README rule table and the completeness tests all read from this
module, so a rule exists exactly when it has an entry in ``RULES``.
"""
from dataclasses import dataclass

from . import evidence as ev


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    message: str  # str.format template; fields are filled by the check
    why: str
    fix: str
    on_by_default: bool = True  # False: reported only when selected explicitly
    # Rule pages (docs.py): code the rule flags, the fixed code, and the exception the
    # example raises on the JAX release jax_api.json describes ("": the pitfall is silent).
    # Tests lint both, run both under JAX, and check the exception.
    example: str = ""
    instead: str = ""
    raises: str = ""
    evidence: tuple = ()  # kinds of runtime evidence (evidence.py) that confirm a finding
    unconfirmable: str = ""  # why no runtime evidence can confirm it (when evidence is empty)

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
        example="""\
import jax.numpy as jnp
import numpy as np

params = jnp.ones(3)
history = []
for step in range(100):
    params = params * 0.9
    history.append(np.asarray(params))
""",
        instead="""\
import jax.numpy as jnp
import numpy as np

params = jnp.ones(3)
history = []
for step in range(100):
    params = params * 0.9
    history.append(params)
history = np.asarray(jnp.stack(history))
""",
        evidence=(ev.TO_NUMPY,),
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
        example="""\
import jax.numpy as jnp

x = jnp.ones(3)
losses = []
for step in range(100):
    x = x * 0.9
    losses.append(float(x.sum()))
""",
        instead="""\
import jax.numpy as jnp

x = jnp.ones(3)
losses = []
for step in range(100):
    x = x * 0.9
    losses.append(x.sum())
losses = jnp.stack(losses).tolist()
""",
        evidence=(ev.TO_SCALAR,),
    ),
    Rule(
        "JNP103", "device-print-in-loop",
        "{what} formats a JAX array on every iteration of this loop, forcing a "
        "device-to-host sync; log every N steps or after the loop",
        "Printing, str(), repr(), f-strings and logging read the array's value, "
        "which waits for the device and copies the data to the host.",
        "Log under `if step % N == 0:` or after the loop.",
        example="""\
import jax.numpy as jnp

x = jnp.ones(3)
for step in range(100):
    x = x * 0.9
    print(f"step {step}: {x}")
""",
        instead="""\
import jax.numpy as jnp

x = jnp.ones(3)
for step in range(100):
    x = x * 0.9
print(f"after 100 steps: {x}")
""",
        evidence=(ev.FORMATTING,),
    ),
    Rule(
        "JNP104", "loop-invariant-upload",
        "{what} uploads the same NumPy data to the device on every iteration of "
        "this loop; hoist it above the loop",
        "jnp.array/jnp.asarray/jax.device_put of host data, and a jitted call "
        "given NumPy data, copy it to the device each time; data the loop does "
        "not change needs one copy.",
        "Convert once before the loop and reuse the device array.",
        example="""\
import jax.numpy as jnp
import numpy as np

features = np.ones((8, 3), dtype=np.float32)
params = jnp.zeros(3)
for step in range(100):
    params = params + jnp.asarray(features).mean(axis=0)
""",
        instead="""\
import jax.numpy as jnp
import numpy as np

features = jnp.asarray(np.ones((8, 3), dtype=np.float32))
params = jnp.zeros(3)
for step in range(100):
    params = params + features.mean(axis=0)
""",
        evidence=(ev.SAME_UPLOAD,),
    ),
    # JNP2xx: what fails on traced values
    Rule(
        "JNP201", "numpy-on-tracer",
        "{func}() on a traced value in '{scope}' raises {error} under {transform}; "
        "use {fix}",
        "NumPy functions convert their arguments to NumPy arrays, which needs "
        "concrete data; a tracer has none.",
        "Use the jax.numpy function of the same name.",
        example="""\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x):
    return np.sin(x)


f(jnp.ones(3))
""",
        instead="""\
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return jnp.sin(x)


f(jnp.ones(3))
""",
        raises="TracerArrayConversionError",
        evidence=(ev.TRACER_TO_NUMPY,),
    ),
    Rule(
        "JNP202", "tracer-to-python",
        "{what} needs a concrete value, but '{scope}' is traced by {transform}; "
        "{fix}",
        "Inside a transformed function, parameters are abstract tracers: Python "
        "control flow, float()/int()/.item() and shapes need concrete values.",
        "Use jnp.where/lax.cond/lax.select for data-dependent choices, or mark "
        "the argument static (static_argnums/static_argnames).",
        example="""\
import jax
import jax.numpy as jnp


@jax.jit
def relu(x):
    if x > 0:
        return x
    return 0.0


relu(jnp.float32(2.0))
""",
        instead="""\
import jax
import jax.numpy as jnp


@jax.jit
def relu(x):
    return jnp.where(x > 0, x, 0.0)


relu(jnp.float32(2.0))
""",
        raises="TracerBoolConversionError",
        evidence=(ev.TRACER_TO_PYTHON, ev.CONCRETIZATION, ev.TRACED_SLICE),
    ),
    Rule(
        "JNP203", "data-dependent-shape",
        "{what} has a data-dependent shape, which '{scope}' cannot have under "
        "{transform}; {fix}",
        "Traced code needs every shape at trace time; boolean masks and "
        "nonzero/unique/one-argument where produce shapes that depend on data.",
        "Pass size= (and fill_value=), or use jnp.where(mask, x, 0) to keep "
        "the shape.",
        example="""\
import jax
import jax.numpy as jnp


@jax.jit
def positives(x):
    return x[x > 0]


positives(jnp.array([-1.0, 2.0]))
""",
        instead="""\
import jax
import jax.numpy as jnp


@jax.jit
def positives(x):
    return jnp.where(x > 0, x, 0.0)


positives(jnp.array([-1.0, 2.0]))
""",
        raises="NonConcreteBooleanIndexError",
        evidence=(ev.BOOLEAN_INDEX, ev.CONCRETIZATION),
    ),
    Rule(
        "JNP205", "traced-self-method",
        "{transform} on method '{cls}.{method}' traces 'self', but {cls} is not a registered "
        "pytree, so every call raises TypeError; jit a function of the arrays, or register the class",
        "A jitted method receives self as its first argument, and JAX can only trace arrays and "
        "registered pytrees; an ordinary object is neither.",
        "Move the computation into a function that takes the arrays, register the class with "
        "jax.tree_util.register_pytree_node_class, or (for an immutable object) mark self static.",
        example="""\
import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @jax.jit
    def __call__(self, x):
        return x * self.factor


Scaler(2.0)(jnp.ones(3))
""",
        instead="""\
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, factor):
    return x * factor


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, x):
        return scale(x, self.factor)


Scaler(2.0)(jnp.ones(3))
""",
        raises="TypeError",
        evidence=(ev.UNTRACEABLE_SELF,),
    ),
    # JNP3xx: Python side effects under tracing
    Rule(
        "JNP301", "print-in-traced",
        "print() in '{scope}' runs only while {transform} traces it and shows "
        "tracers, not values; use jax.debug.print",
        "Traced Python runs once per compilation; later calls reuse the "
        "compiled code, so print() fires once and prints abstract tracers.",
        "Call jax.debug.print(\"x = {}\", x), which prints the runtime values on every call.",
        example="""\
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    print("x =", x)
    return x * 2


step(jnp.ones(2))
step(jnp.ones(2))
""",
        instead="""\
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    jax.debug.print("x = {}", x)
    return x * 2


step(jnp.ones(2))
step(jnp.ones(2))
""",
        evidence=(ev.TRACE_ONLY_PRINT, ev.TRACE_ONLY_LINE),
    ),
    Rule(
        "JNP302", "global-rebind-in-traced",
        "'{name}' is rebound through {statement} in '{scope}', which happens "
        "only while {transform} traces it; return the new value instead",
        "Assignments to global or nonlocal names run at trace time only, so "
        "the name changes once, not on every call.",
        "Return the value from the function and keep state explicit.",
        example="""\
import jax
import jax.numpy as jnp

calls = 0


@jax.jit
def step(x):
    global calls
    calls += 1
    return x * 2


step(jnp.ones(2))
step(jnp.ones(2))
""",
        instead="""\
import jax
import jax.numpy as jnp


@jax.jit
def step(x, calls):
    return x * 2, calls + 1


calls = 0
x, calls = step(jnp.ones(2), calls)
x, calls = step(jnp.ones(2), calls)
""",
        evidence=(ev.TRACE_ONLY_REBIND, ev.TRACE_ONLY_LINE),
    ),
    Rule(
        "JNP303", "outer-mutation-in-traced",
        "{what} mutates '{name}', which outlives '{scope}'; it happens only "
        "while {transform} traces it (and may store tracers); return the "
        "value instead",
        "Mutating a list, dict or object that outlives the call happens once "
        "at trace time and can leak tracers out of the transformation.",
        "Return the new values and let the caller update its state.",
        example="""\
import jax
import jax.numpy as jnp

history = []


@jax.jit
def record(x):
    history.append(x)
    return x * 2


record(jnp.ones(2))
record(jnp.ones(2))
""",
        instead="""\
import jax
import jax.numpy as jnp


@jax.jit
def record(x):
    return x * 2


history = []
for _ in range(2):
    history.append(record(jnp.ones(2)))
""",
        evidence=(ev.TRACE_ONLY_MUTATION, ev.TRACE_ONLY_LINE),
    ),
    Rule(
        "JNP304", "stale-global-in-traced",
        "'{name}' is rebound elsewhere in this module, but '{scope}' is traced "
        "by {transform} and keeps the value it saw first; pass it as an argument",
        "Globals are read at trace time and frozen into the compiled function; "
        "rebinding them later does not retrace.",
        "Pass the value as an argument (static if it is a Python constant).",
        example="""\
import jax
import jax.numpy as jnp

SCALE = 1.0


@jax.jit
def scaled(x):
    return x * SCALE


scaled(jnp.ones(2))
SCALE = 2.0
scaled(jnp.ones(2))
""",
        instead="""\
import jax
import jax.numpy as jnp


@jax.jit
def scaled(x, scale):
    return x * scale


scaled(jnp.ones(2), 1.0)
scaled(jnp.ones(2), 2.0)
""",
        evidence=(ev.STALE_GLOBAL,),
    ),
    Rule(
        "JNP305", "stateful-random-in-traced",
        "{func}() in '{scope}' is evaluated once while {transform} traces it and "
        "then stays constant; {fix}",
        "Host random number generators and clocks run at trace time only; the "
        "compiled function replays the first value forever.",
        "Use jax.random with an explicit key passed in, or pass time values as "
        "arguments.",
        example="""\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def noisy(x):
    return x + np.random.normal()


noisy(jnp.ones(2))
noisy(jnp.ones(2))
""",
        instead="""\
import jax
import jax.numpy as jnp


@jax.jit
def noisy(x, key):
    return x + jax.random.normal(key)


key = jax.random.key(0)
for _ in range(2):
    key, subkey = jax.random.split(key)
    noisy(jnp.ones(2), subkey)
""",
        evidence=(ev.TRACE_ONLY_HOST_RANDOM, ev.TRACE_ONLY_LINE),
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
        example="""\
from functools import partial

import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return x * self.factor


scaler = Scaler(2.0)
scaler(jnp.ones(3))
scaler.factor = 3.0
print(scaler(jnp.ones(3)))  # [2. 2. 2.]: the old factor
""",
        instead="""\
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, factor):
    return x * factor


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, x):
        return scale(x, self.factor)


scaler = Scaler(2.0)
scaler(jnp.ones(3))
scaler.factor = 3.0
print(scaler(jnp.ones(3)))  # [3. 3. 3.]
""",
        raises="",
        evidence=(ev.STALE_STATIC_SELF,),
    ),
    # JNP4xx: dtype pitfalls
    Rule(
        "JNP401", "implicit-promotion",
        "{what} promotes implicitly to {result} in JAX{numpy}; "
        "cast explicitly with .astype()",
        "Mixing dtypes of different kinds or widths promotes silently, and "
        "JAX's promotion lattice differs from NumPy's.",
        "Make the conversion explicit with .astype(dtype).",
        example="""\
import jax.numpy as jnp

counts = jnp.arange(4, dtype=jnp.int32)
scale = jnp.ones(4, dtype=jnp.float16)
counts * scale
""",
        instead="""\
import jax.numpy as jnp

counts = jnp.arange(4, dtype=jnp.int32)
scale = jnp.ones(4, dtype=jnp.float16)
counts.astype(jnp.float16) * scale
""",
        evidence=(ev.STRICT_PROMOTION,),
    ),
    Rule(
        "JNP402", "x64-dtype-without-x64",
        "{what} asks for {dtype}, but x64 is off here, so JAX warns (UserWarning) "
        "and gives {narrow}; use {narrow}, or, if the project enables x64 at "
        "startup, run flake8 with --jaxnp-x64 (jaxnp-x64 = true in its config)",
        "Without jax_enable_x64, JAX gives 32-bit arrays for 64-bit dtype "
        "requests, with only a UserWarning.",
        "Request the 32-bit dtype; a project that enables x64 at startup sets "
        "--jaxnp-x64 (jaxnp-x64 = true) once.",
        example="""\
import jax.numpy as jnp

x = jnp.zeros(3, dtype=jnp.float64)
""",
        instead="""\
import jax.numpy as jnp

x = jnp.zeros(3, dtype=jnp.float32)
""",
        evidence=(ev.X64_TRUNCATION,),
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
        example="""\
import jax.numpy as jnp
import numpy as np

x = jnp.asarray(np.linspace(0.0, 1.0, 5))
""",
        instead="""\
import jax.numpy as jnp
import numpy as np

x = jnp.asarray(np.linspace(0.0, 1.0, 5, dtype=np.float32))
""",
        evidence=(ev.WIDE_HOST_DATA,),
    ),
    # JNP5xx: NumPy APIs and idioms JAX does not implement
    Rule(
        "JNP501", "in-place-update",
        "{what} tries to update a JAX array in place, but {effect}; use {fix}",
        "JAX arrays are immutable: item assignment raises TypeError and "
        "in-place methods do not exist or return a new array.",
        "x = x.at[i].set(v) (or .add/.mul/...), and rebind sort results.",
        example="""\
import jax.numpy as jnp

x = jnp.zeros(3)
x[0] = 1.0
""",
        instead="""\
import jax.numpy as jnp

x = jnp.zeros(3)
x = x.at[0].set(1.0)
""",
        raises="TypeError",
        evidence=(ev.IMMUTABLE_ARRAY, ev.DISCARDED_RESULT, ev.MISSING_JAX_ATTRIBUTE),
    ),
    Rule(
        "JNP502", "missing-jax-api",
        "{name} does not exist in JAX {version} (the release flake8-jaxnp's API data describes); {fix}",
        "jax.numpy and jax.Array mirror most of NumPy but not all of it.",
        "Use the JAX equivalent, or do the step in NumPy outside traced code.",
        example="""\
import jax.numpy as jnp

x = jnp.ones((2, 2))
x.strides
""",
        instead="""\
import jax.numpy as jnp
import numpy as np

x = jnp.ones((2, 2))
np.asarray(x).strides
""",
        raises="AttributeError",
        evidence=(ev.MISSING_JAX_ATTRIBUTE, ev.MISSING_JAX_IMPORT),
    ),
    Rule(
        "JNP503", "numpy-only-argument",
        "{func}() does not accept {arg} in JAX (it raises {error}); {fix}",
        "Some NumPy arguments (out=, kind=, where=, ...) and argument values "
        "(mode='raise', order='F', ...) are rejected by jax.numpy because arrays "
        "are immutable or the option has no XLA equivalent.",
        "Drop the argument and use the returned value (or the suggested "
        "alternative).",
        example="""\
import jax.numpy as jnp

x = jnp.array([3.0, 1.0, 2.0])
jnp.sort(x, kind="stable")
""",
        instead="""\
import jax.numpy as jnp

x = jnp.array([3.0, 1.0, 2.0])
jnp.sort(x, stable=True)
""",
        raises="TypeError",
        evidence=(ev.UNSUPPORTED_ARGUMENT,),
    ),
    Rule(
        "JNP504", "removed-jax-api",
        "{name} {status} in JAX {version} ({history}); {advice}",
        "JAX deprecates names and removes them a few releases later, so code "
        "written for an older JAX raises AttributeError or ImportError.",
        "Use the replacement JAX names in the message.",
        example="""\
import jax

jax.tree_map(lambda v: v + 1, [1, 2])
""",
        instead="""\
import jax

jax.tree.map(lambda v: v + 1, [1, 2])
""",
        raises="AttributeError",
        evidence=(ev.MISSING_JAX_ATTRIBUTE, ev.MISSING_JAX_IMPORT, ev.JAX_DEPRECATION),
    ),
    Rule(
        "JNP505", "sequence-argument",
        "{func}() refuses a Python {kind} ({arg}) with a TypeError, where NumPy accepts it; "
        "wrap it in jnp.asarray() (or pass an array)",
        "jax.numpy functions take arrays, not lists or tuples: converting a sequence element by "
        "element would hide a slow host-side loop, so most of them raise TypeError instead.",
        "Convert once with jnp.asarray([...]) and pass the array.",
        example="""\
import jax.numpy as jnp

total = jnp.sum([1.0, 2.0, 3.0])
""",
        instead="""\
import jax.numpy as jnp

total = jnp.sum(jnp.asarray([1.0, 2.0, 3.0]))
""",
        raises="TypeError",
        evidence=(ev.SEQUENCE_ARGUMENT,),
    ),
    # JNP6xx: randomness and performance
    Rule(
        "JNP601", "prng-key-reuse",
        "'{name}' {how}; the same key gives the same random bits, so the draws repeat: "
        "split it and use a fresh subkey",
        "JAX random functions are pure: a key consumed twice (by samplers, or by split) gives the "
        "same random bits twice, so the draws are identical or correlated.",
        "key, subkey = jax.random.split(key) before each use, and pass each subkey to one sampler.",
        example="""\
import jax

key = jax.random.key(0)
noise = jax.random.normal(key, (3,))
mask = jax.random.bernoulli(key, 0.5, (3,))  # mask == (noise < 0)
""",
        instead="""\
import jax

key = jax.random.key(0)
key, noise_key, mask_key = jax.random.split(key, 3)
noise = jax.random.normal(noise_key, (3,))
mask = jax.random.bernoulli(mask_key, 0.5, (3,))
""",
        raises="",
        evidence=(ev.KEY_REUSE,),
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
        example="""\
import jax
import jax.numpy as jnp

x = jnp.ones(3)
for step in range(3):
    x = jax.jit(lambda v: v * 0.5)(x)
""",
        instead="""\
import jax
import jax.numpy as jnp

halve = jax.jit(lambda v: v * 0.5)
x = jnp.ones(3)
for step in range(3):
    x = halve(x)
""",
        raises="",
        evidence=(ev.RETRACE,),
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
        example="""\
import time

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
x = jnp.ones((1000, 1000))
start = time.perf_counter()
y = matmul(x)
elapsed = time.perf_counter() - start
""",
        instead="""\
import time

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
x = jnp.ones((1000, 1000))
start = time.perf_counter()
y = matmul(x).block_until_ready()
elapsed = time.perf_counter() - start
""",
        raises="",
        evidence=(ev.UNFINISHED_AT_CLOCK,),
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
        example="""\
import jax
import jax.numpy as jnp


def safe_log(x):
    return jnp.where(x > 0, jnp.log(x), 0.0)


print(jax.grad(safe_log)(0.0))  # nan
""",
        instead="""\
import jax
import jax.numpy as jnp


def safe_log(x):
    positive = jnp.where(x > 0, x, 1.0)
    return jnp.where(x > 0, jnp.log(positive), 0.0)


print(jax.grad(safe_log)(0.0))  # 0.0
""",
        raises="",
        evidence=(ev.NAN_GRADIENT,),
    ),
    Rule(
        "JNP605", "donated-buffer-reuse",
        "'{name}' was donated to {func}() on line {line}, so its buffer is deleted, but it is "
        "{when}; use the call's result instead, or do not donate it",
        "An argument named in donate_argnums/donate_argnames hands its device buffer to the "
        "output; the backend deletes the input (CPU and GPU both do on the installed JAX), and "
        "any later use raises 'Array has been deleted'.",
        "Rebind the name to the result (x = step(x)), or drop the argument from donate_argnums.",
        example="""\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def step(params, grads):
    return params - 0.1 * grads


params = jnp.ones(3)
new_params = step(params, jnp.ones(3))
print(params)
""",
        instead="""\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def step(params, grads):
    return params - 0.1 * grads


params = jnp.ones(3)
params = step(params, jnp.ones(3))
print(params)
""",
        raises="RuntimeError",
        evidence=(ev.DELETED_BUFFER,),
    ),
    # JNP9xx: the checker itself
    Rule(
        "JNP900", "checker-error",
        "flake8-jaxnp could not analyse this file ({error}); please report it",
        "The checker never aborts flake8; an internal error becomes a finding.",
        "Report the file to flake8-jaxnp; other checks still ran.",
        unconfirmable="an internal error of the checker, not a behaviour of JAX",
    ),
]

RULES = {rule.code: rule for rule in _RULES}
OFF_BY_DEFAULT = [rule.code for rule in _RULES if not rule.on_by_default]


def confirmed_by(kind):
    """The codes that runtime evidence of ``kind`` confirms, sorted."""
    return sorted(rule.code for rule in _RULES if kind in rule.evidence)


def needs_eager_run(codes):
    """Whether confirming any of ``codes`` needs a rerun under jax.disable_jit."""
    return any(ev.NEEDS_EAGER_RUN.intersection(RULES[code].evidence) for code in codes)
