"""The public namespaces of past JAX releases, read from their source without importing it.

Part of the generator. Each release in ``RELEASES`` (the newest patch of every
minor version since 0.2, the first 0.2 release, and a few points inside the long 0.4
series) is
downloaded once, as a wheel or else a source archive, into a cache outside the
repository; its ``jax/`` modules are parsed with ``ast``. A module's public
names are what it defines or re-exports from JAX (``from jax._src.api import
jit as jit``, star imports followed inside the release), its ``__all__``, and
the keys of the ``_deprecations`` tables JAX keeps, whose messages name the
replacement (a value of ``None`` there means the name now raises).
"""
import ast
import hashlib
import inspect
import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

RELEASES = ("0.2.0", "0.2.28", "0.3.25", "0.4.1", "0.4.14", "0.4.26", "0.4.38", "0.5.3", "0.6.2", "0.7.2",
            "0.8.3", "0.9.2")
# The classes of concrete JAX arrays across releases (jax.Array's implementation).
ARRAY_CLASSES = ("ArrayImpl", "DeviceArray", "_DeviceArray", "Array")
CACHE = Path(os.environ.get("FLAKE8_JAXNP_RELEASES", "~/.cache/flake8-jaxnp/jax-releases")).expanduser()


class ReleasesUnavailable(Exception):
    """A release is neither in the cache nor downloadable."""


def archive(version, cache=CACHE):
    """The cached wheel or source archive of ``jax==version``, downloaded if missing."""
    found = _cached(version, cache)
    if found is None:
        cache.mkdir(parents=True, exist_ok=True)
        for kind in ("--only-binary", "--no-binary"):
            subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", kind, ":all:",
                            f"jax=={version}", "--dest", str(cache)], capture_output=True, check=False)
            found = _cached(version, cache)
            if found is not None:
                break
    if found is None:
        raise ReleasesUnavailable(f"jax {version} is not in {cache} and pip could not download it")
    return found


def _cached(version, cache):
    for name in (f"jax-{version}-py3-none-any.whl", f"jax-{version}.tar.gz"):
        if (cache / name).is_file():
            return cache / name
    return None


def sources(path):
    """{module name: source text} of the ``jax`` package in a wheel, a source archive,
    or an installed package's directory."""
    found = {}
    if path.is_dir():
        for file in path.rglob("*.py"):
            _add_source(found, "jax/" + file.relative_to(path).as_posix(), file.read_bytes)
    elif path.suffix == ".whl":
        with zipfile.ZipFile(path) as wheel:
            for name in wheel.namelist():
                _add_source(found, name, lambda n=name: wheel.read(n))
    else:
        with tarfile.open(path) as sdist:
            for member in sdist.getmembers():
                name = member.name.split("/", 1)[1] if "/" in member.name else member.name
                _add_source(found, name, lambda m=member: sdist.extractfile(m).read())
    return found


def _add_source(found, path, read):
    if path.startswith("jax/") and path.endswith(".py"):
        module = path[:-3].replace("/", ".")
        module = module[: -len(".__init__")] if module.endswith(".__init__") else module
        found[module] = read().decode("utf-8", errors="replace")


class Namespace:
    """The public names of one release: ``names`` (qualname set) and ``deprecations``
    ({qualname: (message, raises)}) from its ``_deprecations`` tables."""

    def __init__(self, texts):
        self.texts = texts
        self.trees = {}
        self.names = set()
        self.deprecations = {}
        self._exports = {}
        self._origins = {}  # (module, name) -> (module it was imported from, name there)
        for module in texts:
            if not any(part.startswith("_") for part in module.split(".")):
                self.names.add(module)
                self.names |= {f"{module}.{name}" for name in self.exports(module)}

    def tree(self, module):
        if module not in self.trees:
            try:
                self.trees[module] = ast.parse(self.texts[module])
            except (SyntaxError, ValueError):
                self.trees[module] = ast.Module(body=[], type_ignores=[])
        return self.trees[module]

    def exports(self, module):
        """Public names ``module`` defines or takes from JAX (cycles of star imports end empty)."""
        if module in self._exports:
            return self._exports[module]
        self._exports[module] = set()
        names = set()
        for node in _module_level(self.tree(module).body):
            names |= self._bound(module, node)
        names = {n for n in names if not n.startswith("_")}
        self._exports[module] = names
        return names

    def _bound(self, module, node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return {node.name}
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            if "__all__" in names:
                return _literal_strings(node.value)
            if "_deprecations" in names and isinstance(node.value, ast.Dict):
                self._read_deprecations(module, node.value)
            return names
        if isinstance(node, ast.ImportFrom):
            source = _absolute(module, node, module in self.texts and self._is_package(module))
            if source is None or not (source == "jax" or source.startswith("jax.")):
                return set()
            if any(alias.name == "*" for alias in node.names):
                names = set(self.exports(source)) if source in self.texts else set()
                self._origins.update({(module, name): (source, name) for name in names})
                return names
            for alias in node.names:
                self._origins[(module, alias.asname or alias.name)] = (source, alias.name)
            return {alias.asname or alias.name for alias in node.names}
        if isinstance(node, ast.Import):
            return {alias.asname for alias in node.names if alias.asname and alias.name.startswith("jax")}
        return set()

    def _is_package(self, module):
        return any(other.startswith(module + ".") for other in self.texts)

    def _read_deprecations(self, module, table):
        for key, value in zip(table.keys, table.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                continue
            if isinstance(value, ast.Tuple) and len(value.elts) == 2:
                message = _text(value.elts[0], self.tree(module))
                raises = isinstance(value.elts[1], ast.Constant) and value.elts[1].value is None
                self.deprecations[f"{module}.{key.value}"] = (message, raises)

    def warning_in_body(self, qualname):
        """The deprecation warning a function's body gives (``warnings.warn("index_update is
        deprecated. Use x.at[idx].set(y) instead.")``), following re-exports to its def."""
        module, _, name = qualname.rpartition(".")
        for _ in range(8):
            if (module, name) not in self._origins:
                break
            module, name = self._origins[(module, name)]
        if module not in self.texts:
            return ""
        for node in self.tree(module).body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return _warning(node, self.tree(module))
        return ""

    def definition(self, qualname):
        """The ``def`` that ``qualname`` names, following re-exports and aliases (``row_stack =
        vstack``, a ``_deprecations`` entry's object), or None (a class, a constant, not found)."""
        module, _, name = qualname.rpartition(".")
        for _ in range(8):
            module, name = self._origins.get((module, name), (module, name))
            if module not in self.texts:
                return None
            found = self._bound_to(module, name)
            if not isinstance(found, tuple):
                return found
            module, name = found
        return None

    def _bound_to(self, module, name):
        """``name``'s def in ``module``, or (module, name) of what it is bound to there."""
        for node in _module_level(self.tree(module).body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                return node
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                target, value = node.targets[0].id, node.value
                if target == name and isinstance(value, ast.Name):
                    return module, value.id
                if target == "_deprecations" and isinstance(value, ast.Dict):
                    for key, entry in zip(value.keys, value.values):
                        if isinstance(key, ast.Constant) and key.value == name and isinstance(entry, ast.Tuple) \
                                and len(entry.elts) == 2 and isinstance(entry.elts[1], ast.Name):
                            return module, entry.elts[1].id
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        return _absolute(module, node, self._is_package(module)), alias.name
        return None

    def array_members(self):
        """{name: [kind, deprecation warning]} of the array classes' methods and properties
        ("method" or "property"), over every module that defines one."""
        members = {}
        for module in self.texts:
            if not any(name in self.texts[module] for name in ARRAY_CLASSES):
                continue
            for node in self.tree(module).body:
                if isinstance(node, ast.ClassDef) and node.name in ARRAY_CLASSES:
                    for item in node.body:
                        if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                            members[item.name] = [_member_kind(item), _warning(item, self.tree(module))]
        return members


def _member_kind(func):
    names = {ast.unparse(d) for d in func.decorator_list}
    return "property" if names & {"property", "functools.cached_property", "cached_property"} else "method"


def _warning(func, tree):
    """The text of the first deprecation warning (or error) a function body gives, or ""."""
    for node in ast.walk(func):
        call = node.exc if isinstance(node, ast.Raise) else node
        if isinstance(call, ast.Call) and call.args and (node is not call or "warn" in ast.unparse(call.func).lower()):
            message = _text(call.args[0], tree)
            if "deprecat" in message.lower():
                return message
    return ""


def _module_level(body):
    """Statements run at import time: the module body and its if/try blocks."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            yield from _module_level(node.body)
            yield from _module_level(node.orelse)
        elif isinstance(node, ast.Try):
            yield from _module_level(node.body)
            for handler in node.handlers:
                yield from _module_level(handler.body)
            yield from _module_level(node.orelse)


def _absolute(module, node, is_package):
    if not node.level:
        return node.module
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _literal_strings(expr):
    if isinstance(expr, (ast.List, ast.Tuple)):
        return {e.value for e in expr.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return set()


def _text(expr, tree):
    """A deprecation message as written: a string, an f-string's literal parts, or a
    module-level string constant it names."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "..." for v in expr.values)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _text(expr.left, tree) + _text(expr.right, tree)
    if isinstance(expr, ast.Name):
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in node.targets):
                return _text(node.value, tree)
    return ""


def array_members(installed, releases=RELEASES, cache=CACHE):
    """{member: {"kind": "method"|"property", "last": last release read with that kind,
    "message": its deprecation warning}} of the JAX array classes, oldest release first."""
    found = {}
    for version in releases + (installed[0],):
        namespace = _namespace(version, cache, installed[1] if version == installed[0] else None)
        for name, (kind, message) in namespace["array_members"].items():
            entry = found.setdefault(name, {})
            entry[kind] = {"last": version, "message": " ".join(message.split())}
    return found


def history(installed, releases=RELEASES, cache=CACHE):
    """{qualname: {"last": the last of ``releases`` (oldest first) that had it, None if
    none did but one declared it removed; "message": JAX's newest deprecation message
    for it, or ""}}. ``installed`` is (version, package directory) of the installed JAX,
    read last so that its own deprecation messages win."""
    found = {}
    for version in releases + (installed[0],):
        namespace = _namespace(version, cache, installed[1] if version == installed[0] else None)
        for qualname in namespace["names"] + namespace["working"] + namespace["raises"]:
            entry = found.setdefault(qualname, {"last": None, "message": ""})
            if qualname not in namespace["raises"]:
                entry["last"] = version
        for qualname, message in namespace["messages"].items():
            found[qualname]["message"] = " ".join(message.split())
    return found


def _namespace(version, cache, directory):
    """A release's names, deprecations and body warnings (see ``kept``)."""
    return kept(version, cache, "names", _PARSER,
                lambda: _parsed(Namespace(sources(directory or archive(version, cache)))))


def _parsed(namespace):
    messages = {q: m for q, (m, _) in namespace.deprecations.items() if m}
    for qualname in sorted(namespace.names - set(messages)):
        warning = namespace.warning_in_body(qualname) if "." in qualname else ""
        if warning:
            messages[qualname] = warning
    return {"names": sorted(namespace.names), "messages": messages, "array_members": namespace.array_members(),
            "raises": sorted(q for q, (_, raises) in namespace.deprecations.items() if raises),
            "working": sorted(q for q, (_, raises) in namespace.deprecations.items() if not raises)}


def kept(version, cache, what, parsers, parse):
    """``parse()`` of one release, parsed once and kept in the cache next to the archive as
    ``what``, keyed by the source of the functions ``parsers`` (an edit to one re-parses)."""
    parser = hashlib.sha256("".join(map(inspect.getsource, parsers)).encode()).hexdigest()[:12]
    path = cache / f"jax-{version}.{what}-{parser}.json"
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    parsed = parse()
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(parsed), encoding="utf-8")
    return parsed


def installed_status(qualname):
    """"present", "warns" (a DeprecationWarning on access), "raises" (the attribute or
    module is gone), or None when a module cannot be imported for another reason."""
    import importlib
    import warnings

    parts = qualname.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                obj = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and (module_name + ".").startswith(exc.name + "."):
                continue  # the module (or its package) is gone: look for it as an attribute
            return None
        except Exception:  # noqa: BLE001 - it exists but needs something we lack (tensorflow)
            return None
        break
    else:
        return "raises"
    declared = False  # in a _deprecations table (JAX warns only on the first access)
    with warnings.catch_warnings(record=True) as more:
        warnings.simplefilter("always")
        for attr in parts[cut:]:
            declared = declared or attr in getattr(obj, "_deprecations", {})
            try:
                obj = getattr(obj, attr)
            except AttributeError:
                return "raises"
            except Exception:  # noqa: BLE001 - a lazy attribute that failed for another reason
                return None
    warned = [w for w in caught + more
              if issubclass(w.category, DeprecationWarning) and parts[-1] in str(w.message)]
    return "warns" if warned or declared else "present"


_PARSER = (sources, _add_source, Namespace, _member_kind, _warning, _module_level, _absolute, _literal_strings,
           _text, _parsed)
