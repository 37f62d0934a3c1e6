"""The one-to-one replacements of removed JAX names, in the words of those who removed them.

Part of the generator. A removed name gets a replacement only when a message names
exactly one public name to use instead and nothing else to change ("Use
jax.numpy.prod", "use jnp.trapezoid instead", "use jax.tree.map (jax v0.4.25 or
newer) or ..."), and the installed JAX has that name. The messages are JAX's own
deprecation text and, for ``jax.numpy``, NumPy's (NumPy's table of names removed in
2.0 and the DeprecationWarning a deprecated function gives, "`row_stack` alias is
deprecated. Use `np.vstack` directly."). A message that asks for more ("use
jnp.sort(a, axis=0)", "with independent=True", "with a proper dtype") gives none:
then the fix would not be one-to-one, so the fixer leaves the finding alone.
"""
import re
import warnings

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
                    and re.search(rf"\b{re.escape(name)}\b", message) and resolve(replacement) is not None:
                found[qualname] = replacement
                break
    return found


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
