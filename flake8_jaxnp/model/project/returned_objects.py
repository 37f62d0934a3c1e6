"""What a call of another module's function gives where the function returns an object it
builds (``return Dataset(path)``, ``return train, valid`` of two): the object's class is
named in the function's module (the summary's ``made``: an import binding or a top-level
name there), resolved from that module, and the class's summary says what its plain methods
return (``objects``), so that ``data = load(cfg)`` then ``data.get_batch(rng)`` gives NumPy
data in the caller as ``Dataset(path).get_batch(rng)`` would in the class's own module."""
from .wrappers import CLASSES, class_line


def made(project, path, facts):
    """{"returns": ...} for the facts of the function of the module at ``path`` that returns an
    object (or a tuple holding some) of a project class whose methods' results are known: each
    such object as {"methods": {method: kind}}; else {}."""
    found = facts.get("made")
    if found is None or facts.get("returns") is not None:
        return {}
    if type(found) is list:
        objects = [_methods(project, path, item) if item else None for item in found]
        return {"returns": objects} if any(objects) else {}
    methods = _methods(project, path, found)
    return {"returns": methods} if methods else {}


def _methods(project, path, made_object):
    binding, attributes = made_object["class"]
    target = project.target_of(path, binding, attributes)
    summary = project.summary(target[0], CLASSES, class_line(target[1])) if target is not None else None
    methods = summary.get("objects", {}).get(target[1]) if summary else None
    return {"methods": methods} if methods else None
