"""Where other modules of the project name or call a function of this file: a call that
leaves a parameter to its default (``make(3)`` in train.py, for ``def make(n,
dtype=np.float64)`` in util.py: JNP402 holds at the function's own line when any caller
keeps a 64-bit default), or any mention at all (then the function's callers are not all
in its file, so what its parameters receive is not known there: JNP401).

Asked only where a finding depends on it, so rarely; each module of the project is read
once per process (its words kept as a set) and parsed only when it has the function's name.
"""
import ast
import re

from ..syntax import module_imports, split_attributes
from .cache import MEMORY


def calls_keeping_default(project, name, param, index):
    """[[module path, line]] for the first call in each other module of ``project`` that
    names this file's top-level function ``name`` through an import and leaves ``param``
    (positional ``index``, None when keyword-only) to its default."""
    found = []
    for path, text in modules_naming(project, name):
        for binding, attributes, positional, keywords, line in _imported_calls(path, text, name):
            keeps = param not in keywords and (index is None or positional <= index)
            if keeps and project.target_of(path, binding, attributes) == (project.path, name):
                found.append([path, line])
                break
    return found


def modules_naming(project, name):
    """[(path, bytes)] of the other modules of ``project`` that have the word ``name`` (in
    code, a string or a comment alike: only they can call the function of that name)."""
    word = name.encode("utf-8")
    found = []
    for path in project.files():
        kept = _words(path) if path != project.path else None
        if kept is not None and (word in kept[1] or (not word.isascii() and word in kept[0])):  # (\w: ASCII)
            found.append((path, kept[0]))
    return found


_WORD = re.compile(rb"\w+")


def _words(path):
    """(a module's bytes, the set of its words), made once per process while the file's size
    and modification time stay: each question then costs a set lookup per module."""
    try:
        stat = path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
        kept = MEMORY.words.get(path)
        if kept is None or kept[0] != version:
            text = path.read_bytes()
            kept = MEMORY.words[path] = (version, text, frozenset(_WORD.findall(text)))
    except OSError:
        return None
    return kept[1:]


def _imported_calls(path, text, name):
    """[(import binding, attributes, positional arguments, keyword names, line)] for the
    calls in a module of an imported function called ``name`` (``make(...)``,
    ``util.make(...)``, ``build(...)`` after ``import make as build``); calls with ``*args``
    or ``**kwargs`` are left out."""
    kept = MEMORY.imported_calls.get((path, name))
    if kept is None or kept[0] is not text:  # (``_words`` keeps one bytes object per version)
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            tree = ast.Module(body=[], type_ignores=[])
        imports = module_imports(tree)
        found = []
        for node in ast.walk(tree):
            if type(node) is not ast.Call or any(type(a) is ast.Starred for a in node.args) \
                    or any(k.arg is None for k in node.keywords):
                continue
            root, attributes = split_attributes(node.func)
            binding = imports.get(root.id) if root is not None else None
            if binding is not None and (attributes[-1] if attributes else binding[2]) == name:
                found.append((binding, attributes, len(node.args), {k.arg for k in node.keywords},
                              node.lineno))
        kept = MEMORY.imported_calls[(path, name)] = (text, found)
    return kept[1]
