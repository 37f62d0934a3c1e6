"""Which arguments of JAX's functions are functions they call with tracers, learned by running them.

Part of the generator (``python -m flake8_jaxnp.datagen``): ``jax.lax``'s control flow traces its
bodies (``lax_bodies``), and so do some array functions that map the function they are given
(``jnp.apply_along_axis`` vmaps it: ``array_function_bodies``), while others call theirs on concrete
arrays (``jnp.apply_over_axes``), which only running them tells apart.
"""
from ..facts import JAX_ARRAY_MODULES
from .tables import functions_with_parameters, has_tracer, quiet


def plain_values(matrix=False):
    """The plain arguments the probes draw from; the last is the operand of a ``*operands``. With
    ``matrix`` a matrix joins them: a function mapped along one axis of a vector runs once, unmapped."""
    import jax.numpy as jnp

    return (True, 0, jnp.ones((2, 3)), jnp.ones(3)) if matrix else (True, 0, jnp.ones(3))


def lax_bodies(resolve, public, module="jax.lax", run=None, values=None):
    """{qualname: [positions]}: arguments of ``module``'s functions that it calls with tracers
    (under ``jax.make_jaxpr``, or under ``run``: ``flax.nnx.cond`` called eagerly).

    The signature proposes the parameters (annotated Callable, or named like a
    function); a call with a recording function there, the other arguments
    drawn from ``values`` (``plain_values``), confirms which are traced. The recording
    function returns its last argument, which satisfies the loops' contracts
    (carry in, carry out) well enough to reach every body.
    """
    values = values or plain_values()
    found = {}
    for name, func, params in functions_with_parameters(resolve(module), public):
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        candidates = [i for i, p in enumerate(positional) if _looks_callable(p)]
        if not candidates:
            continue
        traced = set()
        for filled, choices in _argument_plans(positional, candidates, values):
            traced |= _traced_positions(func, params, positional, candidates, filled, choices, values[-1], run)
            if traced == set(candidates):
                break
        if traced:
            found[f"{module}.{name}"] = sorted(traced)
    return found


def array_function_bodies(resolve, public):
    """{qualname: [positions]} for the functions of JAX's array modules outside ``jax.lax`` that,
    called eagerly, call a function given to them with tracers (``jnp.apply_along_axis``)."""
    found = {}
    for module in JAX_ARRAY_MODULES:
        if module != "jax.lax":
            found.update(lax_bodies(resolve, public, module, run=lambda thunk: thunk, values=plain_values(matrix=True)))
    return found


def traced_per_function(resolve, bodies, values=None):
    """The functions of ``bodies`` ({qualname: body positions}) that trace their bodies again when
    given new functions of the same code, not when given the same ones again: a def or lambda made
    anew on each call of the code calling them is traced (and, outside jit, compiled) on every call.
    Measured by counting the traced calls of two such calls under ``jax.make_jaxpr``."""
    import inspect

    import jax

    values = values or plain_values()
    found = []
    for qualname, positions in bodies.items():
        module, _, name = qualname.rpartition(".")
        func = getattr(resolve(module), name)
        params = list(inspect.signature(func).parameters.values())
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        plans = ((filled, choice, options, pair) for filled, options in _argument_plans(positional, positions, values)
                 for choice in _assignments([len(c) for c in options]) for pair in (False, True))
        for filled, choice, options, pair in plans:
            counts = []

            def functions():
                def record(*a):  # gives back its last argument, or (as a scan's step must) a pair
                    counts.append(has_tracer(a))
                    return (a[0], a[-1]) if pair and len(a) == 2 else a[-1] if a else 0
                return [[record, record] if takes_many(positional[i]) else record for i in positions]

            def call(bodies):
                args = [None] * (max(positions + filled) + 1)
                for index, body in zip(positions, bodies):
                    args[index] = body
                for index, option, pick in zip(filled, options, choice):
                    args[index] = option[pick]
                if any(p.kind is p.VAR_POSITIONAL for p in params):
                    args.append(values[-1])
                return func(*args)

            try:
                same = functions()
                quiet(jax.make_jaxpr(lambda: (call(same), call(same))))
                once, counts[:] = sum(counts), []
                quiet(jax.make_jaxpr(lambda: (call(functions()), call(functions()))))
            except Exception:  # noqa: BLE001 - a bad combination of plain values
                continue
            if once and sum(counts) > once:
                found.append(qualname)
                break
    return sorted(found)


def takes_many(param):
    """Whether a function parameter takes a list of functions (``switch``'s branches)."""
    return "Sequence" in str(param.annotation) or param.name == "branches"


def _argument_plans(positional, candidates, values):
    """The required parameters with plain values; then also those defaulting to None."""
    required = [i for i, p in enumerate(positional) if p.default is p.empty and i not in candidates]
    optional = [i for i, p in enumerate(positional) if p.default is None and i not in candidates]
    yield required, [values] * len(required)
    if optional:
        yield required + optional, [values] * len(required) + [(None,) + values] * len(optional)


def _traced_positions(func, params, positional, candidates, filled, choices, operand, run):
    """Candidate positions that received tracers in some call with these plain values."""
    import jax

    traced = set()
    for choice in _assignments([len(c) for c in choices]):
        calls = {}
        args = [None] * (max(candidates + filled) + 1)
        for index in candidates:
            def record(*a, _index=index):
                if has_tracer(a):
                    calls[_index] = True
                return a[-1] if a else 0
            args[index] = [record, record] if takes_many(positional[index]) else record
        for index, options, pick in zip(filled, choices, choice):
            args[index] = options[pick]
        if any(p.kind is p.VAR_POSITIONAL for p in params):
            args.append(operand)
        try:
            quiet((run or jax.make_jaxpr)(lambda: func(*args)))
        except Exception:  # noqa: BLE001 - a bad combination of plain values
            pass
        traced |= set(calls)
        if traced == set(candidates):
            break
    return traced


def _looks_callable(param):
    annotation = str(param.annotation)
    return "Callable" in annotation or param.name in ("f", "fn", "fun", "body", "branches", "computation") \
        or param.name.endswith("_fun")


def _assignments(sizes):
    """Every choice of one index per argument, the argument having ``sizes[i]`` options."""
    if not sizes:
        return [()]
    return [(pick,) + rest for pick in range(sizes[0]) for rest in _assignments(sizes[1:])]
