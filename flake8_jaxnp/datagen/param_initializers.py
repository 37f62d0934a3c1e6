"""Measure the dtype of what Linen's ``self.param(name, init, shape, ...)`` gives for each initializer
of the initializer namespaces (``nn.initializers.ones``, ``jax.nn.initializers.zeros``) or what their
factories build (``nn.initializers.normal(0.02)``): its dtype when nothing asks for one, and which
argument asks for another (``self.param("s", ones, shape, jnp.float16)``, ``normal(dtype=...)``)."""
import importlib.metadata
import inspect

from .framework_functions import recorded

KEY = "framework_param_initializers"
NAMESPACES = ("flax.linen.initializers", "jax.nn.initializers")
# What a factory is built with, tried in turn: nothing, then one number (``constant(0.1)``).
FACTORY_ARGUMENTS = ((), (0.5,))
# The parameter's shape in the probe, and the dtype asked for, unlike any default, after it:
# ``self.param(name, init, SHAPE, ASKED)`` (its position there, ``DTYPE_AT``).
SHAPE, ASKED, DTYPE_AT = (3, 2), "float16", 3


def framework_param_initializers(data_file, resolve):
    """{dotted name: {"default", "dtype_at", "dtype_honoured", "factory", "measured_with"}}: ``default``
    the dtype of ``self.param(name, init, SHAPE)``; ``dtype_honoured`` whether the parameter takes the
    dtype given after the shape, at ``dtype_at`` among ``self.param``'s arguments; for a factory
    (``factory``: how many positional arguments it was built with), ``dtype_keyword`` whether
    ``dtype=`` given to the factory sets it.
    A namespace not installed keeps its entries from ``data_file``."""
    previous, found = recorded(data_file, KEY), {}
    module, compact = resolve("flax.linen.Module"), resolve("flax.linen.compact")
    for namespace in NAMESPACES:
        names = resolve(namespace)
        if names is None or module is None:
            found.update({name: entry for name, entry in previous.items() if name.startswith(namespace + ".")})
            continue
        version = f"flax {importlib.metadata.version('flax')}"
        for attr in sorted(a for a in dir(names) if not a.startswith("_")):
            entry = _measure(module, compact, getattr(names, attr))
            if entry is not None:
                found[f"{namespace}.{attr}"] = dict(entry, measured_with=version)
    return found


def _measure(module, compact, func):
    if inspect.isclass(func) or not callable(func):
        return None
    direct = _dtypes(module, compact, func)
    if direct is not None:
        return dict(direct, factory=None)
    for args in FACTORY_ARGUMENTS:
        try:
            init = func(*args)
        except Exception:  # noqa: BLE001 - not built from these arguments
            continue
        built = _dtypes(module, compact, init) if callable(init) else None
        if built is None:
            return None
        try:
            asked = _dtypes(module, compact, func(*args, dtype=ASKED))
        except Exception:  # noqa: BLE001 - takes no dtype
            asked = None
        return dict(built, factory=len(args), dtype_keyword=asked is not None and asked["default"] == ASKED)
    return None


def _dtypes(module, compact, init):
    """{"default", "dtype_at"} of ``self.param`` with ``init`` in a compact ``__call__`` of a subclass of
    ``module``, applied by ``jax.jit(model.apply)`` to what its ``init`` gave; None where it fails."""
    import jax
    import jax.numpy as jnp

    given = {}

    def probe(*extra):
        class Probe(module):
            @compact
            def __call__(self, x):
                given["dtype"] = str(self.param("p", init, SHAPE, *extra).dtype)
                return x

        model = Probe()
        jax.jit(model.apply)(model.init(jax.random.key(0), jnp.ones(2)), jnp.ones(2))
        return given["dtype"]

    try:
        default = probe()
    except Exception:  # noqa: BLE001 - not an initializer
        return None
    try:
        asked = probe(ASKED)
    except Exception:  # noqa: BLE001 - takes no dtype there
        asked = None
    return {"default": default, "dtype_at": DTYPE_AT, "dtype_honoured": asked == ASKED != default}
