"""Functions whose result size depends on their data unless a keyword fixes it (``jnp.where(c)``,
``jnp.unique``, ``jax.ops.segment_sum`` without ``num_segments``), measured by running them."""
import inspect

# The namespaces probed besides jax.numpy: jax.ops holds the segment reductions.
SIZED_MODULES = ("jax.ops",)


def size_functions(candidates, resolve, unsafe):
    """{qualname: {"keyword", "keyword_index", "positions", "names", "staged"}}: functions that stage
    under jit only when ``keyword`` is given (they fail without it), its index where it may be passed
    positionally (else None), the positions (and their parameters' names) whose being traced alone
    (under vmap, the others concrete) makes them fail too, and whether they fail staged on NumPy
    constants."""
    import jax
    import numpy as np

    probe = np.array([0, 1, 1], dtype=np.int32)
    result = {}
    for qualname in candidates:
        func = resolve(qualname)
        optional = _optional_keywords(func) if qualname.rpartition(".")[2] not in unsafe else None
        count = _required_positionals(func) if optional else 0
        args = [probe] * count
        if not count or _fails(lambda: func(*args)) or not _fails(lambda: jax.make_jaxpr(func)(*args)):
            continue
        keyword = next((k for k in optional if not _fails(lambda: jax.make_jaxpr(
            lambda *a: func(*a, **{k: len(probe)}))(*args))), None)
        if keyword is not None:
            positions = [p for p in range(count) if _fails(lambda: jax.vmap(
                lambda traced: func(*args[:p], traced, *args[p + 1:]))(np.stack([probe, probe])))]
            names = list(inspect.signature(func).parameters)
            result[qualname] = {"keyword": keyword, "keyword_index": _positional_index(func, keyword),
                                "positions": positions, "names": [names[p] for p in positions],
                                "staged": _fails(lambda: jax.make_jaxpr(lambda: func(*args))())}
    return result


def _optional_keywords(func):
    """The parameters defaulting to None (where a size keyword is found), or None for no signature."""
    if not callable(func) or inspect.isclass(func):
        return None
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    return [p.name for p in params if p.default is None and p.kind is not p.POSITIONAL_ONLY] or None


def _positional_index(func, name):
    params = list(inspect.signature(func).parameters.values())
    index = next(i for i, p in enumerate(params) if p.name == name)
    return index if params[index].kind is params[index].POSITIONAL_OR_KEYWORD else None


def _required_positionals(func):
    params = inspect.signature(func).parameters.values()
    required = [p for p in params if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(required) if len(required) <= 3 else 0


def _fails(thunk):
    """Whether running ``thunk`` raises (any error: the probe stops at the first)."""
    try:
        thunk()
    except Exception:  # noqa: BLE001 - any failure counts as failing
        return True
    return False
