"""What an object of another module's class holds, built there or here: ``Dataset(cfg)`` of an
imported class, or a call of another module's function that returns an object it builds
(``return Dataset(path)``, ``return train, valid`` of two: the summary's ``made``, an import
binding or a top-level name of the function's module, resolved from that module). The class's
module's own forward pass says what its objects hold (the summary part ``HELD``, ``model.held``:
``data.x`` NumPy data, ``data.get_batch(rng)`` a dict of it), so the caller reads them as it reads
an object of a class of its own."""
import importlib
from functools import lru_cache

from ...patterns import Captured, Pattern

HELD = "(held)"  # the part of a summary ``model.held`` gives (no def's name)


def held_summary(source, transforms):
    """The part ``HELD`` of a module's summary: ``model.held.held_summary``, given the transforms
    beyond the generated ones (``transforms``: the project's tables). The model's forward pass sits
    above the summaries in the imports, so it is loaded by name where a question first needs it."""
    from ..traced import transform_tables
    extra = tuple(sorted(set(transforms) - set(transform_tables(())[0])))
    return importlib.import_module("flake8_jaxnp.model.held").held_summary(source, extra)


def held_object(project, binding, attributes):
    """(module path, ``kinds.value_data`` of an object) of the imported project class that ``binding``
    and ``attributes`` name, where its module's pass knows something it holds; else None."""
    found = project.resolve(binding, attributes)
    held = _held(project, found) if found is not None and found[0] != project.path else None
    return (found[0], held) if held else None


def made(project, path, facts):
    """{"returns": ...} for the facts of the function of the module at ``path`` that returns an
    object (or a tuple holding some) of a project class whose objects hold something known: each
    such object as {"object": its ``value_data``}; else {}."""
    found = facts.get("made")
    if found is None or facts.get("returns") is not None:
        return {}
    if type(found) is list:
        objects = [_object(project, path, item) if item and "class" in item else None for item in found]
        return {"returns": objects} if any(objects) else {}
    held = _object(project, path, found) if "class" in found else None
    return {"returns": held} if held else {}


def _object(project, path, made_object):
    held = _held(project, project.target_of(path, *made_object["class"]))
    return {"object": held} if held else None


def _held(project, target):
    summary = project.summary(target[0], HELD, _plain_class_line(target[1])) if target is not None else None
    return summary["objects"].get(target[1]) if summary else None


@lru_cache(maxsize=1024)
def _plain_class_line(name):
    """The bytes pattern of a top-level line ``class <name>:`` without a base but ``object``, as
    ``model.held`` summarises: a module without one is not read further (none for a name that is not
    ASCII: the module's encoding may spell it otherwise). One pattern serves every name."""
    return (Captured(_PLAIN_CLASS_NAMES, name.encode()),) if name.isascii() else ()


# The name of each top-level line ``class Name:`` or ``class Name(object):`` (``_plain_class_line``).
_PLAIN_CLASS_NAMES = Pattern(rb"[\r\n\f](?:\xef\xbb\xbf)?class[ \t]+(\w+)[ \t]*(?:\([ \t]*(?:object[ \t]*)?\)[ \t]*)?:")
