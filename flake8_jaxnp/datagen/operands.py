"""Which arguments of a control-flow call reach which parameters of the functions it calls.

Part of the generator: ``jax.lax.cond(pred, f, g, model, x)`` calls ``f(model, x)``, so what class
``model`` holds is what class ``f``'s first parameter holds. Measured by calling each control-flow
function (``bodies.lax_bodies``' names) with plain values, one of them wrapped in a pytree class
that carries its argument position as static data, and recording which parameter of which body
receives that class back; and how many tracers each body receives (``body_calls``).
"""
import dataclasses
import inspect
import itertools

from .bodies import plain_values, takes_many
from .tables import abstract_tracer, quiet

# How many operands fill a ``*operands`` parameter (``cond``, ``switch``) in the probe calls.
OPERANDS = 3
# What a recording body returns: its last argument (a loop's carry), False (a loop's condition), or
# the pair of its first argument and its last (a scan step's ``(carry, y)``).
CARRY, CONDITION, STEP = "carry", "condition", "step"
# How many body runs an eager probe call watches (``body_carries``) before stopping the loop.
RUNS = 6
# The ints ``body_steps`` gives a loop's int parameters: the first two one apart, to see the runs change
# by one, and one above both (``fori_loop``'s lower bound changed under it).
STEPS = (2, 3, 5)


def body_operands(resolve, bodies, run=None):
    """{dotted name: {body position: {parameter index: argument position}}} for the functions of
    ``bodies`` ({dotted name: body positions}) that pass an argument on to a body parameter, as an
    object of the argument's own class; each parameter that only ever received one argument's
    object. The arguments given: the required ones, and the optional ones whose default is None
    (``scan``'s ``xs``), None among their values. Under ``jax.make_jaxpr``, or under ``run``
    (``flax.nnx.cond`` called eagerly)."""
    import jax

    marked_class = _tagged_class()

    def observe(body, args):
        for index, value in enumerate(args):
            if isinstance(value, marked_class):
                seen.setdefault((body, index), set()).add(value.tag)

    values = plain_values()
    found = {}
    for qualname, positions in bodies.items():
        module, _, name = qualname.rpartition(".")
        func = getattr(resolve(module), name)
        params, positional = list(inspect.signature(func).parameters.values()), _positional(func)
        slots = {i: values if p.default is p.empty else (None, *values) for i, p in enumerate(positional)
                 if i not in positions and (p.default is p.empty or p.default is None)}
        if any(p.kind is p.VAR_POSITIONAL for p in params):
            slots.update((i, values) for i in range(len(positional), len(positional) + OPERANDS))
        seen = {}  # (body position, parameter index) -> argument positions received
        for plain in itertools.product(*slots.values()):
            for marked in slots:
                for returns in itertools.product((CARRY, CONDITION, STEP), repeat=len(positions)):
                    arguments = dict(zip(slots, plain))
                    arguments[marked] = marked_class(marked, arguments[marked])
                    _call(func, positions, arguments, returns, observe, run or jax.make_jaxpr)
        mapping = {}
        for (body, index), received in sorted(seen.items()):
            if len(received) == 1:
                mapping.setdefault(str(body), {})[str(index)] = received.pop()
        if mapping:
            found[qualname] = mapping
    return found


def body_calls(resolve, bodies, run=None):
    """{dotted name: {"given": n, "receives": {body position: count}, "when": {position: literal}}}:
    how many arguments a body receives, every one an abstract tracer (a truth test on it fails), when
    the call is given its ``n`` required positional arguments alone, the same count in every call
    that ran; or only in the calls that gave an int literal at one position (``apply_along_axis(f, 1,
    x)`` maps ``f(row)`` over a matrix's rows, while along axis 0 of a vector it runs ``f`` on it once)."""
    import jax

    values = (*plain_values(matrix=True), 1, (2,), (2, 3))  # ints for the literals; shapes of two lengths
    found = {}
    for qualname, positions in bodies.items():
        module, _, name = qualname.rpartition(".")
        func = getattr(resolve(module), name)
        required = [i for i, p in enumerate(_positional(func)) if p.default is p.empty]
        slots = [i for i in required if i not in positions]
        runs, received = [], {}  # (the plain arguments, {body: count, None when not all abstract tracers})

        def observe(body, args):
            count = len(args) if args and all(map(abstract_tracer, args)) else None
            received[body] = count if received.get(body, count) == count else None

        for plain in itertools.product(values, repeat=len(slots)):
            for returns in itertools.product((CARRY, CONDITION), repeat=len(positions)):
                received.clear()
                if _call(func, positions, dict(zip(slots, plain)), returns, observe, run or jax.make_jaxpr):
                    runs.append((dict(zip(slots, plain)), dict(received)))
        conditions = [{}] + [{slot: value} for slot in slots for value in values if type(value) is int]
        for when in conditions if set(positions) <= set(required) else ():
            counts = {}
            for plain, seen in runs:
                if all(plain[slot] is value for slot, value in when.items()):
                    for body in positions:
                        counts.setdefault(body, set()).add(seen.get(body))
            receives = {str(body): count.pop() for body, count in counts.items() if count not in ({None}, set())
                        and len(count) == 1}
            if receives:
                found[qualname] = {"given": len(required), "receives": receives,
                                   "when": {str(slot): value for slot, value in when.items()}}
                break
    return found


def body_carries(resolve, bodies):
    """{dotted name: {body position: {result position: parameter index}}}: the part of what a body
    returns (its index in the returned pair, -1 for all of it) that the call hands back to a parameter
    of the same body on its next run, always that one (``scan``'s step returns ``(carry, y)`` and gets
    ``carry`` first on the next step). Measured eagerly (under ``jax.disable_jit`` the loops run their
    bodies in Python), each returned part wrapped in a pytree class that holds where it was returned."""
    returned_class = _tagged_class()

    def observe(body, args):
        for index, value in enumerate(args):
            if isinstance(value, returned_class) and value.tag[0] == body:
                seen.setdefault(value.tag, set()).add(index)
        runs.append(body)
        if len(runs) > RUNS:
            raise RuntimeError("enough runs seen")  # a loop whose condition the probe keeps true

    values = (*plain_values(), 2)  # a loop bound of two runs a body twice
    found = {}
    for qualname, positions in bodies.items():
        module, _, name = qualname.rpartition(".")
        func = getattr(resolve(module), name)
        slots = {i: values if p.default is p.empty else (None, *values) for i, p in enumerate(_positional(func))
                 if i not in positions and (p.default is p.empty or p.default is None)}
        seen = {}  # (body position, result position) -> the parameter indices it reached
        for plain in itertools.product(*slots.values()):
            for returns in itertools.product((CARRY, CONDITION, STEP), repeat=len(positions)):
                runs = []
                _call(func, positions, dict(zip(slots, plain)), returns, observe, _eagerly,
                      lambda body, at, value: returned_class((body, at), value))
        for (body, at), reached in sorted(seen.items()):
            if len(reached) == 1:
                found.setdefault(qualname, {}).setdefault(str(body), {})[str(at)] = reached.pop()
    return found


def body_steps(resolve, bodies):
    """{dotted name: {parameter: [position, sign]}}: the int arguments whose values set how many times a
    loop of one body runs it, as the sum of each value times its sign (``fori_loop``'s ``upper -
    lower``, ``scan``'s ``length``). Measured eagerly: a parameter counts where each change of it from
    ``STEPS[0]`` to ``STEPS[1]``, the other arguments the same, changed the runs by the same one, up or
    down, among the changes where the body ran both times (a loop of no step is no less than empty)."""
    values = (*plain_values(), *STEPS)
    found = {}
    for qualname, positions in ((q, p) for q, p in bodies.items() if len(p) == 1):
        module, _, name = qualname.rpartition(".")
        func = getattr(resolve(module), name)
        params = _positional(func)
        slots = {i: values if p.default is p.empty else (None, *values) for i, p in enumerate(params)
                 if i not in positions and (p.default is p.empty or p.default is None)}
        runs = {}  # the indices of the values given, slot by slot -> how many times the body ran
        for chosen in itertools.product(*(range(len(given)) for given in slots.values())):
            for returns in ((CARRY,), (STEP,)):
                counted = []
                arguments = {slot: slots[slot][index] for slot, index in zip(slots, chosen)}
                if chosen not in runs and _call(func, positions, arguments, returns,
                                                lambda body, args: counted.append(body), _eagerly):
                    runs[chosen] = len(counted)
        for at, slot in enumerate(slots):
            first = len(slots[slot]) - len(STEPS)  # the index of STEPS[0], STEPS[1] the next
            changed = {chosen: chosen[:at] + (first + 1,) + chosen[at + 1:] for chosen in runs if chosen[at] == first}
            changes = {runs[after] - runs[before] for before, after in changed.items()
                       if runs[before] and runs.get(after)}
            if changes in ({1}, {-1}):
                found.setdefault(qualname, {})[params[slot].name] = [slot, changes.pop()]
    return found


def _tagged_class():
    """A pytree class holding ``value`` as its data and ``tag`` as static data, which the control-flow
    calls hand on unchanged: the probes tag an argument (or a returned part) with where it came from."""
    import jax

    @dataclasses.dataclass
    class Tagged:
        tag: object
        value: object

    jax.tree_util.register_dataclass(Tagged, data_fields=["value"], meta_fields=["tag"])
    return Tagged


def _eagerly(function):
    """``function`` to be run under ``jax.disable_jit``."""
    import jax

    def run():
        with jax.disable_jit():
            return function()
    return run


def _call(func, positions, arguments, returns, observe, run, returned=lambda body, at, value: value):
    """Call ``func`` with recording bodies at ``positions`` (each handing ``observe`` its position and
    arguments, and returning what ``returns`` says: CARRY, CONDITION or STEP, each part as ``returned``
    gives it for its body and index) and ``arguments`` elsewhere; whether the call ran (one that fails
    says nothing)."""
    import jax.numpy as jnp

    def recorder(body, gives):
        def record(*args):
            observe(body, args)
            if gives == CONDITION or not args:
                return jnp.zeros((), bool)
            if gives == STEP:
                return returned(body, 0, args[0]), returned(body, 1, args[-1])
            return returned(body, -1, args[-1])
        return record

    args = [None] * (max([*positions, *arguments]) + 1)
    for body, gives in zip(positions, returns):
        args[body] = recorder(body, gives)
    for index, value in arguments.items():
        args[index] = value
    positional = _positional(func)
    args = [[a, a] if i in positions and takes_many(positional[i]) else a for i, a in enumerate(args)]
    try:
        quiet(run(lambda: func(*args)))
    except Exception:  # noqa: BLE001 - a bad combination of plain values
        return False
    return True


def _positional(func):
    return [p for p in inspect.signature(func).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
