"""The linted file's package as a whole: where its modules are, its files, and its reach kept on disk;
and what a module's lines say without parsing it (its top-level imports and definitions), which a
warm save asks without importing the summarising modules.

Solving the reach (``Project._reach``) reads every module of the package that may apply a
transform. It is kept under the package, its files and the working directory, together with
what solving it relied on (``ReachInputs``), so that a later run, a ``-j`` worker or an
editor's save checks file identities and resolutions instead of reading the modules again.
"""
import json
import os
import re
from functools import lru_cache
from itertools import groupby
from pathlib import Path

from ...patterns import Pattern
from . import cache
from .cache import MEMORY

# The most project files read to learn who traces a module's functions.
MAX_PROJECT_FILES = 2000
NOT_PROJECT = frozenset({"site-packages", "dist-packages"})
# Files that mark a project's root folder, where its scripts' imports of its packages resolve.
PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
SKIPPED_DIRS = frozenset({".git", ".hg", ".tox", ".venv", "venv", "build", "dist", "__pycache__", "node_modules"})


def package_files(package, in_package):
    """The project's ``.py`` files: below its top package, or beside a loose file."""
    key = (package, in_package)
    files = MEMORY.project_files.get(key)
    if files is None:
        if in_package:
            files = []
            for folder, dirs, names in os.walk(package):
                dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
                files.extend(Path(folder) / n for n in sorted(names) if n.endswith(".py"))
                if len(files) > MAX_PROJECT_FILES:
                    break
        else:
            files = sorted(package.glob("*.py"))
        files = MEMORY.project_files[key] = files[:MAX_PROJECT_FILES]  # below the resolved package folder
    return files


class ReachInputs:
    """What solving a reach read (each module's identity) and relied on (what each import it
    followed resolves to, whether a module's top-level imports name the project). Records
    nothing unless ``active``: the project asks it on every read, solving or not."""

    def __init__(self, active=False):
        self.active = active
        self.identities, self.resolutions, self.imports, self.folder = {}, {}, {}, None

    def listed(self, files):
        """The project folder's files were read (``Project.folder_files``): a file added there matters."""
        if self.active:
            self.folder = [str(path) for path in files]

    def read(self, path, identity=None):
        """The module at ``path`` was read: its identity (``identity``, or as it is now, unless one is noted
        already: the first read is what the reach relies on, and a join asks of every module each time)."""
        if self.active and (identity is not None or str(path) not in self.identities):
            self.identities[str(path)] = identity if identity is not None else cache.identity(path)

    def resolved(self, path, binding, attributes, found):
        if self.active:
            question = [str(path), list(binding), list(attributes)]
            self.resolutions[json.dumps(question)] = [*question, _as_text(found)]

    def imported(self, path, imports, found):
        if self.active:
            self.imports[json.dumps([str(path), imports])] = [str(path), imports, found]

    def kept(self):
        return {"read": self.identities, "resolved": list(self.resolutions.values()),
                "imports": list(self.imports.values()), "folder": self.folder}


def kept_reach(project, solve, imports_project):
    """The reach of ``project``'s package (``solve(files)``), from disk when every module
    it read is the file it was and every resolution and import check it relied on answers
    as before; else solved, recorded and kept. Used as JSON when just solved too, so both
    paths give the same answers."""
    files = project.files()
    where = json.dumps([str(project.package), os.getcwd(), [str(path) for path in files]]).encode()
    key = f"{cache.key_of(where, project.salt)}-reach"
    kept = cache.read(project.cache_dir, key)
    if kept is not None and _unchanged(kept["inputs"], project.target_of, imports_project) \
            and kept["inputs"].get("folder") in (None, [str(path) for path in project.folder_files()]):
        return kept["reach"]
    project.reach_inputs = inputs = ReachInputs(active=bool(project.cache_dir))  # (nothing kept: nothing noted)
    try:
        found = json.loads(json.dumps(solve(files)))
    finally:
        project.reach_inputs = ReachInputs()
    cache.write(project.cache_dir, key, {"inputs": inputs.kept(), "reach": found})
    return found


def _unchanged(inputs, target_of, imports_project):
    return all(cache.identity(path) == identity for path, identity in inputs["read"].items()) \
        and all(_as_text(target_of(Path(path), tuple(binding), attributes)) == found
                for path, binding, attributes, found in inputs["resolved"]) \
        and all(imports_project(path, imports) == found for path, imports, found in inputs["imports"])


def _as_text(found):
    """A resolution, (module path, name) or None, as JSON keeps it."""
    return None if found is None else [str(found[0]), found[1]]


def is_project_module(roots, dotted):
    """Whether the top package of ``dotted`` is a source file under one of the folders ``roots``."""
    key = (roots, dotted.split(".")[0])
    if key not in MEMORY.project_modules:
        MEMORY.project_modules[key] = any(_module_in(folder, key[1]) for folder in roots)
    return MEMORY.project_modules[key]


def _module_in(folder, name):
    """Whether ``folder`` holds the module ``name`` (``module_file``), asked of the file system only
    where the folder's listing holds one of its names: a warm save checks every import of its
    package's kept reach, some 200 names in each of 3 folders."""
    names = _listing(folder)
    return (names is None or f"{name}.py" in names or name in names) and \
        module_file(os.path.join(folder, name)) is not None


def _listing(folder):
    """The names in ``folder`` (a string), listed once per process, or None when it cannot be listed."""
    if folder not in MEMORY.listings:
        try:
            MEMORY.listings[folder] = frozenset(os.listdir(folder))
        except OSError:
            MEMORY.listings[folder] = None
    return MEMORY.listings[folder]


def import_roots(root):
    """The folders imports resolve under: the import ``root`` (a Path), the working directory, and
    the nearest folder at or above ``root`` holding a project file (``PROJECT_FILES``), if any."""
    key = (root, os.getcwd())
    if key not in MEMORY.import_roots:
        found = project_folder(root)
        MEMORY.import_roots[key] = (str(root), key[1], *([str(found)] if found not in (None, root) else []))
    return MEMORY.import_roots[key]


def module_roots(folder):
    """``import_roots`` for a module in ``folder`` (a string): those of its top package's parent, or of
    ``folder`` outside a package; once per folder (and working directory) per process, as a warm save
    asks it for every module whose imports its package's kept reach relied on."""
    key = (folder, os.getcwd())
    if key not in MEMORY.module_roots:
        package, in_package = top_package(Path(folder))
        MEMORY.module_roots[key] = import_roots(package.parent if in_package else package)
    return MEMORY.module_roots[key]


def project_folder(root):
    """The nearest folder at or above ``root`` (a Path) holding a project file (``PROJECT_FILES``), or None.
    Each folder is asked once per process (for every linted file and every module whose imports the reach
    checks): sibling folders share their parents' answer."""
    if root not in MEMORY.project_folders:
        held = any(_is_file(os.path.join(root, name)) for name in PROJECT_FILES)
        MEMORY.project_folders[root] = root if held else None if root.parent == root else project_folder(root.parent)
    return MEMORY.project_folders[root]


def module_file(stem):
    """``stem.py`` or ``stem/__init__.py`` (``stem``: a path as a string) when it exists
    outside site-packages."""
    if stem not in MEMORY.module_files:
        candidates = (stem + ".py", os.path.join(stem, "__init__.py"))
        MEMORY.module_files[stem] = next((real_path(path) for path in candidates
                                          if NOT_PROJECT.isdisjoint(path.split(os.sep))
                                          and _is_file(path)), None)
    return MEMORY.module_files[stem]


def _is_file(path):
    """``os.path.isfile(path)``, first asked without an exception (``os.access``): most paths asked
    (a module or project file in each folder imports resolve under) are missing, and a stat of a
    missing file raises, which costs more than the stat (a warm save asks about a thousand)."""
    return os.access(path, os.F_OK) and os.path.isfile(path)


def real_path(path):
    """``Path(path).resolve()``, each folder resolved once per process: resolving asks the
    system about every part of the path, for every linted file and every module an import names."""
    absolute = os.path.join(os.getcwd(), path)
    folder, name = os.path.split(absolute)
    if name in ("", ".", "..") or os.path.islink(absolute):
        return Path(os.path.realpath(path))
    real = MEMORY.real_folders.get(folder)
    if real is None:
        real = MEMORY.real_folders[folder] = Path(os.path.realpath(folder))
    return real / name  # (a child of the folder's Path: its parts are not parsed again)


def top_package(folder):
    """(the top package above ``folder``, True), or (``folder``, False) outside a package."""
    key = str(folder)
    if key not in MEMORY.packages:
        package = folder
        while (package / "__init__.py").is_file() and (package.parent / "__init__.py").is_file():
            package = package.parent
        MEMORY.packages[key] = package, (package / "__init__.py").is_file()
    return MEMORY.packages[key]


# A top-level import: (a relative module's dot, the module of ``from m import``, the names of ``import a, b``),
# after the newline before it (searched in b"\n" + data: the search jumps from line to line).
_TOP_LEVEL_IMPORT = Pattern(rb"\n(?:from[ \t]+(\.)|from[ \t]+([\w.]+)[ \t]+import|import[ \t]+([^\n#;\\]+))")


def top_level_imports(data):
    """[[relative, [module, ...]]] for each line of ``data`` that starts an import."""
    found = []
    for relative, module, names in _TOP_LEVEL_IMPORT.findall(b"\n" + data):
        modules = [module] if module else [name.split()[0] for name in names.split(b",") if name.strip()]
        found.append([bool(relative), [m.decode("utf-8", "replace") for m in modules]])
    return found


def top_level_definitions(source):
    """{name: [(offset, whether a def)]} for every line that starts by defining a name with
    def (or async def) or an assignment (``step = jax.jit(_step)``, ``f64 = jnp.float64``):
    where a summary's functions, jitted names and dtype aliases come from. A name with no
    such line is not in the summary, so the module need not be parsed to learn it."""
    found = {}
    for match in _DEFINITION.finditer(b"\n" + source):  # match.start(): the line's offset in ``source``
        function = match.group(1)
        found.setdefault((function or match.group(2)).decode("utf-8", "replace"), []).append(
            (match.start(), function is not None))
    return found


# A newline, then a line that defines a name. Starting with a newline rather than ^ makes
# the search jump from line to line instead of trying every byte.
_DEFINITION = Pattern(rb"\n(?:(?:async[ \t]+)?def[ \t]+([\w\x80-\xff]+)|([\w\x80-\xff]+)[ \t]*(?::|=(?!=)))")


def given_a_transform(data, last_names):
    """Whether a module's bytes may apply a transform (``last_names``: a sorted tuple of their last
    names) to a parameter: one called on a name, on a ``partial`` of one (``jax.jit(
    functools.partial(policy, apply_fn))``) or on a method of one but ``self``'s (``jax.jit(
    planner.plan)``), that a def's one-line signature names too. A cheap, loose test: a module it
    lets through is read for its roots; one it misses stays silent."""
    names = {name for name, method in _applied_pattern(last_names).findall(data) if not (method and name == b"self")}
    return bool(names) and not names.isdisjoint(_WORD.findall(b" ".join(_SIGNATURE.findall(data))))


@lru_cache(maxsize=4)
def _applied_pattern(last_names):
    """A transform's call on a name, a ``partial`` of one or a method of one, capturing the name and
    the method's dot. It starts at the call's parenthesis, a literal the search jumps to, and looks
    behind it for a transform's name (one lookbehind per name length): some 7x faster than trying the
    names at every word."""
    by_length = groupby(sorted((name.encode() for name in last_names), key=len), key=len)
    behind = b"|".join(rb"(?<=\b(?:" + b"|".join(map(re.escape, names)) + rb")\()" for _, names in by_length)
    return re.compile(rb"\((?:" + behind + rb")\s*(?:(?:functools\.)?partial\(\s*)?([A-Za-z_]\w*)(?:(\.)\w+)?\s*[,)]")


# A def's one-line signature, capturing its parameters (``def`` first: a literal the search jumps to).
_SIGNATURE = Pattern(rb"def(?<=\bdef)[ \t]+\w+[ \t]*\(([^)\n]*)\)")
_WORD = Pattern(rb"[A-Za-z_]\w*")
