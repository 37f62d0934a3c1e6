"""Measure the layers of JAX frameworks (Flax Linen and NNX, Equinox) by running them, for the
generator's ``framework_layers`` key: which give one array (or an array and a state) when called on
an array inside their framework's jit, which fields that jit reads as tracers, and which draw from a
key, when called or when applied with a key in ``rngs``. A framework that is not installed keeps the
entries recorded where it was.
"""
import importlib.metadata
import inspect
import sys

from .array_holders import defined_as
from .framework_functions import recorded
from .framework_objects import rejected_by_jax_jit


LAYERS_KEY = "framework_layers"
# A framework's own layers, each with its constructor's arguments and the shape of the float
# input it is called on ("index": one index, an Equinox embedding's; a dict last: keywords). Whether
# each gives one array when called on an array is measured (``framework_layers``), or, for an
# Equinox layer whose call takes a ``state``, an array and the new state (``with_state``: its
# BatchNorm, measured under a named ``filter_vmap``); a layer that gives another tuple is left out.
# Not here: the layers that take or give more than that (a cell's carry).
LAYERS = {
    **{f"flax.linen.{name}": (args, (2, 4)) for name, args in (
        ("Dense", (2,)), ("DenseGeneral", (2,)), ("Conv", (2, (1,))), ("ConvTranspose", (2, (1,))),
        ("LayerNorm", ()), ("RMSNorm", ()), ("GroupNorm", (1,)), ("BatchNorm", (True,)), ("Dropout", (0.5, (), False)),
        ("MultiHeadDotProductAttention", (1,)), ("SelfAttention", (1,)), ("Embed", (5, 2)))},
    **{f"flax.nnx.{name}": (args, (2, 4)) for name, args in (
        ("Linear", (4, 2)), ("LinearGeneral", (4, 2)), ("Conv", (4, 2, (1,))), ("ConvTranspose", (4, 2, (1,))),
        ("LayerNorm", (4,)), ("RMSNorm", (4,)), ("GroupNorm", (4, 1)), ("BatchNorm", (4,)), ("Dropout", (0.5,)),
        ("MultiHeadAttention", (1, 4, 4, 4, {"decode": False})), ("Embed", (5, 2)))},
    **{f"equinox.nn.{name}": (args, shape) for name, args, shape in (
        ("Linear", (4, 2), (4,)), ("MLP", (4, 2, 3, 1), (4,)), ("Conv1d", (2, 2, 1), (2, 4)),
        ("ConvTranspose1d", (2, 2, 1), (2, 4)), ("LayerNorm", ((4,),), (4,)), ("RMSNorm", ((4,),), (4,)),
        ("GroupNorm", (1, 2), (2, 4)), ("Dropout", (0.5,), (4,)), ("Embedding", (5, 2), "index"),
        ("BatchNorm", (4, "batch"), (4,)))},
}
_INDICES = {"flax.nnx.Embed", "flax.linen.Embed"}  # layers whose input is indices


def framework_layers(data_file, resolve):
    """{layer: the names it is known by, whether ``jax.jit`` refuses it as an argument,
    measured_with} for the ``LAYERS`` that, called on an array inside their framework's jit, give
    one array; a framework not installed keeps its entries from ``data_file``."""
    previous = recorded(data_file, LAYERS_KEY)
    found = {}
    for name, (args, shape) in LAYERS.items():
        layer = resolve(name)
        if layer is None:
            if name in previous:
                found[name] = previous[name]
            continue
        module, with_state = _gives_one_array(name, layer, args, shape)
        if module is not None:
            package = name.split(".")[0]
            drawing_options = None if with_state else _draws_when_called(name, layer, args, module, shape)
            applied = _draws_when_applied(name, layer, args, module, shape)
            found[name] = {"names": sorted({name, defined_as(layer)}),
                           "rejected_by_jax_jit": rejected_by_jax_jit(module),
                           "draws_from_key": _draws_from_key(layer, args),
                           **({"draws_when_called": drawing_options} if drawing_options is not None else {}),
                           **({"draws_when_applied": applied} if applied is not None else {}),
                           **({"with_state": True} if with_state else _result_dtype(name, layer, args, shape)),
                           **_traced_fields(name, module),
                           "measured_with": f"{package} {importlib.metadata.version(package)}"}
    return found


def _traced_fields(name, module):
    """{"traced_fields": {"arrays": [...], "holders": [...], "built_on_device": [...]}}: the public attributes
    of an NNX or Equinox layer that its framework's jit reads as tracers (``weight``) or holders of one
    (``BatchNorm``'s ``mean``), and those of the arrays that the layer built eagerly holds as device arrays
    (``eqx.nn.Linear(...).weight``); else {}."""
    import importlib
    import jax
    if name.startswith("flax.linen."):
        return {}
    jit = importlib.import_module("flax.nnx").jit if name.startswith("flax.nnx.") else \
        importlib.import_module("equinox").filter_jit
    found = {"arrays": [], "holders": []}

    def probe(layer):
        for attr in sorted(attr for attr in vars(module) if not attr.startswith("_")):
            value = getattr(layer, attr, None)
            kind = "arrays" if isinstance(value, jax.core.Tracer) else "holders" \
                if isinstance(getattr(value, "value", None), jax.core.Tracer) else None
            if kind:
                found[kind].append(attr)
    jit(probe)(module)
    found["built_on_device"] = [attr for attr in found["arrays"] if isinstance(getattr(module, attr), jax.Array)]
    return {"traced_fields": found} if found["arrays"] or found["holders"] else {}


def _draws_when_called(name, layer, args, module, shape):
    """The options ``layer`` was built with (its parameters that ``args`` fill) when calling what it
    built with ``key=`` draws from that key (two keys give two outputs: an Equinox dropout), else
    None: a layer whose call takes no ``key``, or ignores it."""
    import jax
    import jax.numpy as jnp

    call = getattr(type(module), "__call__", None)
    if not name.startswith("equinox.") or call is None or "key" not in inspect.signature(call).parameters:
        return None
    x = jnp.asarray(1) if shape == "index" else jnp.ones(shape)
    first, second = (module(x, key=jax.random.key(seed)) for seed in (0, 1))
    if bool(jnp.array_equal(first, second)):
        return None
    return list(inspect.signature(layer).parameters)[:len(args)]


def _draws_when_applied(name, layer, args, module, shape):
    """{"rngs": its ``rng_collection``, "options": [[option, the value it was built with]]} when a Linen
    layer built so, in a Module that ``apply`` is given a key in that collection, draws from it (two
    keys give two outputs: a dropout), else None."""
    import jax
    import jax.numpy as jnp

    collection = getattr(module, "rng_collection", None)
    if not name.startswith("flax.linen.") or type(collection) is not str:
        return None
    x = jnp.ones(shape)
    variables = module.init(jax.random.key(0), x)
    first, second = (module.apply(variables, x, rngs={collection: jax.random.key(seed)}) for seed in (1, 2))
    if bool(jnp.array_equal(first, second)):
        return None
    return {"rngs": collection, "options": [list(option) for option in zip(inspect.signature(layer).parameters, args)]}


def _draws_from_key(layer, args):
    """Whether building ``layer(*args, key=...)`` draws from its ``key``: two keys give two sets
    of weights (an Equinox layer's initialisation); False for a layer that takes no ``key``."""
    import jax
    import jax.numpy as jnp

    if "key" not in inspect.signature(layer).parameters:
        return False
    args = args[:-1] if args and type(args[-1]) is dict else args
    first, second = (jax.tree.leaves(layer(*args, key=jax.random.key(seed))) for seed in (0, 1))
    return any(a.shape == b.shape and not bool(jnp.array_equal(a, b))
               for a, b in zip(first, second) if isinstance(a, jax.Array))


def _gives_one_array(name, layer, args, shape):
    """(the layer ``layer(*args)``, whether it takes and gives a state) when, called on an input of
    ``shape`` in its framework's jit, it gives one JAX array, or an Equinox layer that takes a
    ``state`` it requires gives an array and an ``eqx.nn.State``; else (None, False): another tuple, a layer
    that cannot be built so, or one that fails."""
    import jax

    state = inspect.signature(layer.__call__).parameters.get("state") if name.startswith("equinox.") else None
    if state is not None and state.default is state.empty:  # LayerNorm's is optional: one array without it
        return _gives_array_and_state(name, layer, args, shape)

    try:
        module, out = _built_and_called(name, layer, args, _input(name, shape, "float32"))
    except Exception as exc:  # noqa: BLE001 - not measured: left out
        print(f"{name}: not measured ({type(exc).__name__}: {exc})"[:200], file=sys.stderr)
        return None, False
    return (module, False) if isinstance(out, jax.Array) else (None, False)


def _input(name, shape, dtype):
    """The input a layer is measured on: one index (an Equinox embedding's), indices, or ones of ``dtype``."""
    import jax.numpy as jnp

    return jnp.asarray(1) if shape == "index" else jnp.arange(3) if name in _INDICES else jnp.ones(shape, dtype)


def _built_and_called(name, layer, args, x, **dtypes):
    """(the layer built from ``args`` and the ``dtypes`` options, what it gives called on ``x`` in its
    framework's jit)."""
    import jax

    args, options = (args[:-1], dict(args[-1], **dtypes)) if args and type(args[-1]) is dict else (args, dtypes)
    if name.startswith("flax.linen."):
        module = layer(*args, **options)
        variables = module.init(jax.random.key(0), x)
        return module, jax.jit(_applied, static_argnums=0)(module, variables, x)
    if name.startswith("flax.nnx."):
        from flax import nnx
        module = layer(*args, rngs=nnx.Rngs(0), **options)
        return module, nnx.jit(_called)(module, x)
    import equinox as eqx
    keyed = "key" in inspect.signature(layer).parameters
    module = layer(*args, key=jax.random.key(0), **options) if keyed else layer(*args, **options)
    return module, eqx.filter_jit(_called_with_key if name.endswith("Dropout") else _called)(module, x)


def _applied(module, variables, x):
    """A Linen layer applied to ``x``, with a dropout key."""
    import jax

    return module.apply(variables, x, rngs={"dropout": jax.random.key(1)})


def _called(module, x):
    return module(x)


def _called_with_key(module, x):
    """An Equinox dropout called with its key."""
    import jax

    return module(x, key=jax.random.key(1))


def _result_dtype(name, layer, args, shape):
    """{"result_dtype": {"default": the dtype of what the layer gives whatever real input it is called on
    (float16, bfloat16 and float32 alike; None where it depends on it), "follows": the option whose dtype
    the result takes whatever the input (None: none does), "options": {every option whose name ends in
    ``dtype``: its position among the constructor's arguments}}}; {} for a layer that takes a state."""
    import jax.numpy as jnp

    signature = inspect.signature(layer.__init__ if name.startswith("flax.nnx.") else layer)
    names = [p for p in signature.parameters if p != "self"]
    options = {option: at for at, option in enumerate(names) if option.endswith("dtype")}
    inputs = ("int32",) if shape == "index" or name in _INDICES else ("float16", "bfloat16", "float32")

    def results(**asked):
        try:
            return {str(_built_and_called(name, layer, args, _input(name, shape, dtype), **asked)[1].dtype)
                    for dtype in inputs}
        except Exception:  # noqa: BLE001 - an option this layer refuses: it is followed by none
            return set()
    default = results()
    follows = [option for option in options
               if all(results(**{option: getattr(jnp, dtype)}) == {dtype} for dtype in ("bfloat16", "float16"))]
    return {"result_dtype": {"default": default.pop() if len(default) == 1 else None,
                             "follows": follows[0] if len(follows) == 1 else None, "options": options}}


def _gives_array_and_state(name, layer, args, shape):
    """``_gives_one_array`` of an Equinox layer that takes a state: built with
    ``eqx.nn.make_with_state``, called on a batch under ``eqx.filter_vmap`` with the axis name its
    arguments give, inside ``eqx.filter_jit``; (layer, True) when it gives an array and a State."""
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    try:
        module, state = eqx.nn.make_with_state(layer)(*args)
        batched = eqx.filter_vmap(lambda m, a, s: m(a, s), in_axes=(None, 0, None), out_axes=(0, None),
                                  axis_name=args[-1])
        out = eqx.filter_jit(batched)(module, jnp.ones((2, *shape)), state)
    except Exception as exc:  # noqa: BLE001 - not measured: left out
        print(f"{name}: not measured ({type(exc).__name__}: {exc})"[:200], file=sys.stderr)
        return None, False
    gives = type(out) is tuple and len(out) == 2 and isinstance(out[0], jax.Array) \
        and isinstance(out[1], eqx.nn.State)
    return (module, True) if gives else (None, False)
