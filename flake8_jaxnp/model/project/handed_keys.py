"""Key parameters another module's function consumes through the project functions it hands them
to: ``noisy_step(params, key, x)`` that runs ``models.dropout(key, x)`` on every call consumes
``key`` as ``dropout`` does, though no ``jax.random`` call of its own module names it."""

# transforms that run the function they wrap on the arguments given, so on the same keys
_RUNNING_TRANSFORMS = {None, "jax.jit", "jax.grad", "jax.value_and_grad"}
_MAX_DEPTH = 6  # helpers handing a key on to helpers followed


def consumed_keys(project, path, name, summary, seen=frozenset()):
    """{parameter: how} for the parameters the function ``name`` of the module at ``path`` consumes
    on every call: its own (``keys`` of its summary) and those it passes, as they came in and on
    every call, to a project function that consumes that parameter (itself, or further down)."""
    facts = summary["functions"][name]
    found = dict(facts["keys"])
    if len(seen) >= _MAX_DEPTH:
        return found
    for binding, attributes, positions, keywords, _, always, transform in summary["flows"].get(name, ()):
        bare = [(where, passed[0]) for where, passed, is_bare in positions + keywords if is_bare]
        if not (always and bare) or transform not in _RUNNING_TRANSFORMS:
            continue
        target = project.target_of(path, binding, attributes)
        if target is None or target in seen or type(target[1]) is not str:
            continue
        callee_summary = project.summary(target[0], defines=target[1])
        if not callee_summary or target[1] not in callee_summary["functions"]:
            continue
        params = callee_summary["functions"][target[1]]["params"]
        consumed = consumed_keys(project, *target, callee_summary, seen | {(path, name)})
        for where, passed in bare:
            parameter = params[where] if type(where) is int and where < len(params) else where
            if parameter in consumed and passed in facts["params"]:
                found.setdefault(passed, consumed[parameter])
    return found
