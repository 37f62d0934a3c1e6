"""The project around one linted file: its modules, found and read without importing.

flake8 lints one file at a time, in any order and in several processes, so what a file needs from
its neighbours is their summaries (``summaries``), read through the cache (``cache``). Imports
resolve to source files under the linted file's import root (the folder above its top package, or
its own folder), the project's root (the nearest folder above that holds ``pyproject.toml``,
``setup.py`` or ``setup.cfg``: a script in ``scripts/`` imports the package beside it) or the
working directory, never into site-packages. A file not in a package sees the ``.py`` files next to
it. The reach says which functions of this file the project's traces reach from other modules, any
number of calls away, with which parameters traced.
"""
import os
from collections import deque
from functools import partial

from ..syntax import module_imports
from ..traced import transform_tables
from . import cache
from .cache import MEMORY
from .called import functions_run, passed_functions
from .defaults import (OtherModules, answer, calls_keeping_default, is_test_module, leaves_out, modules_naming, shown,
                       table_functions)
from .package import (ReachInputs, import_roots, is_project_module, kept_reach, module_file, module_roots,
                      package_files, given_a_transform, project_folder, real_path, top_level_definitions,
                      top_level_imports, top_package)
from .returned_objects import HELD, held_summary, made
from .scripts import scripts_beside
from .targets import INSTANCE_METHOD, LINEN_APPLY, PARAMETER_METHOD, TABLE_ENTRY, called_object
from .wrappers import CLASSES, class_needs

# Imported where used (a save whose summaries and reach are kept never needs them): summarising a module's text
# (``summaries``, ``units``, ``objects``, ``handed_keys``, ``constants``) and solving the reach (``returns``).
NUMPY = "(numpy)"  # the part of a summary numpy_summary gives (no def's name)

# What the model asks of other modules.
QUESTIONS = ("function", "dtype_alias", "numpy_data", "project_class", "callers", "kept_defaults", "named_elsewhere",
             "rebound_elsewhere", "looped_elsewhere", "transform_alias", "rebound_global", "passed_dtypes",
             "passed_arrays", "given_dtypes", "project_module", "held_object", "table_entries", "field_literal")
# Summary parts that a question of classes, constants or held kinds reads, and the roots' (kept as a def's part).
PARTS, ROOTS = (CLASSES, NUMPY, HELD), "(roots)"


class Project(OtherModules):
    """The project around one linted file: its modules' summaries, found without importing."""

    def __init__(self, filename, cache_dir, transforms, scalars_static):
        self.path = real_path(filename)
        self.package, self.in_package = top_package(self.path.parent)  # or the file's folder
        root = self.package.parent if self.in_package else self.package
        # What resolving depends on: the folders imports resolve under, the file's folder.
        self._place = (import_roots(root), str(self.path.parent))
        self._folder = project_folder(root)
        self._functions = {}  # (binding, attributes) -> what function() found, for this file
        self.consulted = []  # (question, arguments, answer) for each question the model asked
        self.cache_dir = cache_dir
        self.transforms = transforms
        self.scalars_static = scalars_static
        self.salt = cache.salt(transforms, scalars_static)
        self.reach_inputs = ReachInputs()  # what solving the reach relies on, while it is solved

    # ---- module resolution ----
    def resolve(self, binding, attributes=()):
        """(module path, function name) that an import binding plus attributes names, or None."""
        module, level, attribute = binding
        key = (*self._place, module, level, attribute, *attributes)
        try:
            return MEMORY.resolved[key]
        except KeyError:
            pass
        named = TABLE_ENTRY not in attributes and (level or self.is_project_module(module))  # not jax, a lookup
        found = MEMORY.resolved[key] = self._resolve(binding, attributes) if named else None
        if found is not None and found[0].name == "__init__.py":  # (kept first: a cycle ends there)
            found = MEMORY.resolved[key] = self._reexported(*found) or found
        return found

    def _reexported(self, path, name):
        """(module path, name) where the package ``__init__.py`` at ``path`` imports ``name``
        from (``from .sub import leaf``), followed through further re-exports; None when it
        defines ``name`` itself or does not import it."""
        try:
            data = path.read_bytes()
        except OSError:
            return None
        if name in top_level_definitions(data) or name.encode() not in data:
            return None
        try:
            binding = module_imports(cache.parsed(data)).get(name)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        return self._resolver(path).resolve(binding) if binding is not None else None

    def is_project_module(self, dotted):
        """True when the top package of an absolute dotted name is a source file of the project."""
        return is_project_module(self._place[0], dotted)

    def _resolve(self, binding, attributes):
        module, level, attribute = binding
        if level:
            base = self._place[1]
            for _ in range(level - 1):
                base = os.path.dirname(base)
            candidates = [os.path.join(base, *[p for p in module.split(".") if p])]
        else:
            candidates = [os.path.join(root, *module.split(".")) for root in self._place[0]]
        names = ([attribute] if attribute else []) + list(attributes)
        for stem in candidates:
            # from pkg import mod (a module) or from pkg.mod import func
            for split in range(len(names), -1, -1):
                path = module_file(os.path.join(stem, *names[:split]))
                rest = names[split:]
                if path is not None and len(rest) == 1:
                    return path, rest[0]
        return None

    # ---- summaries ----
    def summary(self, path, defines=None, needs=None):
        """The summary of the module at ``path``, for its current bytes. Within a process a file whose size
        and modification time did not change is not read again. With ``defines``, None when no line starts by
        defining that name (the module is then not parsed: the summary knows only top-level definitions), or
        the part a question of that name alone needs (``CLASSES``: ``class_summary``, ``NUMPY``: ``numpy_summary``,
        ``HELD``, which no whole summary holds: ``held_summary``); with ``needs`` (bytes patterns), None when the
        module's bytes do not match each of them: what is asked cannot be there (``class Trainer`` for the
        class ``Trainer``'s facts, ``global`` for a rebound global)."""
        self.reach_inputs.read(path)
        try:
            stat = path.stat()
        except OSError:
            return None
        version = (stat.st_mtime_ns, stat.st_size)
        seen = MEMORY.summaries.get((path, self.salt)) if defines != HELD else None
        if seen is not None and seen[0] == version:
            return seen[1]
        if needs is not None and not cache.matches(path, version, needs):
            return None
        if defines is not None:
            part = MEMORY.parts.get((path, self.salt, defines))
            if part is not None and part[0] == version:
                return part[1]
            known = MEMORY.definitions.get(path)
            if known is not None and known[0] == version and defines not in known[1] and defines not in PARTS:
                return None
        try:
            key, data = cache.module_key(path, version, self.salt)
        except OSError:
            return None
        if defines is not None:  # a summary of that name alone, kept by an earlier run
            part = cache.read(self.cache_dir, f"{key}-{defines}")
            if part is not None:
                MEMORY.parts[(path, self.salt, defines)] = (version, part)
                return part
        summary = cache.read(self.cache_dir, key) if defines != HELD else None
        if summary is None:
            try:
                data = path.read_bytes() if data is None else data
            except OSError:
                return None
            if defines is not None and defines not in PARTS:  # (a name it does not define: nothing to summarise)
                definitions = top_level_definitions(data)
                MEMORY.definitions[path] = (version, definitions)
                if defines not in definitions:
                    return None
            from .constants import numpy_summary
            from .summaries import class_summary, function_summary, summarise
            if defines in PARTS:
                part = numpy_summary(data) if defines == NUMPY else (
                    class_summary if defines == CLASSES else held_summary)(data, self.transforms)
            elif defines is not None:
                part = function_summary(data, defines, self.transforms, self.scalars_static, definitions)
            if defines is not None and part is not None:  # kept in memory and on disk beside the module's key
                cache.write(self.cache_dir, f"{key}-{defines}", part)
                MEMORY.parts[(path, self.salt, defines)] = (version, part)
                return part
            summary = summarise(data, self.transforms, self.scalars_static)
            cache.write(self.cache_dir, key, summary)
        MEMORY.summaries[(path, self.salt)] = (version, summary)
        return summary

    # ---- what the model asks of the other modules (recorded in ``consulted``) ----
    def function(self, binding, attributes=()):
        """(module path, facts) for an imported project function, or None. Facts: params,
        line, returns, converts (see ``function_facts``), whether it is jitted, and the
        shape of its result (``jitted_result_shape``) when known."""
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
                     jitted=name in summary["jitted"], result=summary["results"].get(name),
                     options=summary.get("options", {}).get(name))
        if name in summary["functions"]:
            through, _ = self._converts_through(path, name, summary, {(path, name)})
            facts["converts"] = sorted(facts["converts"]) + through
            from . import handed_keys  # (it asks this Project back)
            facts.update(handed_keys.handed_keys(self, path, name, summary), **made(self, path, facts))
        return path, facts

    def _converts_through(self, path, name, summary, seen):
        """([[parameter index, code, what, line]] for the parameters that the function
        ``name`` of the module at ``path`` hands, on every call and as they came in, to
        another project function (not jitted) that converts them, itself or further down
        (``what`` names where: "float() in 'to_scalar' (pkg/util.py:5)"; ``line``: the
        call's, in ``path``), whether a call back into ``seen`` cut the search). Kept for
        the process (as the reach is) unless cut: what a cut search finds depends on
        where it started, and must not depend on which file asked first."""
        key = (path, name, self.salt, os.getcwd())
        if key in MEMORY.conversions:
            return MEMORY.conversions[key], False
        params = summary["functions"][name]["params"]
        found, cut = [], False
        for binding, attributes, positions, keywords, line, always, *_ in summary["flows"].get(name, ()):
            bare = {where: passed[0] for where, passed, is_bare in positions + keywords if is_bare}
            if not (always is True and bare):
                continue
            target = self.target_of(path, binding, attributes)
            if target is None or target in seen:
                cut |= target is not None
                continue
            callee_summary = self.summary(target[0], defines=target[1])
            callee = callee_summary["functions"].get(target[1]) if callee_summary else None
            if callee is None or target[1] in callee_summary["jitted"]:
                continue
            own = [[index, code, f"{what} in '{target[1]}' ({shown(target[0])}:{far_line})"]
                   for index, code, what, far_line in callee["converts"]]
            further, further_cut = self._converts_through(*target, callee_summary, seen | {target})
            cut |= further_cut
            for index, code, what in own + [entry[:3] for entry in further]:
                passed = bare.get(index, bare.get(callee["params"][index])) if index < len(callee["params"]) else None
                if passed in params:
                    found.append([params.index(passed), code, what, line])
        found.sort()
        if not cut:
            MEMORY.conversions[key] = found
        return found, cut

    def dtype_alias(self, binding, attributes=()):
        """[dtype, spelled as a Python type] for an imported project module's dtype constant."""
        found = self.resolve(binding, attributes)
        summary = self.summary(found[0], defines=found[1]) if found is not None and found[0] != self.path else None
        alias = summary["dtypes"].get(found[1]) if summary else None
        return self.answered("dtype_alias", [list(binding), list(attributes)], alias)

    def numpy_data(self, binding, attributes=()):
        """Whether an imported name is a project module's NumPy array constant (``constants``)."""
        found = self.resolve(binding, attributes)
        summary = None
        if found is not None and found[0] != self.path and type(found[1]) is str:
            from .constants import constant_needs  # (a name of another module only: most are not)
            summary = self.summary(found[0], NUMPY, constant_needs(found[1]))
        known = bool(summary) and found[1] in summary["numpy"]
        return self.answered("numpy_data", [list(binding), list(attributes)], known)

    def project_class(self, binding, attributes=()):
        """(module path, facts) for an imported project class that hands out jitted functions
        (``wrappers``: the methods that return one, the parameter its instances call), or None."""
        found = self.resolve(binding, attributes)
        summary = self.summary(found[0], CLASSES, class_needs(found[1], _last_names(self.transforms))) \
            if found is not None and found[0] != self.path else None
        facts = summary["classes"].get(found[1]) if summary else None
        return self.answered("project_class", [list(binding), list(attributes)], (found[0], facts) if facts else None)

    def callers(self):
        """{function name in this file: [(parameters, transform, caller, caller's path, line, root)]}
        for the calls reached by a trace that pass this file's function tracers, or none ([]: it runs at
        trace time, the trace cached; caller None: a transform applied to it, ``jax.jit(loss)``), from
        another module, or from this one where its in-file model cannot follow them (``functions_run``);
        root: (function, path, line) of the traced function the chain starts at, or None when the caller
        is that root. The reach is solved once per process (one flake8 run sees one state of the files)
        and kept on disk for later runs and other workers (``package.kept_reach``)."""
        key = (self.package, self.salt)
        if key not in MEMORY.callers:
            MEMORY.callers[key] = kept_reach(self, self._reach, self._imports_project)
        found = MEMORY.callers[key].get(str(self.path), {})
        return self.answered("callers", [], {name: calls for name, calls in found.items() if calls})

    def kept_defaults(self, name, param, index):
        """[[module path as messages show it, line]]: the calls in other project modules that
        leave ``param`` of this file's function ``name`` to its default (``defaults``)."""
        found = [[shown(path), line] for path, line in calls_keeping_default(self, name, param, index)]
        return self.answered("kept_defaults", [name, param, index], found)

    def named_elsewhere(self, name):
        """Whether another module of the project has the word ``name`` (``defaults``)."""
        return self.answered("named_elsewhere", [name], bool(modules_naming(self, name)))

    def _reach(self, files):
        """{module path: {function name: calls}} (see ``callers``): tracing spread from every
        module's roots along the calls that pass tracers (``flows``), through any number of
        functions and modules, to a fixpoint. Each module's summary is read once; a
        function's traced parameters only grow, so each is visited at most once per
        parameter."""
        from .objects import PassedObjects
        from .returns import passes_tracers, traced_unders
        might_trace = _transform_pattern(tuple(sorted(self.transforms)))
        last_names = tuple(sorted(_last_names(self.transforms)))  # (given_a_transform's)
        # (path, function, transform) -> traced parameters; -> the chain's root (None for a
        # root); a root's (function, path, line) of where the transform is applied
        reached, starts, origins, queue = {}, {}, {}, deque()
        # (callee path, name) -> {(transform, caller or None when applied, path, line): [params, root]}
        calls = {}
        unlinked_sites = set()  # (callee, site) of a call in the callee's module that its in-file model cannot follow
        parts = {}  # module path -> what it says of its roots (its summary, or the roots' part of it)
        classes = partial(self._parameter_classes, indexes={})  # (the last module parsed for its units' classes)
        objects = PassedObjects(classes, self.target_of, self.scalars_static, starts)

        def start(root, params, origin):
            if not params <= reached.get(root, set()):
                reached.setdefault(root, set()).update(params)
                starts[root] = None
                origins.setdefault(root, origin)
                queue.append(root)

        def own_root(caller, path, root):
            """The chain's root for a call from ``caller``: None when the caller is a root
            of its own module (its message names where the caller is)."""
            return root if starts[caller] or origins[caller][1] != str(path) else None

        index = cache.RootIndex(self.cache_dir, cache.key_of(str(self.package).encode(), self.salt))
        for path in [*files, *scripts_beside(self)]:
            summary = parts[path] = self._roots(path, might_trace, index, last_names)
            for name, transform, params, line in summary["roots"] if summary else ():
                start((path, name, transform), set(params), (name, str(path), line))
            for binding, attributes, returned, transform, *spec, line in summary["applied"] if summary else ():
                if binding is None or attributes[-3:-2] == [TABLE_ENTRY] and not returned:
                    run = passed_functions(self, path, *attributes[2:0:-1], *attributes[3:]) if binding is None else [
                        (*entry, False) for entry in table_functions(self, path, binding, attributes) if not entry[2]]
                    for target, facts, _, unlinked in run:  # jax.jit(partial(policy, apply_fn)), jax.jit(LOSSES[name])
                        params, site = _applied_parameters(facts, *spec), (transform, None, str(path), line)
                        calls.setdefault(target, {}).setdefault(site, [set(), None])[0] |= params
                        unlinked_sites.update({(target, site)} if unlinked else ())
                        start((*target, transform), params, (target[1], str(path), line))
                    continue
                applied_module = attributes[-1:] == ["__call__"]  # jax.jit(model.apply), Model imported
                target = self.target_of(path, binding, attributes[:-1] if applied_module else attributes)
                target_summary = self.summary(target[0]) if target is not None and target[0] != path else None
                facts = target_summary["functions"].get(target[1]) if target_summary else None
                if target is None and attributes and not returned:  # jax.jit(counter.count): a method
                    target = self.target_of(path, binding, attributes[:-1])
                    target_summary = self.summary(target[0]) if target is not None and target[0] != path else None
                    target = (target[0], f"{target[1]}.{attributes[-1]}") if target_summary else None
                    facts = target_summary["methods"].get(target[1]) if target_summary else None
                    target = (target[0], facts.get("unit", target[1])) if facts else target  # (inherited)
                elif applied_module and target_summary:  # a linen Module's: traced there, followed no further
                    target = (target[0], f"{target[1]}.__call__")  # (it also runs eagerly, under init)
                    facts = target_summary["linen"].get(target[1])
                elif facts and returned:  # jax.jit(make_train(cfg)): the def make_train returns
                    facts = facts.get("gives")
                    target = (target[0], f"{target[1]}.{facts['name']}") if facts else None
                elif returned and target_summary and f"{target[1]}.__call__" in target_summary["methods"]:
                    facts = target_summary["methods"][f"{target[1]}.__call__"]  # jax.jit(model), model = Model(...)
                    target, spec = (target[0], facts.get("unit", f"{target[1]}.__call__")), [spec[0] + 1, *spec[1:]]
                params = _applied_parameters(facts, *spec) if facts else None
                if params:
                    calls.setdefault(target, {}).setdefault((transform, None, str(path), line), [set(), None])[0] \
                        |= params
                    if not applied_module:
                        start((*target, transform), params, (target[1], str(path), line))
        while queue:
            path, name, transform = caller = queue.popleft()
            root, traced = starts[caller] or origins[caller], reached[caller]
            caches = self.transforms[transform].cached  # a callee given no tracer runs once per trace
            for binding, attributes, positions, keywords, line, always, applied, argnums in self._flows(
                    parts.get(path), path, name):
                (holder, keywords), origin = called_object(keywords), path  # (origin: where imports name the callee)
                returns = partial(self._returns, path)  # (what a function that derives an argument returns)
                passed = [i for i, params, _ in positions if passes_tracers(params, traced, caches, returns)]
                named = [k for k, params, _ in keywords if passes_tracers(params, traced, caches, returns)]
                always = always is True or caches and bool(always) and leaves_out(self, path, name, always)
                if not (passed or named or always and caches):
                    continue
                if binding is None and attributes[0] == PARAMETER_METHOD:  # model.loss(x): model's class, if known
                    holder, found = attributes[1], objects.method_run(path, name, *attributes[1:])
                    origin, binding, attributes = found or (path, binding, attributes)
                run = functions_run(self, path, name, origin, binding, attributes, applied)
                for target, facts, skipped, unlinked in run:  # forward(p, x): each function the factory's calls pass
                    params = {facts["params"][i + skipped] for i in passed if i + skipped < len(facts["params"])} \
                        | set(named) if facts else set()
                    if facts is None or not (params or always and caches):
                        continue
                    objects.record(caller, target, facts["params"][skipped:], positions, keywords)
                    params |= objects.traced_self(caller, holder, facts["params"][:skipped]) if params else set()
                    unders = traced_unders(transform, applied, self.transforms.get(applied), params,
                                           facts["params"][skipped:], passed, argnums)
                    for under, given in unders.items() if target[0] != path or unlinked else ():
                        site = (under, name, str(path), line)
                        calls.setdefault(target, {}).setdefault(site, [set(), own_root(caller, path, root)])[0] \
                            |= given  # (jax.grad(loss)(p) in a jitted step: loss is also differentiated, in p)
                        unlinked_sites.update({(target, site)} if unlinked else ())
                    for callee, given in (((*target, under), given) for under, given in unders.items()):
                        if callee not in reached or not given <= reached[callee]:  # (and what loss calls)
                            reached.setdefault(callee, set()).update(given)
                            starts.setdefault(callee, root)
                            queue.append(callee)
        index.keep()
        found = {}
        for (path, name), sites in calls.items():  # (a module's own calls are its in-file model's to follow)
            found.setdefault(str(path), {})[name] = [
                (sorted(params), *site, root) for site, (params, root) in sorted(sites.items(), key=_site_order)
                if site[2] != str(path) or ((path, name), site) in unlinked_sites]
        return found

    def _flows(self, part, path, name):
        """The flows of the unit ``name`` of the module at ``path``: from what the reach read
        of the module's roots (``part``), else from the summary of that top-level def alone
        when one can be had (``function_summary``), else from the module's whole summary."""
        if part is not None and name in part["flows"]:
            return part["flows"][name]
        summary = self.summary(path, defines=name.split(".")[0]) if "." not in name else None
        return (summary if summary is not None and name in summary["functions"] else self.summary(path))[
            "flows"].get(name, ())

    def _parameter_classes(self, path, unit, indexes):
        """``parameter_classes`` of the module at ``path``'s unit, cached beside the module's key."""
        self.reach_inputs.read(path)
        try:
            stat = path.stat()
            key, data = cache.module_key(path, (stat.st_mtime_ns, stat.st_size), self.salt)
            key = f"{key}-classes-{unit}"
            found = cache.read(self.cache_dir, key)
            data = path.read_bytes() if found is None and data is None else data
        except OSError:
            return {}
        if found is None:
            from .objects import parameter_classes
            found = parameter_classes(data, unit, self.transforms, indexes)
            cache.write(self.cache_dir, key, found)
        return found

    def _returns(self, path, binding, attributes):
        return (self._callee(path, binding, attributes)[1] or {}).get("returns")  # (its summary's)

    def _callee(self, path, binding, attributes):
        """(module path and unit, its facts, how many positions self takes) for what a call
        recorded in the flows of the module at ``path`` runs: a function, the ``__init__``
        of a class (``Model(x)``), its ``__call__`` (``model(x)``, path ``[..., "__call__"]``; a
        linen Module's for ``model.apply(variables, x)``, path ``[..., LINEN_APPLY]``, or ``[...,
        LINEN_APPLY, "encode"]`` with ``method=Model.encode``) or another method of an
        instance (``model.loss(x)``, path ``[..., INSTANCE_METHOD, "loss"]``);
        facts None when the project does not say."""
        method = attributes[-1] if attributes[-2:-1] in ([INSTANCE_METHOD], [LINEN_APPLY]) else None
        if method is not None:
            attributes = attributes[:-1]
        applied = attributes[-1:] == [LINEN_APPLY]
        instance = applied or (bool(attributes) and attributes[-1] in ("__call__", INSTANCE_METHOD))
        target = self.target_of(path, binding, attributes[:-1] if instance else attributes)
        if target is None:
            return None, None, 0
        summary = self.summary(target[0], defines=target[1]) if not instance else None
        if summary is not None and target[1] in summary["functions"]:  # a def's own summary will do
            return target, summary["functions"][target[1]], 0
        summary = self.summary(target[0])
        if summary is None:
            return None, None, 0
        if not instance and target[1] in summary["functions"]:
            return target, summary["functions"][target[1]], 0
        if not instance and target[1] in summary.get("nested", {}):  # make_step.loss_fn, from make_step.step
            return target, summary["nested"][target[1]], 0
        unit = f"{target[1]}.{method or ('__call__' if instance else '__init__')}"
        facts = (summary["linen"] if applied else summary["methods"]).get(unit)
        return (target[0], facts.get("unit", unit) if facts else unit), facts, 1  # (inherited: where it is defined)

    def target_of(self, path, binding, attributes):
        """(module path, name) that a call recorded in the flows of the module at ``path``
        names: a function of that module (binding None) or an import resolved from there."""
        if binding is None:
            return path, attributes[0]
        resolver = self if path == self.path else self._resolver(path)
        found = resolver.resolve(binding, attributes)
        self.reach_inputs.resolved(path, binding, attributes, found)
        return found

    def _resolver(self, path):
        """A Project around the module at ``path``, to resolve its imports: one for the modules of a folder,
        which resolve alike (a linked module, by where it links to); keyed by text, which costs less."""
        key = (str(path) if os.path.islink(path) else os.path.dirname(path), os.getcwd())
        if key not in MEMORY.resolvers:
            MEMORY.resolvers[key] = Project(path, self.cache_dir, self.transforms, self.scalars_static)
        return MEMORY.resolvers[key]

    def _roots(self, path, might_trace, index, last_names):
        """What a module that may apply a transform says of it (``roots``, ``applied`` and the
        ``flows`` of the roots: its summary, or the roots' part of it, ``root_summary``),
        or None: a test module (its traces are the tests' own), and a module that never
        names a transform or imports no project module at its top level, unless its text may
        apply a transform to a parameter (``given_a_transform``: then what the project passes there
        is traced; otherwise nothing it traces can reach another module: its own traces are its
        own file's), which is neither parsed nor looked up in the cache. What the module's bytes
        say of that (``index``) is kept by file identity, so an unchanged module is not even read."""
        if is_test_module(path):
            return None
        identity = cache.identity(path)  # (before reading: a later write moves it)
        self.reach_inputs.read(path, identity)
        known, data = index.get(path, identity), None
        if known is None:
            try:
                data = path.read_bytes()
            except OSError:
                return None
            traces = might_trace.search(data) is not None
            version = (identity[2], identity[1]) if identity else None  # (modification time, size)
            key = cache.module_key(path, version, self.salt, data)[0] if traces else None  # (none: never looked up)
            known = index.put(path, identity, key, traces, top_level_imports(data) if traces else [], None)
        key, traces, imports, given = known
        imported = traces and self._imports_project(path, imports)
        if traces and not imported and given is None:  # (the text test: asked once, of modules the import test refuses)
            try:
                data = path.read_bytes() if data is None else data
            except OSError:
                return None
            given = index.put(path, identity, key, traces, imports, given_a_transform(data, last_names))[3]
        if not (imported or traces and given):
            return None
        found = cache.read(self.cache_dir, key) or cache.read(self.cache_dir, f"{key}-{ROOTS}")
        if found is None:  # its roots and their flows, from the lines that name a transform
            if data is None:  # (not read yet in this call)
                try:
                    data = path.read_bytes()
                except OSError:
                    return None
                if cache.key_of(data, self.salt) != key:  # changed since it was looked at
                    return self.summary(path) if imported else None
            from .summaries import root_summary
            found = root_summary(data, self.transforms, self.scalars_static)
            if found is None:  # (a module let in by its text alone is never parsed whole)
                return self.summary(path) if imported else None
            cache.write(self.cache_dir, f"{key}-{ROOTS}", found)
        if not imported:  # let in by its text alone: only a transform of a parameter reaches out
            return {"roots": [], "applied": [entry for entry in found["applied"] if entry[0] is None], "flows": {}}
        return found

    def _imports_project(self, path, imports):
        """Whether one of the top-level ``imports`` of the module at ``path`` (``top_level_imports``)
        names a project module: a relative one, or one whose top package is the project's."""
        roots = module_roots(os.path.dirname(path))  # (the project's files are real paths)
        found = any(relative or any(is_project_module(roots, m) for m in modules)
                    for relative, modules in imports)
        self.reach_inputs.imported(path, imports, found)
        return found

    def files(self):
        """The project's ``.py`` files: below its top package, or beside a loose file."""
        return package_files(self.package, self.in_package)

    def folder_files(self):
        """The ``.py`` files below the project's folder (``pyproject.toml``: ``project_folder``), where
        scripts beside the package drive it; ``files`` where it has none."""
        return package_files(self._folder, True) if self._folder is not None else self.files()


def _applied_parameters(facts, bound, names, static_positions, static_names):
    """The parameters of an imported function (its ``facts``) that a transform applied
    elsewhere traces: those ``partial`` did not bind and static options did not name."""
    positional = facts["params"][bound:]
    count = len(positional)
    static = {positional[i] for i in static_positions if -count <= i < count} | set(static_names)
    return set(facts["traceable"]) - set(facts["params"][:bound]) - set(names) - static


def _site_order(site):
    """Sites sorted by their key, a transform applied (caller None) first."""
    (transform, caller, path, line), _ = site
    return transform, caller or "", path, line


def has_project(filename):
    """Whether a file linted under ``filename`` has a project around it (a buffer with no path has none)."""
    return bool(filename) and filename not in ("stdin", "-")


def project_around(filename, options):
    """The Project around the file linted under ``filename`` with these options, or None."""
    if not has_project(filename):
        return None
    transforms, _, scalars_static, _ = transform_tables(tuple(options.extra_transforms))
    project = Project(filename, cache.folder(options.cache_dir), transforms, scalars_static)
    MEMORY.linting(project.package)
    return project


def _transform_pattern(transforms):
    """Bytes that a module applying a transform must contain: a transform's last name
    (``jit`` of ``@jax.jit``, ``jax.jit(f)(x)``, ``from jax import jit``)."""
    from .units import word_pattern
    return word_pattern(tuple(sorted(_last_names(transforms))))


def _last_names(transforms):
    """The last names of the transforms' dotted names (``jit`` of ``jax.jit``)."""
    return {name.rsplit(".", 1)[1] for name in transforms}
