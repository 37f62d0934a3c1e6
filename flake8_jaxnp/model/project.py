"""Knowledge across the modules of one project, read from their source, never imported.

flake8 lints one file at a time, in any order and in several processes, so what
a file needs from its neighbours is a per-module *summary* that depends on that
module's text alone: which top-level functions are jitted (a call gives device
arrays), what each function returns, which parameters a function converts to
the host unconditionally, and which imported project functions its traced
functions call with tracers. Summaries are cached on disk under the hash of the
module's bytes (a changed module gets a new key, so answers are never stale)
and in memory for the rest of the process. A file that calls one function of a
module gets that function's summary alone, from the module's header and the
function's own lines (``function_summary``), cached under the same key plus its name.

Imports resolve to source files under the linted file's import root (the folder
above its top package, or its own folder) or the working directory, never into
site-packages. A file not in a package sees the ``.py`` files next to it.
"""
import ast
import hashlib
import json
import os
import re
from functools import lru_cache
from pathlib import Path

from .. import __version__, api
from ..facts import FORMATTERS, SCALAR_CONVERSIONS
from .syntax import (NESTED_SCOPES, bound_qualname, module_imports, named_options, positional_names,
                     split_attributes, static_parameters, transform_spec, walk_own)
from .traced import transform_tables
from .kinds import ARRAY_ANNOTATIONS
from .names import child_fields
from .library import non_array_functions
from . import dtypes

SUMMARY_FORMAT = 3
# The most project files read to learn who traces a module's functions.
MAX_PROJECT_FILES = 2000
NOT_PROJECT = ("site-packages", "dist-packages")
SKIPPED_DIRS = frozenset({".git", ".hg", ".tox", ".venv", "venv", "build", "dist", "__pycache__", "node_modules"})


def cache_folder(cache_dir):
    """The folder the option names (``--jaxnp-cache-dir``; None: the user's cache folder)."""
    if cache_dir is not None:
        return cache_dir
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "flake8-jaxnp" / "summaries"


# ---- one module's summary ------------------------------------------------------------
def summarise(source, transforms, scalars_static=()):
    """The summary (JSON data) of a module's source text. ``transforms`` maps the dotted
    names that trace (jax.jit, the frameworks, extra transforms) to their behaviour;
    ``scalars_static`` names those that leave Python scalars static."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {"functions": {}, "jitted": [], "traced_calls": [], "results": {}, "dtypes": {}}
    imports = module_imports(tree)
    records = module_records(tree, imports)
    functions, jitted, traced, results = {}, set(), {}, {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[stmt.name] = function_facts(stmt, imports)
            for decorator in stmt.decorator_list:
                spec = _transform(decorator, imports, transforms)
                if spec is not None:
                    traced[stmt.name] = spec
                    if _stages(transforms[spec[0]]):
                        jitted.add(stmt.name)
            if records and stmt.name in jitted and _keeps_structure(stmt, imports, transforms, scalars_static):
                shape = result_shape(stmt, records)
                if shape is not None:
                    results[stmt.name] = shape
        elif _assigns_call(stmt):
            spec = _assigned_transform(stmt, imports, transforms)
            if spec is not None:
                if _stages(transforms[spec[0]]):
                    jitted.add(stmt.targets[0].id)
                if stmt.value.args[0].id in functions:
                    traced[stmt.value.args[0].id] = spec
    calls = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name in traced \
                and transforms[traced[stmt.name][0]].abstract and traced[stmt.name][0] not in scalars_static:
            calls.extend(_traced_calls(stmt, traced[stmt.name], imports))
    return {"functions": functions, "jitted": sorted(jitted), "traced_calls": calls, "results": results,
            "dtypes": dtype_aliases(tree, imports)}


def _assigns_call(stmt):
    """``name = call(...)``."""
    return isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
        and isinstance(stmt.value, ast.Call)


def _assigned_transform(stmt, imports, transforms):
    """(transform name, keywords) for ``step = jax.jit(_step, ...)``: a transform of a name."""
    call = stmt.value
    if not call.args or not isinstance(call.args[0], ast.Name):
        return None
    spec = _transform(call.func, imports, transforms)
    if spec is None and _qualname(call.func, imports) in transforms:
        spec = (_qualname(call.func, imports), call.keywords)
    return spec


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
_DEFINITION = re.compile(rb"\n(?:(?:async[ \t]+)?def[ \t]+([\w\x80-\xff]+)|([\w\x80-\xff]+)[ \t]*(?::|=(?!=)))")


def function_summary(source, name, transforms, definitions=None):
    """What ``summarise`` says of the top-level name ``name``, from the module's header and
    the lines that define it alone, so a module that a file calls one function of is not
    parsed whole: parsing is most of a summary's cost. For a def (its decorators
    included) or an assignment of a call (``step = jax.jit(_step)``) that is the name's
    only top-level definition (found by ``top_level_definitions``), when no import follows
    the first top-level definition, and, for a jitted def, when the module defines no
    class (its result's shape may name one); None otherwise, and wherever the lines cut
    through a string or a bracket (they then fail to parse), so the caller summarises the
    whole module."""
    found = (definitions if definitions is not None else top_level_definitions(source)).get(name, ())
    header_end = _TOP_LEVEL_DEFINITION.search(source)
    if len(found) != 1 or header_end is None or _IMPORT.search(source, header_end.start()):
        return None
    offset, is_def = found[0]
    start = _first_decorator(source, offset) if is_def else offset
    ending = _TOP_LEVEL_STATEMENT.search(source, source.find(b"\n", offset) + 1 or len(source))
    try:
        imports = _header_imports(source[:header_end.start()])
        lines = ast.parse(b"\n" * source.count(b"\n", 0, start) + source[start:ending.start() if ending else None])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(lines.body) != 1:
        return None
    stmt, functions = lines.body[0], {}
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_def:
        specs = [_transform(decorator, imports, transforms) for decorator in stmt.decorator_list]
        jitted = any(spec is not None and _stages(transforms[spec[0]]) for spec in specs)
        if jitted and _TOP_LEVEL_CLASS.search(source):
            return None
        functions[name] = function_facts(stmt, imports)
    elif _assigns_call(stmt) and not is_def:  # a call is no dtype alias: the assignment says all
        spec = _assigned_transform(stmt, imports, transforms)
        jitted = spec is not None and _stages(transforms[spec[0]])
    else:
        return None
    return {"functions": functions, "jitted": [name] if jitted else [], "traced_calls": [], "results": {},
            "dtypes": {}}


@lru_cache(maxsize=32)
def _header_imports(header):
    """module_imports of a module's header, kept for the module's next function (read only)."""
    return module_imports(ast.parse(header))


def _first_decorator(source, start):
    """Where the decorators of the top-level def at ``start`` begin (``start`` when it has
    none): each nearest line above that starts in the first column (other than a comment
    or a closing bracket) and starts with ``@``."""
    first, end = start, start - 1
    while end > 0:
        begin = source.rfind(b"\n", 0, end) + 1
        if source[begin:begin + 1] not in _NOT_A_STATEMENT_START:
            if source[begin:begin + 1] != b"@":
                break
            first = begin
        end = begin - 1
    return first


# A top-level def, class or decorator: where a module's header (docstring, imports,
# constants) ends. Lines starting in the first column: statements, decorators, comments.
_TOP_LEVEL_DEFINITION = re.compile(rb"^(?:@|(?:async[ \t]+)?def\b|class\b)", re.M)
_IMPORT = re.compile(rb"^(?:import|from)[ \t]", re.M)
_TOP_LEVEL_STATEMENT = re.compile(rb"^[A-Za-z_@]", re.M)
_TOP_LEVEL_CLASS = re.compile(rb"^class\b", re.M)
# First bytes of a line that is not a top-level statement or decorator (blank, indented,
# a comment, a closing bracket).
_NOT_A_STATEMENT_START = frozenset({b"", b"\n", b"\r", b" ", b"\t", b"\f", b"#", b")", b"]", b"}"})


def _keeps_structure(func, imports, transforms, scalars_static):
    """Every decorator is a jit-like transform that turns each leaf of the result into an
    array (not ``equinox.filter_jit``, which passes Python values through, nor grad)."""
    for decorator in func.decorator_list:
        spec = _transform(decorator, imports, transforms)
        if spec is None or not _stages(transforms[spec[0]]) or spec[0] in scalars_static:
            return False
    return True


def _stages(behaviour):
    """jit-like: calling the transformed function gives device arrays."""
    return behaviour.abstract and behaviour.cached


def _qualname(expr, imports):
    """The absolute dotted name of ``np.asarray`` or ``jit`` through module imports, or None."""
    name, parts = split_attributes(expr)
    if name is None:
        return None
    bound = imports.get(name.id)
    if bound is None:
        return f"builtins.{name.id}" if name.id in BUILTIN_NAMES else None
    base = bound_qualname(bound)
    return None if base is None else ".".join([base, *parts])


BUILTIN_NAMES = frozenset(q.split(".", 1)[1] for q in SCALAR_CONVERSIONS | FORMATTERS)


def _transform(expr, imports, transforms):
    """(transform name, keywords) for ``@jax.jit``, ``@partial(jax.jit, ...)``, ``@jax.jit(...)``."""
    return transform_spec(expr, lambda e: _qualname(e, imports), transforms)


def function_facts(func, imports):
    """Parameters, line, what it returns ("jax" when it ends in a return and every return
    gives a jax.numpy array, else None), and the parameters it converts to the host in its
    unconditional statements (so on every call). One pass; nested defs are not entered."""
    params = positional_names(func)
    rebound, found, returns = set(), [], set()
    ends_in_return = bool(func.body) and type(func.body[-1]) is ast.Return
    stack = [(stmt, type(stmt) not in CONDITIONAL_STATEMENTS) for stmt in func.body]
    while stack:
        node, unconditional = stack.pop()
        kind = type(node)
        if kind is ast.Name:
            if type(node.ctx) is not ast.Load:
                rebound.add(node.id)
            continue
        if kind in _NESTED_SCOPE_TYPES:
            continue
        if kind is ast.Call and unconditional:
            conversion = _conversion(node, imports)
            if conversion is not None:
                found.append((conversion, node.lineno))
        elif kind is ast.Return:
            returns.add(_returned_kind(node.value, imports))
        elif kind is ast.Yield or kind is ast.YieldFrom:
            ends_in_return = False
        inner = unconditional and kind not in CONDITIONAL_STATEMENTS
        for field in child_fields(kind):
            value = getattr(node, field, None)
            if type(value) is list:
                stack.extend([(child, inner) for child in value if child is not None])  # a dict's keys hold None
            elif isinstance(value, ast.AST):  # (not Constant.value or MatchSingleton.value)
                stack.append((value, inner))
    converts = [[params.index(name), code, what, line] for (name, code, what), line in found
                if name in params and name not in rebound]
    kind = returns.pop() if ends_in_return and len(returns) == 1 else None
    return {"params": params, "line": func.lineno, "returns": kind, "converts": sorted(converts)}


CONDITIONAL_STATEMENTS = frozenset({ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith,
                                    ast.Match, ast.IfExp, ast.BoolOp, getattr(ast, "TryStar", ast.Try)})
_NESTED_SCOPE_TYPES = frozenset(NESTED_SCOPES)  # (tested by type: the walk below is hot)


def _conversion(node, imports):
    """(parameter name, code, what) when ``node`` moves its Name argument to the host."""
    if not isinstance(node, ast.Call) or not node.args or not isinstance(node.args[0], ast.Name):
        return None
    name = _qualname(node.func, imports)
    if name in api.data()["numpy_fails_on_tracer"]:
        return node.args[0].id, "JNP101", f"{name.replace('numpy.', 'np.', 1)}()"
    if name in SCALAR_CONVERSIONS:
        return node.args[0].id, "JNP102", f"{name.split('.', 1)[1]}()"
    if name in FORMATTERS:
        return node.args[0].id, "JNP103", f"{name.split('.', 1)[1]}()"
    return None


def _returned_kind(value, imports):
    """"jax" for a call into jax.numpy that returns one array, else None."""
    name = _qualname(value.func, imports) if isinstance(value, ast.Call) else None
    module, _, function = (name or "").rpartition(".")
    array = module == "jax.numpy" and function not in non_array_functions() \
        and function not in api.tuple_result_functions()
    return "jax" if array else None


def _traced_calls(func, spec, imports):
    """Calls from a traced function to imported functions with its traced parameters:
    [import binding, attribute path, {callee position or keyword: True}, caller, line, transform]."""
    transform, keywords = spec
    positional = positional_names(func)
    static = static_parameters(named_options(keywords), positional)
    if static is None:
        return []
    traced = set(positional) | {a.arg for a in func.args.kwonlyargs}
    traced -= static
    traced -= {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    found = []
    for node in ast.walk(func):
        if not isinstance(node, ast.Call):
            continue
        target = _imported_target(node.func, imports)
        if target is None:
            continue
        positions = [i for i, a in enumerate(node.args) if isinstance(a, ast.Name) and a.id in traced]
        names = [k.arg for k in node.keywords if k.arg and isinstance(k.value, ast.Name) and k.value.id in traced]
        if any(isinstance(a, ast.Starred) for a in node.args) or not (positions or names):
            continue
        found.append([target[0], target[1], positions, names, func.name, node.lineno, transform])
    return found


# ---- pytree classes and what a jitted function returns -------------------------------
NAMED_TUPLES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
ORDERINGS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def module_records(tree, imports):
    """{class name: {"fields": [...], "methods": [...], "arrays": [...]}} for the module's
    top-level pytree classes whose children are known: NamedTuples, flax.struct dataclasses and
    ``jax.tree_util.register_dataclass`` dataclasses. ``fields`` leaves out static ones
    (``pytree_node=False``, ``metadata={"static": True}``); ``methods`` are those that
    return a comparison of a field (``timestep.last()``); ``arrays`` the fields annotated
    as arrays (``jax.Array``), the others may hold pytrees. A class whose static fields
    cannot be read is left out."""
    found = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef):
            style = _record_style(stmt, imports)
            fields = _record_fields(stmt, imports, style) if style else None
            if fields is not None:
                found[stmt.name] = {"fields": sorted(fields), "methods": sorted(_comparing_methods(stmt, fields)),
                                    "arrays": sorted(name for name, annotation in fields.items()
                                                     if annotation in ARRAY_ANNOTATIONS)}
    return found


def _record_style(cls, imports):
    """"named" for a NamedTuple, the static-field keyword of a registered dataclass, else None."""
    bases = {_qualname(b, imports) for b in cls.bases}
    if bases & NAMED_TUPLES:
        return "named"
    decorators = {_qualname(d, imports) for d in cls.decorator_list}
    if "flax.struct.dataclass" in decorators or "flax.struct.PyTreeNode" in bases:
        return "pytree_node"
    if "jax.tree_util.register_dataclass" in decorators and "dataclasses.dataclass" in decorators:
        return "static"
    return None


def _record_fields(cls, imports, style):
    """{field: its annotation's dotted name} for the fields that are pytree children, or None
    when one is unreadable."""
    fields = {}
    for stmt in cls.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        annotation = _qualname(stmt.annotation.value if isinstance(stmt.annotation, ast.Subscript)
                               else stmt.annotation, imports) or ""
        if annotation.endswith((".ClassVar", ".InitVar")):
            continue
        static = _static_field(stmt.value, imports, style) if style != "named" else False
        if static is None:
            return None
        if not static:
            fields[stmt.target.id] = annotation
    return fields


def _static_field(value, imports, style):
    """True/False for a dataclass field's default, None when its metadata cannot be read."""
    if not isinstance(value, ast.Call):
        return False
    for keyword in value.keywords:
        if keyword.arg is None:
            return None
        if style == "pytree_node" and keyword.arg == "pytree_node":
            pytree_node = _constant(keyword.value, bool, None)
            return None if pytree_node is None else not pytree_node
        if style == "static" and keyword.arg == "metadata":
            metadata = keyword.value
            if isinstance(metadata, ast.Call) and isinstance(metadata.func, ast.Name) and metadata.func.id == "dict" \
                    and "dict" not in imports and not metadata.args:
                entries = {k.arg: k.value for k in metadata.keywords}
            elif isinstance(metadata, ast.Dict) and None not in metadata.keys:
                entries = {_constant(k, str, None): v for k, v in zip(metadata.keys, metadata.values)}
            else:
                return None
            if None in entries:
                return None
            return _constant(entries["static"], bool, None) if "static" in entries else False
    return False


def _constant(node, kind, default):
    return node.value if isinstance(node, ast.Constant) and type(node.value) is kind else default


def _comparing_methods(cls, fields):
    """Methods whose whole body is ``return self.field == CONSTANT`` (or another ordering
    against constants and dotted names): on a jitted result they give a device bool."""
    found = []
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef) and not stmt.decorator_list and len(stmt.body) == 1 \
                and isinstance(stmt.body[0], ast.Return) and isinstance(stmt.body[0].value, ast.Compare):
            test, params = stmt.body[0].value, stmt.args.args
            left = test.left
            if len(params) == 1 and all(isinstance(op, ORDERINGS) for op in test.ops) \
                    and isinstance(left, ast.Attribute) and isinstance(left.value, ast.Name) \
                    and left.value.id == params[0].arg and left.attr in fields \
                    and all(_dotted_or_constant(c) for c in test.comparators):
                found.append(stmt.name)
    return found


def _dotted_or_constant(expr):
    name, _ = split_attributes(expr)
    return isinstance(expr, ast.Constant) or name is not None


def result_shape(func, records):
    """What a jitted function returns when every ``return`` agrees and a pytree class of
    this module is part of it: {"record": facts} or {"tuple": [shape or None, ...]}."""
    if not func.body or type(func.body[-1]) is not ast.Return:
        return None
    constructed, stored, returned = {}, {}, []
    for node in walk_own(func.body, NESTED_SCOPES):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stored[node.id] = stored.get(node.id, 0) + 1
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            constructed[node.targets[0].id] = node.value
        elif isinstance(node, (ast.Yield, ast.YieldFrom)):
            return None
        elif isinstance(node, ast.Return):
            returned.append(node.value)
    shapes = {json.dumps(_shape(value, records, constructed, stored), sort_keys=True) for value in returned}
    shape = json.loads(shapes.pop()) if len(shapes) == 1 else None
    return shape if shape and "record" in json.dumps(shape) else None


def _shape(expr, records, constructed, stored):
    if isinstance(expr, ast.Name) and stored.get(expr.id) == 1 and expr.id in constructed:
        expr = constructed[expr.id]  # new_state = State(...); return new_state
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in records \
            and stored.get(expr.func.id) is None:
        return {"record": records[expr.func.id]}
    if isinstance(expr, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in expr.elts):
        return {"tuple": [_shape(e, records, constructed, stored) for e in expr.elts]}
    return None


def dtype_aliases(tree, imports):
    """{name: [dtype, spelled as a Python type]} for module constants bound once, at the top
    level, to a dtype (``f64 = jnp.float64``, ``DT = "float32"``), for other modules to read."""
    found = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            value = stmt.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                dtype, python_type = dtypes.canonical(value.value), False
            else:
                dtype, python_type = dtypes.dtype_of_qualname(_qualname(value, imports))
            if dtype is not None:
                found[stmt.targets[0].id] = [dtype, python_type]
    if found:  # only then: is any of them rebound anywhere?
        rebound = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                rebound[node.id] = rebound.get(node.id, 0) + 1
            elif isinstance(node, ast.Global):
                rebound.update((name, 2) for name in node.names)
        found = {name: alias for name, alias in found.items() if rebound.get(name) == 1}
    return found


def _imported_target(expr, imports):
    """(import binding, attribute path) for ``helper`` or ``model.helper`` bound by an import."""
    name, parts = split_attributes(expr)
    if name is None or name.id not in imports:
        return None
    return imports[name.id], parts


# ---- the project: resolving modules and reading summaries -------------------------------
class Project:
    """The project around one linted file: its modules' summaries, found without importing."""

    def __init__(self, filename, cache_dir, transforms, scalars_static):
        self.path = Path(filename).resolve()
        self.package, self.in_package = _top_package(self.path.parent)  # or the file's folder
        root = self.package.parent if self.in_package else self.package
        # What resolving depends on: the import root, the working directory, the file's folder.
        self._place = (str(root), os.getcwd(), str(self.path.parent))
        self._functions = {}  # (binding, attributes) -> what function() found, for this file
        self.consulted = []  # (question, arguments, answer) for each question the model asked
        self.cache_dir = cache_dir
        self.transforms = transforms
        self.scalars_static = scalars_static
        self.salt = _salt(transforms, scalars_static)

    # ---- module resolution ----
    def resolve(self, binding, attributes=()):
        """(module path, function name) that an import binding plus attributes names, or None."""
        module, level, attribute = binding
        key = (*self._place, module, level, attribute, *attributes)
        try:
            return _RESOLVED[key]
        except KeyError:
            pass
        outside = not level and not self.is_project_module(module)  # jax, numpy, ...
        found = _RESOLVED[key] = None if outside else self._resolve(binding, attributes)
        return found

    def is_project_module(self, dotted):
        """True when the top package of an absolute dotted name is a source file of the project."""
        key = (*self._place[:2], dotted.split(".")[0])
        if key not in _PROJECT_MODULES:
            _PROJECT_MODULES[key] = any(_module_file(os.path.join(root, key[-1])) for root in self._place[:2])
        return _PROJECT_MODULES[key]

    def _resolve(self, binding, attributes):
        module, level, attribute = binding
        if level:
            base = self._place[2]
            for _ in range(level - 1):
                base = os.path.dirname(base)
            candidates = [os.path.join(base, *[p for p in module.split(".") if p])]
        else:
            candidates = [os.path.join(root, *module.split(".")) for root in self._place[:2]]
        names = ([attribute] if attribute else []) + list(attributes)
        for stem in candidates:
            # from pkg import mod (a module) or from pkg.mod import func
            for split in range(len(names), -1, -1):
                path = _module_file(os.path.join(stem, *names[:split]))
                rest = names[split:]
                if path is not None and len(rest) == 1:
                    return path, rest[0]
        return None

    # ---- summaries ----
    def summary(self, path, defines=None):
        """The summary of the module at ``path``, for its current bytes. Within a process a
        file whose size and modification time did not change is not read again. With
        ``defines``, None when no line starts by defining that name (the module is then not
        parsed: the summary knows only top-level definitions)."""
        try:
            stat = path.stat()
        except OSError:
            return None
        version = (stat.st_mtime_ns, stat.st_size)
        seen = _SEEN.get((path, self.salt))
        if seen is not None and seen[0] == version:
            return seen[1]
        if defines is not None:
            part = _PARTS.get((path, self.salt, defines))
            if part is not None and part[0] == version:
                return part[1]
            known = _DEFINITIONS.get(path)
            if known is not None and known[0] == version and defines not in known[1]:
                return None
        try:
            data = path.read_bytes()
        except OSError:
            return None
        key = self._key(data)
        if defines is not None:  # a summary of that name alone, kept by an earlier run
            part = read_cached(self.cache_dir, f"{key}-{defines}")
            if part is not None:
                _PARTS[(path, self.salt, defines)] = (version, part)
                return part
        summary = read_cached(self.cache_dir, key)
        if summary is None:
            if defines is not None:
                definitions = top_level_definitions(data)
                _DEFINITIONS[path] = (version, definitions)
                if defines not in definitions:
                    return None
                part = function_summary(data, defines, self.transforms, definitions)
                if part is not None:  # kept in memory and on disk beside the module's key
                    write_cached(self.cache_dir, f"{key}-{defines}", part)
                    _PARTS[(path, self.salt, defines)] = (version, part)
                    return part
            summary = summarise(data, self.transforms, self.scalars_static)
            write_cached(self.cache_dir, key, summary)
        _SEEN[(path, self.salt)] = (version, summary)
        return summary

    # ---- what the model asks of the other modules (recorded in ``consulted``) ----
    def function(self, binding, attributes=()):
        """(module path, facts) for an imported project function, or None. Facts: params,
        line, returns, converts (see ``function_facts``), whether it is jitted, and the
        shape of its result (``result_shape``) when known."""
        key = (*binding, *attributes)
        if key not in self._functions:
            found = self._functions[key] = self._function(binding, attributes)
            self.consulted.append(("function", [list(binding), list(attributes)], answer(found)))
        return self._functions[key]

    def _function(self, binding, attributes):
        found = self.resolve(binding, attributes)
        if found is None or found[0] == self.path:
            return None
        path, name = found
        summary = self.summary(path, defines=name)
        if summary is None or (name not in summary["functions"] and name not in summary["jitted"]):
            return None
        facts = dict(summary["functions"].get(name, {"returns": None, "converts": ()}),
                     jitted=name in summary["jitted"], result=summary["results"].get(name))
        return path, facts

    def dtype_alias(self, binding, attributes=()):
        """[dtype, spelled as a Python type] for an imported project module's dtype constant."""
        found = self.resolve(binding, attributes)
        summary = self.summary(found[0], defines=found[1]) if found is not None and found[0] != self.path else None
        alias = summary["dtypes"].get(found[1]) if summary else None
        self.consulted.append(("dtype_alias", [list(binding), list(attributes)], answer(alias)))
        return alias

    def callers(self):
        """{function name in this file: [(positions, keywords, transform, caller, path, line)]}
        from the project's other modules whose traced functions call it with tracers. The
        index is built once per process (one flake8 run sees one state of the files)."""
        key = (self.package, self.salt)
        if key not in _CALLERS:
            _CALLERS[key] = self._callers_index(self._project_files())
        found = {name: [c for c in calls if c[4] != self.path]
                 for name, calls in _CALLERS[key].get(self.path, {}).items()}
        self.consulted.append(("callers", [], answer(found)))
        return found

    def _callers_index(self, files):
        """{module path: {function name: calls}} for every traced call between project modules."""
        index = {}
        might_trace = _transform_pattern(tuple(sorted(self.transforms)))
        for path in files:
            traced_calls = self._traced_calls(path, might_trace)
            if not traced_calls:
                continue
            caller = Project.__new__(Project)
            caller.__dict__.update(self.__dict__, path=path)
            for binding, attributes, positions, names, function, line, transform in traced_calls:
                target = caller.resolve(binding, attributes)
                if target is not None:
                    calls = index.setdefault(target[0], {}).setdefault(target[1], [])
                    calls.append((positions, names, transform, function, path, line))
        return index

    def _traced_calls(self, path, might_trace):
        """A module's calls from traced functions into other modules. A module in which no
        decorator or assignment names a transform has none: it is neither parsed nor looked
        up in the cache."""
        try:
            data = path.read_bytes()
        except OSError:
            return []
        if not might_trace.search(b"\n" + data):  # the pattern starts at a newline
            return []
        summary = self.summary(path)
        return summary["traced_calls"] if summary else []

    def _key(self, data):
        return hashlib.blake2b(data + self.salt, digest_size=16).hexdigest()

    def _project_files(self):
        key = (self.package, self.in_package)
        files = _FILES.get(key)
        if files is None:
            if self.in_package:
                files = []
                for folder, dirs, names in os.walk(self.package):
                    dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
                    files.extend(Path(folder) / n for n in sorted(names) if n.endswith(".py"))
                    if len(files) > MAX_PROJECT_FILES:
                        break
            else:
                files = sorted(self.package.glob("*.py"))
            files = _FILES[key] = files[:MAX_PROJECT_FILES]  # below the resolved package folder
        return files


QUESTIONS = ("function", "dtype_alias", "callers")  # what the model asks of other modules


def answer(found):
    """A question's result as text: equal texts mean the model sees the same thing."""
    return json.dumps(found, sort_keys=True, default=str)


def read_cached(folder, key):
    """The JSON data kept under ``key`` in the cache folder, or None."""
    if not folder:
        return None
    try:
        with open(os.path.join(folder, f"{key}.json"), encoding="utf-8") as cached:
            return json.loads(cached.read())
    except (OSError, ValueError):
        return None


def write_cached(folder, key, data):
    """Keep ``data`` under ``key``; a folder that cannot be written costs time, never correctness."""
    if not folder:
        return
    folder = str(folder)
    partial = os.path.join(folder, f"{key}.{os.getpid()}.tmp")  # then renamed: readers never see half
    try:
        os.makedirs(folder, exist_ok=True)
        with open(partial, "w", encoding="utf-8") as out:
            out.write(json.dumps(data))
        os.replace(partial, os.path.join(folder, f"{key}.json"))
    except (OSError, TypeError, ValueError):
        pass


def has_project(filename):
    """Whether a file linted under ``filename`` has a project around it (a buffer with no path has none)."""
    return bool(filename) and filename not in ("stdin", "-")


def project_around(filename, options):
    """The Project around the file linted under ``filename`` with these options, or None."""
    if not has_project(filename):
        return None
    transforms, _, scalars_static, _ = transform_tables(tuple(options.extra_transforms))
    return Project(filename, cache_folder(options.cache_dir), transforms, scalars_static)


def _salt(transforms, scalars_static):
    """What every cache key mixes in besides a module's bytes: the plugin and JAX versions,
    the summary format and the transforms. Kept for the tables every file of a run shares."""
    known = _SALTS.get((id(transforms), id(scalars_static)))
    if known is None or known[0] is not transforms or known[1] is not scalars_static:
        settings = json.dumps([sorted((name, b.name) for name, b in transforms.items()), sorted(scalars_static)])
        salt = f"{__version__}/{SUMMARY_FORMAT}/{api.data()['jax_version']}/{settings}".encode()
        known = _SALTS[(id(transforms), id(scalars_static))] = (transforms, scalars_static, salt)
    return known[2]


@lru_cache(maxsize=None)
def _transform_pattern(transforms):
    """Bytes that a module tracing a top-level function must contain (``summarise`` reads
    only top-level statements): a transform's last name in a decorator at the start of a
    line (``@jax.jit``, ``@partial(jax.jit``) or in a module-level assignment (``step =
    jax.jit(_step)``). It starts with a newline rather than ``^``: the search then jumps
    from line to line instead of trying every byte (6x faster on the corpus)."""
    names = b"|".join(sorted({re.escape(name.rsplit(".", 1)[1]).encode() for name in transforms}))
    return re.compile(rb"\n(?:@[\w. \t(]*\b(?:" + names + rb")\b|\w+\s*=.*\b(?:" + names + rb")\b)")


def _module_file(stem):
    """``stem.py`` or ``stem/__init__.py`` (``stem``: a path as a string) when it exists
    outside site-packages."""
    if stem not in _MODULE_FILES:
        candidates = (stem + ".py", os.path.join(stem, "__init__.py"))
        _MODULE_FILES[stem] = next((Path(os.path.realpath(path)) for path in candidates
                                    if not any(part in NOT_PROJECT for part in path.split(os.sep))
                                    and os.path.isfile(path)), None)
    return _MODULE_FILES[stem]


def _top_package(folder):
    """(the top package above ``folder``, True), or (``folder``, False) outside a package."""
    key = str(folder)
    if key not in _PACKAGES:
        package = folder
        while (package / "__init__.py").is_file() and (package.parent / "__init__.py").is_file():
            package = package.parent
        _PACKAGES[key] = package, (package / "__init__.py").is_file()
    return _PACKAGES[key]


# For the life of the process (one flake8 run): what was found on disk.
_SEEN = {}  # (path, salt) -> ((mtime, size), summary)
_FILES = {}  # (package, in a package) -> project files
_MODULE_FILES = {}  # module stem -> its file, or None
_PACKAGES = {}  # folder -> (its top package or itself, whether in a package)
_PROJECT_MODULES = {}  # (import root, working directory, top-level name) -> whether the project has it
_PARTS = {}  # (path, salt, function name) -> ((mtime, size), summary of that function alone)
_DEFINITIONS = {}  # module path -> ((mtime, size), its top_level_definitions)
_RESOLVED = {}  # (roots, folder, binding, attributes) -> (module path, name) or None
_SALTS = {}  # (id(transforms), id(scalars_static)) -> (the two objects, kept alive, their salt)
_CALLERS = {}  # (package, salt) -> callers index
