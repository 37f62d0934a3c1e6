"""Which arguments of a control-flow call reach which parameters of the functions it calls.

Part of the generator: ``jax.lax.cond(pred, f, g, model, x)`` calls ``f(model, x)``, so what class
``model`` holds is what class ``f``'s first parameter holds. Measured by calling each control-flow
function (``tables.lax_bodies``' names) with plain values, one of them wrapped in a pytree class
that carries its argument position as static data, and recording which parameter of which body
receives that class back.
"""
import dataclasses
import inspect
import itertools

from .tables import quiet

# How many operands fill a ``*operands`` parameter (``cond``, ``switch``) in the probe calls.
OPERANDS = 3


def body_operands(resolve, bodies, run=None):
    """{dotted name: {body position: {parameter index: argument position}}} for the functions of
    ``bodies`` ({dotted name: body positions}) that pass an argument on to a body parameter, as an
    object of the argument's own class; each parameter that only ever received one argument's
    object. Under ``jax.make_jaxpr``, or under ``run`` (``flax.nnx.cond`` called eagerly)."""
    import jax
    import jax.numpy as jnp

    @dataclasses.dataclass
    class Marked:
        position: int
        value: object

    jax.tree_util.register_dataclass(Marked, data_fields=["value"], meta_fields=["position"])
    values = (True, 0, jnp.ones(3))
    found = {}
    for qualname, positions in bodies.items():
        module, _, name = qualname.rpartition(".")
        func = getattr(resolve(module), name)
        params = list(inspect.signature(func).parameters.values())
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        slots = [i for i, p in enumerate(positional) if i not in positions and p.default is p.empty]
        if any(p.kind is p.VAR_POSITIONAL for p in params):
            slots += range(len(positional), len(positional) + OPERANDS)
        seen = {}  # (body position, parameter index) -> argument positions received
        for plain in itertools.product(values, repeat=len(slots)):
            for marked in slots:
                for returns in itertools.product((True, False), repeat=len(positions)):
                    arguments = dict(zip(slots, plain))
                    arguments[marked] = Marked(marked, arguments[marked])
                    _call(func, positions, arguments, returns, seen, Marked, run or jax.make_jaxpr)
        mapping = {}
        for (body, index), received in sorted(seen.items()):
            if len(received) == 1:
                mapping.setdefault(str(body), {})[str(index)] = received.pop()
        if mapping:
            found[qualname] = mapping
    return found


def _call(func, positions, arguments, returns, seen, marked_class, run):
    """Call ``func`` with recording bodies at ``positions`` (each returning its last argument, the
    carry, or False, a loop's condition) and ``arguments`` elsewhere; a call that fails says nothing."""
    import jax.numpy as jnp

    def recorder(body, carry):
        def record(*args):
            for index, value in enumerate(args):
                if isinstance(value, marked_class):
                    seen.setdefault((body, index), set()).add(value.position)
            return args[-1] if carry and args else jnp.zeros((), bool)
        return record

    args = [None] * (max([*positions, *arguments]) + 1)
    for body, carry in zip(positions, returns):
        args[body] = recorder(body, carry)
    for index, value in arguments.items():
        args[index] = value
    args = [[a, a] if i in positions and _takes_many(func, i) else a for i, a in enumerate(args)]
    try:
        quiet(run(lambda: func(*args)))
    except Exception:  # noqa: BLE001 - a bad combination of plain values
        pass


def _takes_many(func, index):
    """Whether the function parameter at ``index`` takes a list of functions (``switch``'s branches)."""
    positional = [p for p in inspect.signature(func).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return "Sequence" in str(positional[index].annotation) or positional[index].name == "branches"
