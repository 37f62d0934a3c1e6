"""Which callables trace the function they are given, and how, learned by running them.

Part of the generator (``python -m flake8_jaxnp.datagen``): each candidate is called on a
recording function, in each of the ways JAX's transforms take the function's arguments, to see
whether the function sees tracers, whether they are abstract, whether the trace is cached, and
what the call gives, which option leaves an argument unmapped and concrete; a transform's positional
options come from its signature.
"""
import inspect

from .tables import abstract_tracer, has_tracer, quiet

# Namespaces searched for function transforms (callables whose first parameter is a function).
TRANSFORM_MODULES = ("jax", "jax.experimental.pjit", "jax.ad_checkpoint", "jax.experimental.checkify")
FUNCTION_PARAMETERS = ("fun", "f", "fn")


# How a transform is given the function's arguments: ``transform(f)(x)`` ("later"), ``transform(f, x)``
# ("after": ``jax.vjp``, ``jax.linearize``, ``jax.eval_shape``), ``transform(f, (x,), (t,))`` ("tuple": ``jax.jvp``).
CALL_SHAPES = {
    "later": lambda transform, body, data: transform(body)(data),
    "after": lambda transform, body, data: transform(body, data),
    "tuple": lambda transform, body, data: transform(body, (data,), (data,)),
}


def transforms(resolve, public):
    """{qualname: {"abstract", "cached", "arrays", "computes", "arguments"[, "functions"]}} for callables that trace
    the function they are given.

    A candidate is given ``body`` and ``data`` in each of ``CALL_SHAPES`` until one runs; calling
    it twice shows whether ``body`` sees tracers (or computes them from what it is given, as under
    ``checkify``), whether a Python truth test fails on them (abstract), whether the second call
    skips the Python body (cached), whether the call gives one JAX array (``arrays``), whether its
    result holds arrays at all (``computes``: ``make_jaxpr`` and ``eval_shape`` give descriptions,
    computing nothing), which shape passed the arguments (``arguments``), and the positions of the
    result tuple that hold a function the call makes anew, another object on the second call
    (``functions``: ``jax.vjp``'s pullback, not what ``jax.closure_convert`` keeps in its cache), and
    the option that gives each argument its axis, ``None`` leaving it concrete (``unmapping_option``).
    """
    import jax
    import jax.numpy as jnp

    found = {}
    for modname in TRANSFORM_MODULES:
        module = resolve(modname)
        for name in public(module) + _still_working_deprecations(module):
            transform = quiet(getattr, module, name)
            if not callable(transform) or inspect.isclass(transform) or not _takes_function_first(transform):
                continue
            runs, tracers, abstract = [], [], []

            def body(x):
                runs.append(1)
                tracers.append(has_tracer(x) or has_tracer(x * 1))
                abstract.append(abstract_tracer(x.sum()))  # (checkify traces what x computes, not x)
                return (x * x).sum()

            data = jnp.ones((1, 3))  # a leading axis of one device, for pmap
            for shape, call in CALL_SHAPES.items():
                runs.clear(), tracers.clear(), abstract.clear()
                try:
                    result = quiet(call, transform, body, data)
                    again = quiet(call, transform, body, data)
                except Exception:  # noqa: BLE001 - not a transform of this shape
                    continue
                if runs and all(tracers):
                    leaves = jax.tree_util.tree_leaves(result)
                    found[f"{modname}.{name}"] = facts = {
                        "abstract": all(abstract), "cached": len(runs) == 1, "arrays": isinstance(result, jax.Array),
                        "computes": any(isinstance(leaf, jax.Array) for leaf in leaves), "arguments": shape}
                    made = [i for i, part in enumerate(result) if callable(part) and again[i] is not part] \
                        if type(result) is tuple else []  # (jax.closure_convert gives the same one again: cached)
                    if made:
                        facts["functions"] = made
                    if shape == "later" and (option := unmapping_option(transform)):
                        facts["unmapping_option"] = option
                break
    return found


def _still_working_deprecations(module):
    """Deprecated names a module still serves (through ``__getattr__``, so ``dir`` omits them)."""
    return sorted(name for name, (_, obj) in getattr(module, "_deprecations", {}).items() if obj is not None)


def _takes_function_first(func):
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return False
    return bool(params) and params[0].name in FUNCTION_PARAMETERS


def unmapping_option(transform):
    """The keyword of ``transform`` that gives each argument of the function its axis, an argument
    given ``None`` reaching the function concrete (``vmap``'s ``in_axes``; ``pmap``'s broadcasts a
    tracer): the one with which a truth test on the first of two arguments runs when given
    ``(None, 0)`` and fails when given ``(0, None)``. None when no keyword does."""
    import jax.numpy as jnp

    def body(a, b):
        return jnp.sum(b) if jnp.sum(a) > 0 else jnp.sum(b * 2.0)

    def runs(keyword, axes):
        try:
            quiet(lambda: transform(body, **{keyword: axes})(data, data))
        except Exception:  # noqa: BLE001 - not this keyword, or the argument is traced
            return False
        return True

    data = jnp.ones((1, 3))
    params = list(inspect.signature(transform).parameters.values())[1:]
    return next((p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                 and runs(p.name, (None, 0)) and not runs(p.name, (0, None))), None)


def positional_options(transform_names, resolve):
    """{transform: [names]}: options a transform also accepts by position, after the function."""
    options = {}
    for qualname in transform_names:
        params = list(inspect.signature(resolve(qualname)).parameters.values())[1:]
        positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if positional:
            options[qualname] = positional
    return options
