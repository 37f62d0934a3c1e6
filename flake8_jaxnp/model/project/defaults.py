"""Where other modules of the project name or call a function of this file: a call that
leaves a parameter to its default (``make(3)`` in train.py, for ``def make(n,
dtype=np.float64)`` in util.py: JNP402 holds at the function's own line when any caller
keeps a 64-bit default), any mention at all (then the function's callers are not all
in its file, so what its parameters receive is not known there: JNP401), or a store that
rebinds one of its globals (``models.NEIGHBORS = ...``: JNP304 where traced code reads it),
and which project functions or objects its calls pass to a factory's parameter (``passed_values``,
the project's side of ``instances.given_by_calls``, the one reading of what a parameter holds).

Asked only where a finding depends on it, so rarely; each module of the project is read
once per process (only its words kept) and parsed only when it has the function's name (then
only its calls of project names, its stores and the names it refers to otherwise are kept, never
its text or tree; on disk too, beside its summaries: ``uses``).
"""
import json
from functools import lru_cache
from pathlib import Path

from ...patterns import Pattern
from ..instances import given_by_calls
from ..syntax import entries_looked_up, is_test_file
from .cache import MEMORY
from .targets import TABLE_ENTRY
from .uses import BOUND, COMPUTED, INSTANCE, PARAMETER, calls_of, module_uses, store_pattern


def answer(found):
    """A question's result as text: equal texts mean the model sees the same thing."""
    return "null" if found is None else _ANSWER_TEXT(found)  # (most answers: none)


# What a module that rebinds a global through ``global`` must contain: the statement, which starts a
# line, or follows a ``;`` or the ``:`` of a one-line block.
GLOBAL_STATEMENT = Pattern(rb"(?:\A|[\n\r;:])[\s\\]*global[\s\\]")
# The text tests ask first for a pattern that starts with a literal, which re finds by a fast scan for it (a
# hundred times faster than a pattern starting with a choice of what may precede, tried at every byte).
GLOBAL_NEEDS = (Pattern(rb"global[\s\\]"), GLOBAL_STATEMENT)
# json.dumps with options builds an encoder per call, which cost more than most answers' encoding
_ANSWER_TEXT = json.JSONEncoder(sort_keys=True, default=str).encode


@lru_cache(maxsize=None)
def shown(path):
    """A path as messages show it: relative to the working directory when below it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class OtherModules:
    """The questions of ``Project`` that read what other modules do with this file's names (each
    recorded in ``consulted``, as ``Project``'s own are, for ``reuse``)."""

    def answered(self, question, arguments, found):
        """``found``, recorded in ``consulted`` as the answer to ``question`` asked with ``arguments``."""
        self.consulted.append((question, arguments, answer(found)))
        return found

    def project_module(self, dotted):
        """Whether an absolute import of the top package ``dotted`` names a module of the project
        (``is_project_module``), for a check that asks no other module about the names of an import that
        does not: a module that appears under that name later changes the answer, and the findings are
        not reused."""
        return self.answered("project_module", [dotted], self.is_project_module(dotted))

    def held_object(self, binding, attributes=()):
        """What an object of an imported project class holds (``returned_objects.held_object``), or None."""
        from .returned_objects import held_object  # (it asks this Project back)
        return self.answered("held_object", [list(binding), list(attributes)], held_object(self, binding, attributes))

    def transform_alias(self, binding, attributes=()):
        """[transform, [[keyword, source]]] that an imported project name stands for where it decorates
        a def (``summaries.transform_aliases``), or None."""
        found = self.resolve(binding, attributes)
        summary = self.summary(found[0]) if found is not None and found[0] != self.path else None
        alias = summary.get("aliases", {}).get(found[1]) if summary else None
        return self.answered("transform_alias", [list(binding), list(attributes)], alias)

    def rebound_global(self, binding, attributes=()):
        """[module path as messages show it, line, whether through ``global``] where the global of
        an imported project module that ``binding`` and ``attributes`` name is rebound: by a
        function of its module through ``global`` (``callbacks.LR_SCALE``; the summaries'
        ``rebound``), or in a loop of another module (``configs.LABEL_SMOOTHING = s`` in a sweep
        script: ``rebinding_modules``); or None."""
        found = self.resolve(binding, attributes)
        other = found is not None and found[0] != self.path
        summary = self.summary(found[0], needs=GLOBAL_NEEDS) if other else None
        line = summary.get("rebound", {}).get(found[1]) if summary else None
        stores = rebinding_modules(self, found[1], found[0]) if other and not line else None
        where = [shown(found[0]), line, True] if line else [shown(stores[0][0]), stores[0][1], False] if stores \
            else None
        return self.answered("rebound_global", [list(binding), list(attributes)], where)

    def rebound_elsewhere(self, name):
        """[[module path as messages show it, line]]: where other modules rebind this file's global
        ``name`` (``models.NEIGHBORS = ...``; ``defaults``)."""
        found = [[shown(path), line] for path, line in rebinding_modules(self, name)]
        return self.answered("rebound_elsewhere", [name], found)

    def passed_dtypes(self, name, params, param, attr):
        """[[dtype, spelled as a Python type, class, module path as messages show it, line]] for the
        calls in other modules of the project's folder that give this file's top-level function
        ``name`` (positional parameters ``params``) as ``param`` an instance of a project dataclass
        built without its field ``attr`` (``init_params(key, PreciseModelConfig())``), which
        defaults to a dtype (``param_dtype: object = jnp.float64``; the summaries' ``dtypes``)."""
        files = [other for other in self.folder_files() if other != self.path]
        found = []
        for (path, cls), built, (where, line) in passed_values(self, files, self.path, name, params, param):
            summary = self.summary(path) if built is not None and not built[0] and attr not in built[1] else None
            dtype = summary["dtypes"].get(f"{cls}.{attr}") if summary else None
            if dtype is not None:
                found.append([*dtype, cls, shown(where), line])
        return self.answered("passed_dtypes", [name, list(params), param, attr], found)

    def given_dtypes(self, name, params, param):
        """[returns, dtypes, [[module path as messages show it, line]]] when every call in other modules of
        this file's top-level function ``name`` (positional ``params``) gives ``param`` what one project
        function returns, of the same kinds and dtypes (``given_dtypes``); else None."""
        return self.answered("given_dtypes", [name, list(params), param], given_dtypes(self, name, params, param))

    def passed_arrays(self, name, params):
        """The parameters of this file's top-level function ``name`` (positional ``params``) that every
        call in other modules gives a device array (``passed_arrays``)."""
        return self.answered("passed_arrays", [name, list(params)], passed_arrays(self, name, params))

    def field_literal(self, binding, attributes, field):
        """The text of the literal that ``field`` of an imported project dataclass defaults to
        (``donate: bool = True``; the summaries' ``fields``), or None."""
        found = self.resolve(binding, attributes)
        summary = self.summary(found[0]) if found is not None and found[0] != self.path else None
        text = summary.get("fields", {}).get(f"{found[1]}.{field}") if summary else None
        return self.answered("field_literal", [list(binding), list(attributes), field], text)

    def table_entries(self, binding, attributes):
        """[[facts, module path as messages show it]] of each function a lookup in an imported project dict
        of functions may give (``gp.KERNELS["rbf"]``: attributes ``["KERNELS", TABLE_ENTRY, key, 0]``,
        ``table_functions``), when the project summarises every one; else []."""
        found = [[facts, shown(target[0])] for target, facts, _ in table_functions(
            self, self.path, binding, attributes, every=True)]
        return self.answered("table_entries", [list(binding), list(attributes)], found)

    def looped_elsewhere(self, name):
        """[[module path as messages show it, line]]: the loops of other modules that call this
        file's function ``name`` (``defaults``)."""
        found = [[shown(path), line] for path, line in looping_modules(self, name)]
        return self.answered("looped_elsewhere", [name], found)


def calls_keeping_default(project, name, param, index):
    """[[module path, line]] for the first call in each other module of ``project`` that
    names this file's top-level function ``name`` through an import and leaves ``param``
    (positional ``index``, None when keyword-only) to its default."""
    found = []
    for path, version in modules_naming(project, name):
        for binding, attributes, positional, keywords, line, _, _, forwarding in \
                calls_of(project, path, version, name):
            keeps = param not in keywords and (index is None or positional <= index) and forwarding is None
            if keeps and project.target_of(path, binding, attributes) == (project.path, name):
                found.append([path, line])
                break
    return found


def leaves_out(project, path, unit, param):
    """Whether a call in the project's folder of the jitted ``unit`` of the module at ``path`` (a def
    decorated so, or the one a factory returns so, ``make_step.step``, called as ``step =
    make_step(cfg); step(p, x)``) leaves its parameter ``param`` out: that call traces ``unit``
    with ``param`` None, so its ``if param is None:`` blocks run at trace time."""
    factory, _, inner = unit.partition(".")
    summary = project.summary(path)
    facts = summary["functions"].get(factory)
    facts = facts.get("jits") if inner and facts else facts if unit in summary["jitted"] else None
    if facts is None or inner and facts["name"] != inner or param not in facts["params"]:
        return False
    index, files = facts["params"].index(param), project.folder_files()
    for other in files:
        project.reach_inputs.read(other)
    return any(param not in keywords and positional <= index and forwarding is None
               and project.target_of(other, binding, attributes) == (path, factory)
               for other, version in modules_naming(project, factory, files)
               for binding, attributes, positional, keywords, _, _, _, forwarding
               in calls_of(project, other, version, f"{factory}()" if inner else factory))


def modules_naming(project, name, files=None):
    """[(path, (modification time, size))] of the modules among ``files`` (the other modules of
    ``project``) that have the word ``name`` (in code, a string or a comment alike: only they can
    call the function of that name)."""
    word = name.encode("utf-8")
    found = []
    for path in [other for other in project.files() if other != project.path] if files is None else files:
        kept = module_words(path)
        if kept is not None and has_word(path, kept[1], word):
            found.append((path, kept[0]))
    return found


# Every byte that is not part of a word (``\w`` of a bytes pattern: ASCII letters, digits and "_") as a
# space: translating then splitting finds a module's words in half the time of ``re.findall``.
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_WORDS_APART = bytes(byte if byte in _WORD_BYTES else 32 for byte in range(256))


def module_words(path):
    """((modification time, size), the module's words), read once per process while the file's
    size and modification time stay. The words are kept as one bytes, each between newlines
    (a tenth of a set's memory, and no copy of the module's text): a question then costs a
    search of that bytes per module."""
    try:
        stat = path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
        kept = MEMORY.words.get(path)
        if kept is None or kept[0] != version:
            words = set(path.read_bytes().translate(_WORDS_APART).split())
            kept = MEMORY.words[path] = (version, b"\n%b\n" % b"\n".join(words))
    except OSError:
        return None
    return kept


def has_word(path, words, word):
    """Whether ``word`` is one of a module's ``words`` (``module_words``); one that is not ASCII (which
    ``\\w`` leaves out) is looked for anywhere in the module's bytes instead."""
    if word.isascii():
        return b"\n%b\n" % word in words
    try:
        return word in path.read_bytes()
    except OSError:
        return False


def rebinding_modules(project, name, module=None):
    """[[module path, line]] for the first statement in each other module of ``project``'s folder
    (``folder_files``) that rebinds the global ``name`` of this file (or of ``module``, a path) in a
    loop, as an attribute of the imported module (``models.NEIGHBORS = ...`` after ``from pkg import
    models``): code traced with it keeps the value it saw first."""
    found, store, module = [], store_pattern(name), module or project.path
    for path, version in _importing_modules(project, name, module):
        uses = module_uses(project, path, version, store)  # (cheap: most modules that name it never store to it)
        for binding, attributes, line in uses[1].get(name, ()) if uses else ():
            if project.target_of(path, binding, attributes) == (module, name):
                found.append([path, line])
                break
    return found


def _importing_modules(project, name, path=None):
    """``modules_naming`` of the project's folder (``folder_files``) those that also have the word
    of this file's module (or of the module at ``path``; ``models`` of pkg/models.py, the
    package's of an ``__init__.py``): an import of it names it, except one through a re-export,
    which these questions leave out to stay cheap."""
    path = path or project.path
    stem = (path.parent.name if path.name == "__init__.py" else path.stem).encode("utf-8")
    files = [other for other in project.folder_files() if other != project.path]
    return [(other, version) for other, version in modules_naming(project, name, files)
            if has_word(other, module_words(other)[1], stem)]


def looping_modules(project, name):
    """[[module path, line of the loop]] for the first loop in each other module of ``project``'s
    folder whose body calls this file's top-level function ``name`` through an import, outside any
    decorated def (where a transform may trace the loop: it then runs once, at trace time)."""
    found = []
    for path, version in _importing_modules(project, name):
        for binding, attributes, _, _, _, loop, _, forwarding in calls_of(project, path, version, name):
            if loop is not None and forwarding is None \
                    and project.target_of(path, binding, attributes) == (project.path, name):
                found.append([path, loop])
                break
    return found


def passed_values(project, files, path, factory, params, param, seen=frozenset(), bound=False, agreeing=False):
    """[((module path, name), built, (calling module path, line))] for what the calls in ``files``
    of the top-level def or class ``factory`` of the module at ``path`` (positional parameters
    ``params``) pass as ``param``: a project function by name (a def of the calling module or an
    import; built None), or an instance of a project class built there (``Config()``; built:
    [positional arguments, keyword names] of that call); also what the callers of the def around
    the call give it as a parameter that the call hands on (``Trainer(cfg, loss=loss)`` in ``def
    setup(loss)``, or ``Trainer(cfg, **options)`` in ``def setup(**options)``: what
    ``setup(loss=model.sparse_loss)`` gives). A def that nested traced code calls through that
    parameter (``def make_step(forward): ... return jax.jit(step)`` with ``step`` calling
    ``forward(p, x)``, ``flows.PASSED_FUNCTION``) runs each function traced. ``bound``: also a name
    bound once to a project function's or class's call (``net = Net(2.0)``; built empty: that call's
    arguments are not read). ``agreeing``: what the parameter holds on every call (``kernel`` of ``def
    gram(kernel, p, x)``, which calls it): [] unless every call gives the same known values and no module
    that names the def refers to it otherwise (``jax.jit(gram)``, ``partial(gram, k)``: unseen callers)."""
    index = params.index(param) if param in params else None
    for other in files:
        project.reach_inputs.read(other)

    def handed(site):
        other, (binding, attributes, positional, keywords, line, _, given_values, forwarding) = site
        where = index if index is not None and index < positional else param
        given = next((value for at, value in given_values if at == where), None)
        if given is None and forwarding and where not in keywords and type(where) is str:
            given = (PARAMETER, forwarding, param)  # setup(**options): a keyword of setup's callers
        if given is None or given[0] == COMPUTED or given[0] == BOUND and not bound \
                or project.target_of(other, binding, attributes) != (path, factory):
            return None
        made = _returned_objects(project, files, other, given[1:], line, seen, agreeing) if given[0] == BOUND \
            else None  # (net = build(cfg); net, params = setup(cfg): the object a function builds)
        if made is not None:
            return made
        if given[0] == PARAMETER:
            if (other, *given[1:]) in seen:
                return None
            facts = project.summary(other)["functions"].get(given[1])
            return passed_values(project, files, other, given[1], facts["params"] if facts else [], given[2],
                                 seen | {(other, *given[1:])}, bound, agreeing) or None
        built = list(given[3:]) if given[0] in (INSTANCE, BOUND) else None
        if built is None and given[1][-3:-2] == [TABLE_ENTRY]:  # KERNELS[name]: each entry it may give
            return [(target, None, (other, line)) for target, _, skipped in table_functions(project, other, *given)
                    if not skipped]
        target = project.target_of(other, *given[1:3]) if built is not None else project.target_of(other, *given)
        return [(target, built, (other, line)) if target is not None else None]

    naming = modules_naming(project, factory, files)
    sites = ((other, call) for other, version in naming for call in calls_of(project, other, version, factory))
    if not agreeing:
        return given_by_calls(list(sites), handed, every=False)
    from .callers_first import callers_first  # (imported where used: only a def that calls its parameter asks)
    each, given = [], set()
    for place, site in callers_first(naming, path, lambda other, version: calls_of(project, other, version, factory)):
        if project.target_of(site[0], *site[1][:2]) != (path, factory):
            continue
        items = handed(site)
        given.add(answer(sorted(answer(item[:2]) for item in items)) if items and None not in items else None)
        if len(given) != 1 or None in given:
            return []  # (at the first call that gives another value: the modules after it are not read)
        each.append((place, items))
    if not given or any(uses is None or f"\n{factory}\n" in uses for uses in (
            module_uses(project, other, version)[2] for other, version in naming)):
        return []
    return given_by_calls([items for _, items in sorted(each, key=lambda entry: entry[0])], list, every=False)


def _returned_objects(project, files, path, made_by, line, seen, agreeing):
    """[((module path, class), [], (module path, line))] for the object that the function ``made_by``
    (binding, attributes[, position]) of the module at ``path`` returns (that item of its tuple), from
    its summary's ``made``: the class it calls, each one a lookup in a dict of classes may give
    (``MODELS[cfg.name](cfg)``), or each one its callers pass the parameter it calls (``model =
    model_cls(cfg); return data, model``: ``passed_values``); [None] when not known; None when
    ``made_by`` names no function (a class: the object is built of it)."""
    function = project.target_of(path, *made_by[:2])
    summary = project.summary(function[0], defines=function[1]) if function is not None else None
    facts = summary["functions"].get(function[1]) if summary else None
    if facts is None:
        return None if len(made_by) < 3 else [None]
    made, position = facts.get("made"), made_by[2] if len(made_by) > 2 else None
    item = made if position is None and type(made) is dict else made[position] if type(made) is list \
        and position is not None and position < len(made) else None
    if item is not None and "class" in item:
        module, entries = looked_up_entries(project, function[0], *item["class"]) \
            if item["class"][1][-3:-2] == [TABLE_ENTRY] else (function[0], [item["class"]])
        found = [project.target_of(module, *entry) for entry in entries]
        return [(target, [], (path, line)) if target is not None else None for target in found] or [None]
    key = (function[0], function[1], item["parameter"]) if item is not None else None
    if key is None or key in seen:
        return [None]
    return [(target, [], (path, line)) for target, built, _ in passed_values(
        project, files, *key[:2], facts["params"], key[2], seen | {key}, agreeing=agreeing)
        if built is None and "." not in target[1]] or [None]


def looked_up_entries(project, path, binding, attributes):
    """(module path, [(import binding or None, attribute path)]) of the entries, named in the module that defines
    the dict, that a lookup recorded in the flows of the module at ``path`` may give (path ``[...,
    "LOSSES", TABLE_ENTRY, key, bound]``, ``flows.looked_up``): those of the dict display its module
    binds ``LOSSES`` to (the summaries' ``tables``) that ``key`` may give (also through a module that
    imports the dict: ``gp.KERNELS``, ``from .kernels import KERNELS`` in gp.py), after that module's
    path; (None, []) when the dict is not known."""
    table = project.target_of(path, binding, attributes[:-3])
    summary = project.summary(table[0]) if table is not None else None
    entries = summary.get("tables", {}).get(table[1]) if summary else None
    if summary and entries is None and table[1] not in summary["functions"]:
        table = project._reexported(*table)
        summary = project.summary(table[0]) if table is not None else None
        entries = summary.get("tables", {}).get(table[1]) if summary else None
    return (table[0] if table is not None else None), entries_looked_up(
        [(key, (entry_binding, entry_path)) for key, entry_binding, entry_path in entries or ()], attributes[-2])


def table_functions(project, path, binding, attributes, every=False):
    """[((module path, unit), facts, positions the call does not give)] for the functions that a
    lookup recorded in the flows of the module at ``path`` may run (path ``[..., "LOSSES",
    TABLE_ENTRY, key, bound]``, ``flows.looked_up``): the entries of the dict display its module
    binds ``LOSSES`` to (the summaries' ``tables``) that ``key`` may give, where they are defined (also
    through a module that imports the dict: ``gp.KERNELS``, ``from .kernels import KERNELS`` in gp.py).
    ``every``: none unless the project summarises each entry the key may give (``OtherModules.table_entries``)."""
    module, entries = looked_up_entries(project, path, binding, attributes)
    found = [project._callee(module, *entry) for entry in entries]
    if every and any(facts is None for _, facts, _ in found):
        return []
    return [(target, facts, skipped + attributes[-1]) for target, facts, skipped in found if facts is not None]


def is_test_module(path):
    """pytest's test files and conftest.py: what they trace is the tests' own."""
    return is_test_file(str(path)) or path.name == "conftest.py"


def passed_arrays(project, name, params):
    """The parameters among ``params`` of this file's top-level function ``name`` that every call of
    it in the other modules of the project's folder gives one device array: what a project function
    returns that its summary says is one (a jax.numpy array; a jitted function's one array, not a tuple
    or list, whose items a store may change), or arithmetic of a jitted function's result with a number,
    which no container of arrays allows (``postprocess(predict(params, x) - 0.5)``). The join of
    ``given_by_calls`` over those calls: callers that disagree, or a module that refers to it otherwise
    (passes it on, renames it, calls it with ``*args``), leave every parameter unknown."""
    sites = _calls_elsewhere(project, name)

    def device_array(site, param):
        other, (_, _, positional, keywords, _, _, given_values, forwarding) = site
        index = params.index(param)
        where = index if index < positional else param
        given = next((value for at, value in given_values if at == where), None)
        if forwarding or given is None or given[0] not in (INSTANCE, COMPUTED):
            return None
        if given[2][-3:-2] == [TABLE_ENTRY]:  # KERNELS["rbf"](p, x): what each entry it may give returns
            entries = table_functions(project, other, *given[1:3], every=True)
            return [True] if entries and all(facts.get("returns") == "jax" for _, facts, _ in entries) else None
        target = project.target_of(other, *given[1:3])
        summary = project.summary(target[0], defines=target[1]) if target is not None else None
        one_array = summary is not None and (summary["functions"].get(target[1], {}).get("returns") == "jax" or (
            target[1] in summary["jitted"] and (given[0] == COMPUTED or (summary["results"].get(target[1]) or {})
                                                .get("array"))))
        return [True] if one_array else None

    return [param for param in params if sites and given_by_calls(sites, lambda site: device_array(site, param))]


def given_dtypes(project, name, params, param):
    """[returns, dtypes, [[module path as messages show it, line]]] of what every call in the other
    modules of the project's folder of this file's top-level function ``name`` gives its parameter
    ``param``: a call of a project function that returns jax.numpy arrays (its summary's ``returns``)
    whose dtypes its summary knows (``dtypes``), made in place or bound once to a name of the def
    around the call (``p = init(key); apply(p, x)``). The join over those calls: callers that
    disagree, or a module that refers to it otherwise, leave it None."""
    index, found, where = params.index(param), set(), []
    for other, (_, _, positional, _, line, _, given_values, forwarding) in _calls_elsewhere(project, name):
        given = next((value for at, value in given_values if at == (index if index < positional else param)), None)
        target = project.target_of(other, *given[1:3]) if not forwarding and given and (
            given[0] == INSTANCE or given[0] == BOUND and len(given) == 3) else None  # (not an item of its tuple)
        summary = project.summary(target[0], defines=target[1]) if target is not None else None
        facts = summary["functions"].get(target[1]) if summary else None
        if not facts or not facts.get("returns") or facts.get("dtypes") is None:
            return None
        found.add(json.dumps([facts["returns"], facts["dtypes"]]))
        where.append([shown(other), line])
    return [*json.loads(found.pop()), where] if len(found) == 1 else None


def _calls_elsewhere(project, name):
    """[(module path, call as ``calls_of`` records it)] for the calls of this file's top-level function
    ``name`` in the other modules of the project's folder, when a module that names it refers to it
    only by them; else []."""
    naming = modules_naming(project, name, [path for path in project.folder_files() if path != project.path])
    sites = [(other, call) for other, version in naming for call in calls_of(project, other, version, name)
             if project.target_of(other, *call[:2]) == (project.path, name)]
    for other, version in naming if sites else ():  # a module that refers to it otherwise, or unknown
        references = module_uses(project, other, version)[2]
        if references is None or f"\n{name}\n" in references:
            return []
    return sites
