"""The order in which the project's calls of a function are read when they must all agree
(``defaults.passed_values`` with ``agreeing``): the join stops at the first call that gives another
value, and its answer does not depend on the order it reads them in (a disagreement anywhere empties
it; what agrees is given back in the modules' order), so reading first the modules likeliest to call
the function parses fewer modules to find that call. Only a module that imports the function's module,
or that module itself, can call it (but through a package's re-exports): an import line that names
the module (``from .actor import update``) says so from the text, before any parse."""
import re

from .cache import MEMORY


def callers_first(naming, path, calls_of):
    """((place in ``naming``, place among the module's calls), (module path, call)) for each call that
    ``calls_of(module path, version)`` gives in the modules of ``naming`` ([(module path, version)],
    ``modules_naming``'s), read module by module: first those with a line that imports a name equal
    to the module ``path``'s (``actor`` for ``agents/actor.py``; for a package's ``__init__.py``, the
    package's), then ``path``, then the others whose words have that name, then the rest, each part
    in the order it had."""
    name = (path.parent.name if path.name == "__init__.py" else path.stem).encode("utf-8")
    importing = re.compile(rb"^[ \t]*(?:from|import)[ \t][^\n]*\b%b\b" % re.escape(name), re.MULTILINE)
    ranked = sorted(enumerate(naming), key=lambda item: _rank(item[1][0], path, name, importing))
    for place, (other, version) in ranked:
        for at, call in enumerate(calls_of(other, version)):
            yield (place, at), (other, call)


def _rank(other, path, name, importing):
    if other == path:
        return 1
    kept = MEMORY.words.get(other)  # (just read by ``modules_naming``)
    if kept is not None and b"\n%b\n" % name not in kept[1]:
        return 3
    try:
        return 0 if importing.search(other.read_bytes()) else 2
    except OSError:
        return 2
