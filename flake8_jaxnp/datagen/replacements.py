"""The one-to-one replacements of removed JAX names, in the words of those who removed them.

Part of the generator. A removed function gets a replacement only when a message names
exactly one public name to use instead and nothing else to change ("Use
jax.numpy.prod", "use jnp.trapezoid instead", "use jax.tree.map (jax v0.4.25 or
newer) or ..."), and the release history agrees: the installed JAX has that function
and it takes every call the old one took (the same parameters in the same order, any
new ones optional), the old one read from the last release that had it. The messages
are JAX's own deprecation text and, for ``jax.numpy``, NumPy's (NumPy's table of names
removed in 2.0 and the DeprecationWarning a deprecated function gives, "`row_stack`
alias is deprecated. Use `np.vstack` directly."). A message that asks for more ("use
jnp.sort(a, axis=0)", "with independent=True", "with a proper dtype"), a class, and a
function whose parameters differ (``device_put_replicated(x, devices)`` ->
``device_put(x, device)``) give none: the fixer leaves those findings alone.
"""
import inspect
import re
import warnings
from functools import lru_cache

from . import release_history

# "use NAME" followed by nothing more than "instead", "directly", a version note or an alternative.
_USE = re.compile(r"\b[Uu]se\s+`?(?P<name>[A-Za-z_][\w.]*[A-Za-z_0-9])`?(?P<rest>.*)$", re.DOTALL)
_ONLY_THE_NAME = re.compile(r"\s*((instead|directly)\s*)?([.;:]|$)|\s+\(jax v[\d.]+ or newer\)|\s+or\s")
_SHORT_MODULES = {"jnp": "jax.numpy", "np": "jax.numpy", "numpy": "jax.numpy"}


def replacements(removed, resolve):
    """{removed qualname: the installed JAX name to write instead} for the names of ``removed``
    (the generator's removed_names table) whose message names a one-to-one replacement."""
    found = {}
    for qualname, entry in sorted(removed.items()):
        name = qualname.rpartition(".")[2]
        for message in (entry["message"], *_numpy_messages(qualname)):
            replacement = named_replacement(message)
            if replacement is not None and replacement.startswith("jax.") and replacement not in removed \
                    and re.search(rf"\b{re.escape(name)}\b", message) \
                    and _takes_every_call(_old_parameters(qualname, entry, resolve), resolve(replacement)):
                found[qualname] = replacement
                break
    return found


def _old_parameters(qualname, entry, resolve):
    """[(name, kind, optional)] of the removed function: the installed one while it only warns,
    else its def in the last release that had it; None when it was not a function."""
    if not entry["raises"]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _parameters(resolve(qualname))
    if not entry["last"]:
        return None
    definition = _release(entry["last"]).definition(qualname)
    if definition is None:
        return None
    arguments = definition.args
    positional = [*arguments.posonlyargs, *arguments.args]
    first_default = len(positional) - len(arguments.defaults)
    found = [(arg.arg, inspect.Parameter.POSITIONAL_ONLY if index < len(arguments.posonlyargs)
              else inspect.Parameter.POSITIONAL_OR_KEYWORD, index >= first_default)
             for index, arg in enumerate(positional)]
    if arguments.vararg:
        found.append((arguments.vararg.arg, inspect.Parameter.VAR_POSITIONAL, True))
    found += [(arg.arg, inspect.Parameter.KEYWORD_ONLY, default is not None)
              for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults)]
    if arguments.kwarg:
        found.append((arguments.kwarg.arg, inspect.Parameter.VAR_KEYWORD, True))
    return found


@lru_cache(maxsize=None)
def _release(version):
    return release_history.Namespace(release_history.sources(release_history.archive(version)))


def _parameters(func):
    """[(name, kind, optional)] of an installed function, or None (not a function, no signature)."""
    if not callable(func) or inspect.isclass(func):
        return None
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    return [(p.name, p.kind, p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD))
            for p in signature.parameters.values()]


def _takes_every_call(old, new_func):
    """Whether the new function takes the old one's parameters, in order and of the same kinds
    (optional where they were), and needs no other."""
    new = _parameters(new_func)
    if old is None or new is None or len(new) < len(old):
        return False
    same = all(o[:2] == n[:2] and (n[2] or not o[2]) for o, n in zip(old, new))
    return same and all(optional for _, _, optional in new[len(old):])


def named_replacement(message):
    """The one dotted name ``message`` says to use instead, spelt in full, or None."""
    match = _USE.search(message)
    if match is None or "." not in match["name"] or not _ONLY_THE_NAME.match(match["rest"]):
        return None
    head, _, tail = match["name"].partition(".")
    return f"{_SHORT_MODULES.get(head, head)}.{tail}"


def _numpy_messages(qualname):
    """NumPy's words about ``jax.numpy.NAME``'s NumPy twin: its removal note, or the warning
    the deprecated function gives when called."""
    module, _, name = qualname.rpartition(".")
    if module != "jax.numpy":
        return ()
    import numpy as np
    from numpy._expired_attrs_2_0 import __expired_attributes__

    if name in __expired_attributes__:
        return (__expired_attributes__[name],)
    func = getattr(np, name, None)
    if not callable(func):
        return ()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            func(np.ones((2, 2)))
        except Exception:  # noqa: BLE001 - only the warning matters
            pass
    return tuple(str(warning.message) for warning in caught if issubclass(warning.category, DeprecationWarning))
