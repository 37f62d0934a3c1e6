"""Key parameters another module's function consumes through the project functions it hands them
to: ``noisy_step(params, key, x)`` that runs ``models.dropout(key, x)`` on every call consumes
``key`` as ``dropout`` does, though no ``jax.random`` call of its own module names it."""

import ast

from .targets import TABLE_ENTRY

# transforms that run the function they wrap on the arguments given, so on the same keys
_RUNNING_TRANSFORMS = {None, "jax.jit", "jax.grad", "jax.value_and_grad"}
_MAX_DEPTH = 6  # helpers handing a key on to helpers followed


def handed_keys(project, path, name, summary):
    """{"keys": ...} of the function ``name`` (``consumed_keys``), and its ``gives`` with the keys
    that the def it returns consumes (a factory's step), for its facts."""
    found = {"keys": consumed_keys(project, path, name, summary)}
    for field in ("gives", "jits"):
        inner = summary["functions"][name].get(field)
        if inner is not None:
            found[field] = dict(inner, keys=consumed_keys(project, path, f"{name}.{inner['name']}", summary))
    return found


def consumed_keys(project, path, name, summary, seen=frozenset()):
    """{parameter: how} for the parameters the function ``name`` of the module at ``path`` consumes
    on every call: its own (``keys`` of its summary) and those it passes, as they came in and on
    every call, to a project function that consumes that parameter (itself, or further down)."""
    facts = unit_facts(summary, name)
    found = dict(facts["keys"])
    if len(seen) >= _MAX_DEPTH:
        return found
    flows = (project.summary(path) if "." in name else summary)["flows"]  # (a nested def's: the whole module's)
    for binding, attributes, positions, keywords, _, always, transform, _ in flows.get(name, ()):
        bare = [(where, passed[0]) for where, passed, is_bare in positions + keywords if is_bare]
        if not (always is True and bare) or transform not in _RUNNING_TRANSFORMS \
                or attributes[-3:-2] == [TABLE_ENTRY]:  # (a lookup's entries need not agree)
            continue
        target = project.target_of(path, binding, attributes)
        if target is None or target in seen or type(target[1]) is not str:
            continue
        callee_summary = project.summary(target[0], defines=target[1])
        if not callee_summary or unit_facts(callee_summary, target[1]) is None:
            continue
        params = unit_facts(callee_summary, target[1])["params"]
        consumed = consumed_keys(project, *target, callee_summary, seen | {(path, name)})
        for where, passed in bare:
            parameter = params[where] if type(where) is int and where < len(params) else where
            if parameter in consumed and passed in facts["params"]:
                found.setdefault(passed, consumed[parameter])
    return found


def unit_facts(summary, unit):
    """The facts of a unit of a module's summary: a top-level function's, or those of the def one
    returns (``make_step.step``: its ``gives``), or None."""
    outer, _, inner = unit.partition(".")
    facts = summary["functions"].get(outer)
    if not inner or facts is None:
        return facts
    inner_facts = facts.get("gives") or facts.get("jits")
    return inner_facts if inner_facts is not None and inner_facts["name"] == inner else None


def returned_step(factory, returned_jit):
    """The def nested in ``factory`` that every return of it gives jitted (``return jax.jit(step)``,
    ``@jax.jit def step``; ``returned_jit(value, own body)``: what a returned value has jitted), or None."""
    from .units import own_body  # (summarising: a warm save asks ``handed_keys`` of kept summaries only)

    body = own_body(factory)
    found = {id(returned_jit(value, body)) for value in body[0]} if body is not None and body[0] else set()
    inner = returned_jit(body[0][0], body) if len(found) == 1 else None
    if type(inner) is ast.Name and body[1].get(inner.id) == 1:
        inner = body[3].get(inner.id)
    return inner if isinstance(inner, ast.FunctionDef) else None
