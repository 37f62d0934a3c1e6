"""Where the project's knowledge is kept: on disk under the cache folder, by content, and
in memory for the life of the process.

On disk, module summaries are kept under the hash of a module's bytes plus a salt (a
changed module gets a new key, so answers are never stale), and ``reuse`` keeps a
file's findings beside them. In memory, ``MEMORY`` holds what this process (one flake8
run, which sees one state of the files) already found on disk.
"""
import ast
import json
import os
import sys
from functools import lru_cache
from pathlib import Path

from ... import api
from ...datafiles import blake2b


class Memory:
    """What one process learned from disk, so no file is read, resolved or walked twice."""

    def __init__(self):
        self.summaries = {}  # (path, salt) -> ((mtime, size), summary)
        self.parts = {}  # (path, salt, function name) -> ((mtime, size), summary of that function alone)
        self.definitions = {}  # module path -> ((mtime, size), its top_level_definitions)
        self.matches = {}  # (module path, bytes pattern) -> ((mtime, size), whether its bytes match it)
        self.project_files = {}  # (package, in a package) -> project files
        self.module_files = {}  # module stem -> its file, or None
        self.real_folders = {}  # folder (absolute) -> its real path, a Path (``package.real_path``)
        self.packages = {}  # folder -> (its top package or itself, whether in a package)
        self.import_roots = {}  # (import root, working directory) -> the folders imports resolve under
        self.module_roots = {}  # (a module's folder, working directory) -> its import roots (``package.module_roots``)
        self.project_folders = {}  # folder -> the nearest folder at or above it holding a project file, or None
        self.project_modules = {}  # (those folders, top-level name) -> whether the project has it
        self.listings = {}  # a folder imports resolve under -> the names in it, or None (``package._listing``)
        self.resolved = {}  # (roots, folder, binding, attributes) -> (module path, name) or None
        self.salts = {}  # (id(transforms), id(scalars_static)) -> (the two objects, kept alive, their salt)
        self.callers = {}  # (package, salt) -> the reach (see Project.callers)
        self.conversions = {}  # (module path, function, salt, working directory) -> its conversions through helpers
        self.resolvers = {}  # (module folder or linked module, working directory) -> a Project resolving there
        self.package = None  # the package of the file being linted (``linting``)
        self.words = {}  # module path -> ((mtime, size), its words), read to find who names a function
        self.module_uses = {}  # module path -> ((mtime, size), its calls of project functions and stores: defaults.py)
        self.keys = {}  # (module path, salt) -> ((mtime, size), the cache key of its bytes: ``module_key``)
        self.trees = {}  # a module's bytes, or a cut of them -> its tree, while one file's lint runs (``parsed``)

    def linting(self, package):
        """Forget what the modules say (summaries, parts, definitions, resolutions, conversions,
        words, calls, matches) when the linted file's package changes: flake8 lints a package's files one
        after another, so the run's memory stays that of its largest package, and a module asked
        again is read again (from the cache folder). The reach and what the files are stay."""
        if package != self.package:
            self.package = package
            for table in (self.summaries, self.parts, self.definitions, self.resolved, self.conversions,
                          self.resolvers, self.words, self.module_uses, self.matches, self.keys):
                table.clear()


MEMORY = Memory()
# How many trees ``parsed`` keeps at most (the modules one file's questions read).
_KEPT_TREES = 4


def parsed(source):
    """``ast.parse(source)``, kept by the bytes for the next question that reads the same module
    while one file's lint runs: a summary, a module's calls (``uses``), its re-exports and its
    parameters' classes each parse the module they read, often one just parsed for another. Its
    trees are read, never changed. Raises what ``ast.parse`` raises."""
    trees = MEMORY.trees
    tree = trees.get(source)
    if tree is None:
        tree = trees[source] = ast.parse(source)
        if len(trees) > _KEPT_TREES:
            del trees[next(iter(trees))]
    return tree


def forget_trees():
    """Drop ``parsed``'s trees, as a file's lint ends: the garbage collector, which waits during
    the lint, would otherwise traverse every node of a tree still alive when it runs again."""
    MEMORY.trees.clear()


def matches(path, version, patterns):
    """Whether the bytes of the module at ``path`` (``version``: its modification time and size),
    after a newline, match each of ``patterns``; kept for the process while the version stays."""
    key = (path, patterns)
    kept = MEMORY.matches.get(key)
    if kept is None or kept[0] != version:
        try:
            data = b"\n" + path.read_bytes()
        except OSError:
            return False
        kept = MEMORY.matches[key] = (version, all(pattern.search(data) for pattern in patterns))
    return kept[1]


def key_of(data, salt):
    """The key a module's bytes are kept under: their hash with the salt (``salt``)."""
    return blake2b(data + salt, digest_size=16).hexdigest()


def module_key(path, version, salt, data=None):
    """(the key of the bytes of the module at ``path``, those bytes when read now or None): read
    (unless given as ``data``) and hashed once per process while its ``version`` (modification time,
    size) stays, however many of its parts are asked for. Raises OSError when it cannot be read."""
    kept = MEMORY.keys.get((path, salt))
    if kept is not None and kept[0] == version:
        return kept[1], data
    data = path.read_bytes() if data is None else data
    MEMORY.keys[(path, salt)] = (version, key_of(data, salt))
    return MEMORY.keys[(path, salt)][1], data


def folder(cache_dir):
    """The folder the option names (``--jaxnp-cache-dir``; None: the user's cache folder)."""
    if cache_dir is not None:
        return cache_dir
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "flake8-jaxnp" / "summaries"


def read(where, key):
    """The JSON data kept under ``key`` in the folder ``where``, or None."""
    if not where:
        return None
    try:
        with open(os.path.join(where, f"{key}.json"), encoding="utf-8") as cached:
            return json.loads(cached.read())
    except (OSError, ValueError):
        return None


def write(where, key, data):
    """Keep ``data`` under ``key``; a folder that cannot be written costs time, never
    correctness (``warn_if_unwritable`` says so once per run)."""
    if not where:
        return
    where = str(where)
    partial = os.path.join(where, f"{key}.{os.getpid()}.tmp")  # then renamed: readers never see half
    try:
        try:
            out = open(partial, "w", encoding="utf-8")
        except FileNotFoundError:  # the folder is made by the first write that needs it
            os.makedirs(where, exist_ok=True)
            out = open(partial, "w", encoding="utf-8")
        with out:
            out.write(json.dumps(data))
        os.replace(partial, os.path.join(where, f"{key}.json"))
    except (OSError, TypeError, ValueError):
        pass


def warn_if_unwritable(cache_dir):
    """One line on stderr when the cache folder cannot be written (the run goes on, but
    every module is parsed again and no findings are kept). Called once, where flake8
    reads the options, before it starts any worker."""
    warning = unwritable_warning(cache_dir)
    if warning:
        print(warning, file=sys.stderr)


def unwritable_warning(cache_dir):
    """The line that says the cache folder cannot be written, or None when it can (or is off)."""
    where = folder(cache_dir)
    reason = unwritable(where) if where else None
    return (f"flake8-jaxnp: --jaxnp-cache-dir {where}: cannot write there ({reason}); nothing is cached in this run"
            if reason else None)


def unwritable(where):
    """Why nothing can be written in the folder ``where`` (made if missing), or None when it can."""
    probe = os.path.join(str(where), f".probe.{os.getpid()}.tmp")
    try:
        os.makedirs(where, exist_ok=True)
        with open(probe, "w", encoding="utf-8"):
            pass
        os.remove(probe)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


@lru_cache(maxsize=None)
def plugin_digest():
    """The plugin's own code and data: a changed analysis never reuses old summaries or
    findings, even when the version number did not change. Each file counts by its size and
    modification time, as Python's own bytecode cache tells a changed source (reading them
    all would cost more than the rest of a save's lint). The generator (``datagen/``) is left
    out: answers change only when the data file it writes does."""
    digest = blake2b(digest_size=16)
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    _digest_folder(digest, package, "", skipped=("__pycache__", "datagen"))
    return digest.hexdigest()


def _digest_folder(digest, folder, relative, skipped=("__pycache__",)):
    """Add the ``.py``, ``.toml`` and ``.json`` files below ``folder`` (named from the package's
    folder: ``relative``) to ``digest``, by name, size and time. (``os.scandir``: ``os.walk`` and
    ``os.path.relpath`` cost an editor's save 4.4 M instructions more, pathlib's walk a few ms.)"""
    subfolders = []
    for entry in sorted(os.scandir(folder), key=lambda entry: entry.name):
        if entry.is_dir():
            if entry.name not in skipped and not entry.is_symlink():  # (as os.walk)
                subfolders.append(entry)
        elif entry.name.endswith((".py", ".toml", ".json")):
            stat = entry.stat()
            digest.update(f"{relative}{entry.name}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    for entry in subfolders:
        _digest_folder(digest, entry.path, f"{relative}{entry.name}/")


def salt(transforms, scalars_static):
    """What every cache key mixes in besides a module's bytes: the plugin's code and data
    (``plugin_digest``: a changed summary format is changed code), the JAX version and the
    transforms. Kept for the tables every file of a run shares."""
    known = MEMORY.salts.get((id(transforms), id(scalars_static)))
    if known is None or known[0] is not transforms or known[1] is not scalars_static:
        settings = json.dumps([sorted((name, b.name) for name, b in transforms.items()), sorted(scalars_static)])
        salted = f"{plugin_digest()}/{api.data()['jax_version']}/{settings}".encode()
        known = MEMORY.salts[(id(transforms), id(scalars_static))] = (transforms, scalars_static, salted)
    return known[2]


class RootIndex:
    """What each module of a package says of its roots, by file identity (inode, size and
    modification and change times, which every write moves): the key of its bytes, whether
    it names a transform, its top-level imports, whether it may transform a parameter (None until asked:
    it is asked only of a module whose imports name no project module). Kept on
    disk, so that a run after edits (an editor's) reads only the modules that changed. The resolution of the imports is
    not kept: it depends on the other files."""

    def __init__(self, cache_dir, key):
        self.cache_dir, self.key = cache_dir, f"{key}-rootindex"
        self.entries = read(cache_dir, self.key) or {}
        self.changed = False

    def get(self, path, identity):
        """(bytes key, names a transform, imports, may transform a parameter) when ``path`` is the
        file looked at before."""
        entry = self.entries.get(str(path))
        return tuple(entry[1:]) if identity is not None and entry is not None and entry[0] == identity else None

    def put(self, path, identity, key, traces, imports, given):
        if identity is not None:
            self.entries[str(path)] = [identity, key, traces, imports, given]
            self.changed = True
        return key, traces, imports, given

    def keep(self):
        if self.changed:
            write(self.cache_dir, self.key, self.entries)


def identity(path):
    """A file's identity: inode, size, modification and change times (every write moves one);
    ``path`` a Path or a string (as kept: no Path to make)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return [stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]
