"""The generated JAX API facts (``jax_api.json``), loaded once, without importing jax."""
import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from . import datafiles

DATA_FILE = Path(__file__).with_name("jax_api.json")


@lru_cache(maxsize=1)
def data():
    return datafiles.load(DATA_FILE, _parse)


def _parse(text):
    """The generated tables and those derived from them, which are kept with the parse
    (``datafiles``): derived once, not by every process that asks."""
    tables = json.loads(text)
    tables["jnp_modules"] = sorted({"jax.numpy"} | {name.rsplit(".", 1)[0] for name in tables["jnp_names"]})
    by_module = tables["removed_names_by_module"] = {}
    for name, removed in tables["removed_names"].items():
        by_module.setdefault(name.rpartition(".")[0], {})[name] = removed
    return tables


def _entry(key, frozen=False):
    """The reader of one key of the generated data (as a frozenset when ``frozen``)."""
    @lru_cache(maxsize=1)
    def read():
        value = data()[key]
        return frozenset(value) if frozen else value
    return read


jnp_names = _entry("jnp_names", frozen=True)


def fails_on_tracer(qualname):
    """The error a NumPy or SciPy function raises converting a tracer to a NumPy array, or None.
    SciPy's table is read only for a SciPy name: a file that imports no SciPy never pays for it."""
    return data()["scipy_fails_on_tracer" if qualname.startswith("scipy.") else "numpy_fails_on_tracer"].get(qualname)


def fails_on_traced_result(qualname):
    """The tracer error a SciPy function given a function (an objective, an integrand) raises when only
    what that function returns is traced, or None (``datagen.scipy_functions.fails_on_traced_result``)."""
    return data()["scipy_fails_on_traced_result"].get(qualname) if qualname.startswith("scipy.") else None


array_attributes = _entry("array_attributes", frozen=True)


# jax.numpy and its submodules whose attribute names ``jnp_names`` lists.
jnp_modules = _entry("jnp_modules", frozen=True)


@lru_cache(maxsize=1)
def removed_name_modules():
    """The modules of the removed names (``jax.core`` of ``jax.core.call``)."""
    return frozenset(data()["removed_names_by_module"])


@lru_cache(maxsize=1)
def missing_array_attributes():
    """Public NumPy array attributes that jax.Array lacks."""
    return frozenset(name for name in set(data()["numpy_array_attributes"]) - array_attributes()
                     if not name.startswith("_"))


# JAX names of past releases that the installed JAX no longer has ("raises") or deprecates -> {"last": last
# release read that had it, "message": JAX's own deprecation text or "", "raises": bool}.
@lru_cache(maxsize=1)
def removed_names():
    return _RemovedNames(data()["removed_names_by_module"])


class _RemovedNames(Mapping):
    """``removed_names``, read one module's names at a time: a lint looks up the few names
    its file uses, of 2,000, which reading them all would cost every process."""

    def __init__(self, by_module):
        self._by_module = by_module

    def __getitem__(self, name):
        return self._by_module.get(name.rpartition(".")[0], {})[name]

    def __contains__(self, name):
        return name in self._by_module.get(name.rpartition(".")[0], ())

    def __iter__(self):
        return (name for names in self._by_module.values() for name in names)

    def __len__(self):
        return sum(map(len, self._by_module.values()))


# Removed names whose deprecation message (JAX's, or NumPy's for jax.numpy) names one replacement to
# write instead -> that installed name: what JNP504's fix writes.
removed_name_replacements = _entry("removed_name_replacements")

# jax.Array members whose form changed -> {"was": "method"|"property", "last", "now":
# "method"|"property"|"raises", "message"}: ``x.device()`` of old code now raises.
array_member_changes = _entry("array_member_changes")

jnp_inplace_functions = _entry("jnp_inplace_functions", frozen=True)

# jax.numpy qualname -> {NumPy keyword: {"error", "none_ok"}} that JAX refuses.
jnp_rejected_arguments = _entry("jnp_rejected_arguments")

# jax.Array method name -> {NumPy keyword: {"error", "none_ok"}} that JAX refuses.
array_rejected_arguments = _entry("array_rejected_arguments")


# ---- the semantic model's tables (learned by running JAX and NumPy) --------------------------
# Callables that trace the function they wrap -> {"abstract": tracers without concrete values, "cached": the
# Python body runs only while tracing, "arrays": calling the transformed function gives JAX arrays}.
transforms = _entry("transforms")

# jax.lax qualname -> positions of the arguments it calls with tracers.
lax_bodies = _entry("lax_bodies")

# jax.lax qualname -> {body position: {the position of the body's result (-1: all of it): the parameter of
# the body it is handed back to on the next step}} (``operands.body_carries``: a scan's carry).
lax_body_carries = _entry("lax_body_carries")

# jax.lax qualname -> {parameter: [position, sign]}: the int arguments whose values, each times its sign, add
# up to how many steps a loop runs its body (``operands.body_steps``: ``fori_loop``'s upper - lower).
lax_body_steps = _entry("lax_body_steps")

# jax.lax qualnames that trace their bodies again for each new function object (``bodies.traced_per_function``).
lax_traced_per_function = _entry("lax_traced_per_function", frozen=True)

# Transform qualname -> the options it also takes by position, after the function.
positional_options = _entry("transform_positional_options")

# Bare names of jax.numpy/NumPy/lax functions whose results are never arrays.
non_array_functions = _entry("non_array_functions", frozen=True)

# Bare names of functions that return a tuple or list of arrays (in some call).
tuple_result_functions = _entry("tuple_result_functions", frozen=True)

# Bare names of jax.lax functions whose result has the pytree structure of their input (psum, pmean).
tree_result_functions = _entry("tree_result_functions", frozen=True)

# Bare names of functions whose array results are always boolean.
bool_result_functions = _entry("bool_result_functions", frozen=True)

# Qualified names of functions that give back their one floating argument's dtype (jax.numpy.tanh).
dtype_keeping_functions = _entry("dtype_keeping_functions", frozen=True)

# Initializer (or initializer factory) dotted name -> the dtype of what Linen's ``self.param`` gives
# with it ("default"), the position of ``self.param``'s argument that asks for another ("dtype_at"),
# and for a factory whether its ``dtype=`` sets it ("dtype_keyword").
framework_param_initializers = _entry("framework_param_initializers")

# Bare NumPy function name -> {"int": dtype, "float": dtype} it builds from Python ints, or from Python
# scalars one of which is a float.
scalar_results = _entry("scalar_results")

# Bare NumPy function name -> the one dtype it builds when no dtype is given.
constructor_defaults = _entry("constructor_defaults")

# jax.Array methods whose result is a Python value, not an array.
python_result_methods = _entry("python_result_methods", frozen=True)

# Builtin classes a traced array is never an instance of (``isinstance(x, float)`` is False under jit).
types_no_tracer_is = _entry("types_no_tracer_is", frozen=True)

# jax.Array attributes that hold metadata (shape, dtype, sharding), not array data.
static_attributes = _entry("static_attributes", frozen=True)

# jax.Array attribute -> "int" when it gives a Python int (``ndim``), "ints" a tuple of them (``shape``).
integer_attributes = _entry("integer_attributes")

# qualname -> {"keyword", "keyword_index", "positions", "names", "staged"}: functions whose result size depends on
# the data unless the keyword is given (jnp.unique's size, jax.ops.segment_sum's num_segments).
size_functions = _entry("size_functions")

# jax.numpy qualname -> positions of arguments that set the result's shape (must be concrete).
shape_arguments = _entry("shape_arguments")

# jax.numpy qualname -> {"positions": argument indices, "sequences": indices of list arguments} whose dtypes
# promote together into the result (where, concatenate, dot).
promoting_arguments = _entry("promoting_arguments")

# {"legacy": {np.random function: dtype}, "generator": {np.random.Generator method: dtype}}: what they return
# when no dtype is given (float64 for normal, int64 for integers).
numpy_random_dtypes = _entry("numpy_random_dtypes")

# NumPy functions that hand a JAX array to its own method and return a JAX array (np.sum(x) is x.sum()).
numpy_gives_jax_array = _entry("numpy_gives_jax_array", frozen=True)

# jax.random functions that draw random values from a key (consuming it).
random_samplers = _entry("jax_random_samplers", frozen=True)

# jax.random sampler -> the dtype it draws whatever it is given (float64 for normal, narrowed where x64
# is off; bool for bernoulli), when no dtype is given.
random_dtypes = _entry("jax_random_dtypes")

# jax.numpy function -> argument positions whose gradient is nan where jnp.where discards them.
where_unsafe_functions = _entry("jnp_where_unsafe")

# jax.numpy function -> the other argument positions whose gradient is nan too where an unsafe one
# is at its singular point (divide(a, b): a's slope is 1/b).
where_unsafe_others = _entry("jnp_where_unsafe_others")

# jax.numpy function -> argument positions whose gradient is nan only where all of them are zero (arctan2).
where_unsafe_jointly = _entry("jnp_where_unsafe_jointly")

# jax.numpy function -> the directions (+1, -1) of a large argument where its value and slope
# overflow to inf, so that the gradient is nan where jnp.where discards it (exp: [1]).
where_overflowing = _entry("jnp_where_overflowing")

# Differentiating transforms under which jnp.where's discarded nan slope does not reach the result (jacfwd).
where_forward_transforms = _entry("jnp_where_forward_transforms", frozen=True)

# jax.numpy function -> positional parameters that refuse a Python list or tuple.
sequence_refusals = _entry("jnp_sequence_refusals")

# jax.numpy function -> positional parameters that take a list of arrays but refuse lists among its items.
item_refusals = _entry("jnp_item_refusals")


def framework_transforms():
    """Framework transform name -> its measured behaviour (``datagen.frameworks``)."""
    return data().get("framework_transforms", {})


@lru_cache(maxsize=None)
def unmapping_options():
    """{transform: the keyword giving each argument its axis, ``None`` leaving it concrete} (``in_axes``
    of ``jax.vmap``, ``nnx.vmap``, ``eqx.filter_vmap``), measured (``datagen.transforms.unmapping_option``)."""
    return {name: facts["unmapping_option"] for name, facts in {**transforms(), **framework_transforms()}.items()
            if "unmapping_option" in facts}


@lru_cache(maxsize=None)
def framework_donations():
    """{framework jit: {keyword: {value: the arguments it donates, "first" and/or "rest"}}}, measured
    (``datagen.frameworks``: ``eqx.filter_jit(f, donate="all")`` donates every argument)."""
    return {name: facts["donations"] for name, facts in framework_transforms().items() if facts.get("donations")}


@lru_cache(maxsize=None)
def framework_module_bases():
    """{dotted name of a framework's Module base: what its standard path traces}
    (``datagen.frameworks.framework_modules``), under each name the base is known by."""
    return {name: facts for facts in data().get("framework_modules", {}).values() for name in facts["names"]}


@lru_cache(maxsize=None)
def framework_aliases():
    """{a framework's name for a JAX function: the function's JAX name} (``flax.linen.relu``:
    ``jax.nn.relu``; ``datagen.framework_functions.framework_aliases``)."""
    return data().get("framework_aliases", {})


def framework_array_functions():
    """{dotted name: what was measured} of the functions of libraries built on JAX that give one
    array of arrays (``optax.global_norm``, ``optax.l2_loss``; ``datagen.framework_functions``)."""
    return data().get("framework_array_functions", {})


def framework_array_methods():
    """{dotted class name: {"methods": {method: its result's dtype}, ...}} of the framework classes whose
    objects have methods that give one JAX array (``optax.MultiSteps(...).has_updated(state)``: a
    device bool; ``datagen.framework_objects``)."""
    return data().get("framework_array_methods", {})


def framework_fresh_objects():
    """{dotted name: what was measured} of the functions of libraries built on JAX whose every call
    gives a new hashable object, unequal to the last (``optax.adam``; ``datagen.framework_functions``)."""
    return data().get("framework_fresh_objects", {})


def framework_static_holders():
    """{class: the argument it keeps static, its position, the jit measured} of the framework classes
    that, built around a new object of ``framework_fresh_objects``, make that jit trace again
    (``nnx.Optimizer(model, optax.adam(1e-3))`` under ``nnx.jit``; ``datagen.frameworks``)."""
    return data().get("framework_static_holders", {})


def framework_static_objects():
    """{jit: what was measured} of the framework jits that keep a new object of ``framework_fresh_objects``
    given to them static, tracing again for each (``eqx.filter_jit``; ``datagen.framework_objects``)."""
    return data().get("framework_static_objects", {})


def framework_containers():
    """{dotted class name: {"holds": "list" or "dict", ...}} of the framework classes that give back the
    objects of the list (the dict) they were built around (``nnx.List``, ``nnx.Dict``;
    ``datagen.framework_objects``)."""
    return data().get("framework_containers", {})


def framework_rebuilders():
    """{dotted name: {"parts_of": dotted name, ...}} of the framework calls that rebuild an object of the
    class the ``parts_of`` call took apart (``nnx.merge`` of ``nnx.split``; ``datagen.framework_objects``)."""
    return data().get("framework_rebuilders", {})


def framework_class_transforms():
    """{dotted name: ...} of the transforms that, applied to an Equinox Module class and called, give an
    instance of it (``eqx.filter_vmap(Layer)(keys)``; ``datagen.framework_objects``)."""
    return data().get("framework_class_transforms", {})


@lru_cache(maxsize=None)
def framework_state_fields():
    """The fields in which an optimiser's state (Optax's named tuples) holds its subtrees
    (``opt_state.inner_state``, ``.mu``, ``.hyperparams``; ``datagen.framework_objects``)."""
    return frozenset(field for entry in data().get("framework_state_fields", {}).values() for field in entry["fields"])


def framework_module_arrays():
    """{dotted name: ...} of the framework functions that, given a Module, give a pytree of its own arrays
    (``nnx.state(model)``; ``datagen.framework_objects``)."""
    return data().get("framework_module_arrays", {})


def framework_update_callbacks():
    """{dotted name: the arguments, as [position, keyword]} of the gradient transformations whose
    ``update`` calls a function given there with tracers (``optax.adam``'s ``learning_rate``
    schedule; ``datagen.framework_functions``)."""
    return data().get("framework_update_callbacks", {})


@lru_cache(maxsize=None)
def framework_record_builders():
    """{dotted name of a call that builds a framework's pytree dataclass: what was measured of its
    fields under a trace} (``TrainState.create``: ``step`` an array; ``datagen.framework_objects``)."""
    return {builder: facts for facts in data().get("framework_records", {}).values() for builder in facts["builders"]}


def framework_records():
    """{dotted class name: what was measured} of the frameworks' pytree dataclasses: their fields under a
    trace, the methods that give an object of the class (``state.apply_gradients(grads=grads)``;
    ``datagen.framework_objects``)."""
    return data().get("framework_records", {})


@lru_cache(maxsize=1)
def record_updating_methods():
    """The methods of the frameworks' pytree dataclasses that run the ``update`` of the gradient
    transformation they were built around (``state.apply_gradients``; ``framework_records``' ``updating``)."""
    return frozenset(method for facts in framework_records().values() for method in facts.get("updating", ()))


@lru_cache(maxsize=None)
def framework_layers():
    """{dotted name: what was measured} of the frameworks' own layers that give one array when
    called on an array (``nn.Dense``, ``nnx.Linear``, ``eqx.nn.Linear``: ``datagen.frameworks``),
    under each name the layer is known by."""
    return {name: facts for facts in data().get("framework_layers", {}).values() for name in facts["names"]}


@lru_cache(maxsize=None)
def control_flow_bodies():
    """{dotted name: positions of the functions it calls with tracers}: jax.lax's (``lax_bodies``)
    and the frameworks' control flow (``flax.nnx.cond``; ``datagen.framework_functions``)."""
    framework = data().get("framework_lax_bodies", {})
    return {**lax_bodies(), **{name: facts["positions"] for name, facts in framework.items()}}


def body_calls():
    """{dotted name: {"given", "receives", "when"}}: how many abstract tracers the functions a call
    is given receive (``jnp.apply_along_axis(f, 1, x)`` runs ``f(row)`` under vmap), when the call
    gives literals ``when`` at their positions (``datagen.operands.body_calls``)."""
    return data().get("body_calls", {})


@lru_cache(maxsize=None)
def control_flow_operands():
    """{dotted name: {body position: {parameter index: argument position}}}: which arguments of a
    control-flow call reach which parameters of the functions it calls (``cond(pred, f, g, model, x)``
    calls ``f(model, x)``), jax.lax's and the frameworks' (``datagen.operands``)."""
    framework = data().get("framework_lax_bodies", {})
    return {**data().get("lax_body_operands", {}),
            **{name: facts.get("operands", {}) for name, facts in framework.items()}}


def framework_key_builders():
    """Dotted names of the framework classes whose keys the key they are built around decides
    (``nnx.Rngs(key)``: ``datagen.framework_functions``): built, they consume it as a sampler does."""
    return frozenset(data().get("framework_key_builders", {}))
