"""Which values of a watched module are jitted functions: jax.jit's, and the wrappers that the
frameworks' compiling transforms return (``eqx.filter_jit``, ``nnx.jit``), found by applying each
transform ``jax_api.json`` measured as cached and abstract, of a framework the run has imported."""
import importlib
import sys
import types
from functools import lru_cache

from .. import api


def jit_wrapper_types():
    """(module, name) of the wrapper classes of the compiling transforms of the frameworks imported
    now: asked once for the values of a module (``is_jitted``'s ``wrappers``)."""
    return _wrapper_types(tuple(name for name, measured in api.framework_transforms().items() if measured["cached"]
                                and measured["abstract"] and name.partition(".")[0] in sys.modules))


def is_jitted(value, wrappers):
    """Whether calls of ``value`` run compiled code that jit-style caching reuses (``wrappers``:
    ``jit_wrapper_types()``)."""
    kind = type(value)
    return kind.__name__ == "PjitFunction" or (kind.__module__, kind.__qualname__) in wrappers


@lru_cache(maxsize=None)
def _wrapper_types(names):
    """(module, name) of the classes of the objects these transforms return for a function (by
    name: Equinox makes a class per wrapped function); a transform that returns a plain function is
    not told apart from the user's functions, so it is left out."""
    found = set()
    for name in names:
        module, _, attribute = name.rpartition(".")
        try:
            wrapper = getattr(importlib.import_module(module), attribute)(_identity)
        except Exception:  # noqa: BLE001 - a transform that cannot wrap a plain function wraps none here
            continue
        if not isinstance(wrapper, (types.FunctionType, types.MethodType)):
            found.add((type(wrapper).__module__, type(wrapper).__qualname__))
    return frozenset(found)


def _identity(x):
    return x
