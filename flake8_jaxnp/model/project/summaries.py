"""One module's summary: what other modules need from it, from its source text alone.

A summary says which top-level functions are jitted (a call gives device arrays),
what each function returns, which parameters a function converts to the host
unconditionally, which of its functions it traces as roots wherever it applies a
transform (with their traced parameters) and which imported functions it applies one
to (``units``), which project functions each function passes its parameters on to
(``flows``), the shapes of its jitted results, its dtype constants and which of its
classes hand out jitted functions (``wrappers``). It depends on
the module's text (and the transforms) alone, so it can be cached by content. A file
that calls one function of a module gets that function's summary alone, from the
module's header and the function's own lines (``function_summary``).
"""
import ast
import bisect
from functools import lru_cache

from ... import api
from ...patterns import Pattern
from ..aliases import argument_options, transform_aliases
from ..constructors import DATACLASS_DECORATORS
from ..parameters import applied_parameters
from ..syntax import literals, module_imports, positional_names, transform_spec
from .around import enclosing, named_outside, noted
from .constants import bound_once, function_tables, module_objects, numpy_constants, rebound_globals
from .function_facts import function_facts
from .flows import (UnreadInstances, given_apply_fn, instances_of_imported_classes,
                    may_apply_an_instance, may_call_given_apply_fn, parameter_calls)
from .handed_keys import returned_step
from .objects import calls_a_parameter, object_parameters, static_scalars_kept
from .cache import parsed
from .package import top_level_definitions
from .records import CACHING_DECORATORS, built_jitted, jitted_result_shape, module_records
from .returns import dtype_spelled, summary_qualname
from .units import (TransformLines, applications, construction_hooks, inherited_methods, own_body, plain_methods,
                    returned_def, run_methods)
from .wrappers import returned_donation, wrapper_classes


def summarise(source, transforms, scalars_static=()):
    """The summary (JSON data) of a module's source text. ``transforms`` maps the dotted
    names that trace (jax.jit, the frameworks, extra transforms) to their behaviour;
    ``scalars_static`` names those that leave Python scalars static."""
    try:
        tree = parsed(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {"functions": {}, "jitted": [], "roots": [], "applied": [], "flows": {}, "methods": {}, "linen": {},
                "results": {}, "dtypes": {}, "numpy": [], "classes": {}, "aliases": {},
                "tables": {}}
    imports = module_imports(tree)
    records = module_records(tree, imports)
    lines = TransformLines(source, imports, transforms)
    functions, jitted, results, options = {}, set(), {}, {}
    defs = {stmt.name: stmt for stmt in tree.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[stmt.name] = _top_level_facts(stmt, imports, transforms, lines)
            if _jitted(stmt, imports, transforms):
                jitted.add(stmt.name)
                options[stmt.name] = _jit_options(stmt, imports, transforms, defs)
            if stmt.name in jitted and _keeps_structure(stmt, imports, transforms, scalars_static):
                shape = jitted_result_shape(stmt, records, functions[stmt.name]["returns"])
                if shape is not None:
                    results[stmt.name] = shape
        elif _assigns_call(stmt) and _stages(_assigned_transform(stmt, imports, transforms), transforms):
            jitted.add(stmt.targets[0].id)
            options[stmt.targets[0].id] = _jit_options(stmt, imports, transforms, defs)
    _follow_returned_calls(functions)
    local_functions = set(functions)
    apply_fn = given_apply_fn(tree, imports, local_functions) if may_call_given_apply_fn(source) else None
    applied_instances = instances_of_imported_classes(tree, imports) if may_apply_an_instance(source) \
        else module_objects(tree, imports, source)
    flows, around = {}, {}  # (enclosing's answers)
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and functions.get(stmt.name, {}).get("line") \
                == stmt.lineno:  # the name's last def: the one other modules call
            flows.update(_unit_flows(stmt, imports, local_functions, apply_fn, applied_instances, (tree, around)))
    roots, applied, units = applications(tree, imports, transforms, lines)
    roots, applied, units = static_scalars_kept(tree, imports, transforms, scalars_static, roots, applied, units)
    for unit, instances in object_parameters(tree, imports, transforms, units).items():
        flows[unit] = parameter_calls(units[unit], imports, local_functions, apply_fn, instances, applied_instances)
    methods, linen = run_methods(tree, imports)
    nested = nested_units(tree, units, around, imports)
    plain = plain_methods(tree, imports)
    rooted = {unit.split(".")[0] for unit in units}  # (a jitted method's class: self.loss(x) runs its loss)
    for unit, func in [*units.items(), *nested.items(), *methods.items(),
                       *((unit, func) for unit, func in plain.items() if unit.split(".")[0] in rooted)]:
        if unit not in flows:  # a method, a nested def, a def under an if: its calls, for the reach to follow
            calls = parameter_calls(func, imports, local_functions, apply_fn, None, applied_instances,
                                    enclosing(tree, unit, around, imports))
            if calls:
                flows[unit] = calls
    methods = {**plain, **methods}  # jax.jit(counter.count) elsewhere traces a plain one
    linen = {**plain_methods(tree, imports, of_linen=True), **linen}  # model.apply(v, x, method=Model.encode)
    methods, linen = ({unit: {"params": positional_names(func), "traceable": sorted(applied_parameters(func, None, ()))}
                       for unit, func in found.items()} for found in (methods, linen))
    for unit, defined in inherited_methods(tree, methods).items():  # Net(Base) runs Base.__call__
        methods[unit] = {**methods[defined], "unit": defined}
    for name, (hook, fields) in construction_hooks(tree, imports).items():  # Batch(x, y) runs __post_init__
        methods.setdefault(f"{name}.__init__", {"params": ["self", *fields], "traceable": sorted(fields),
                                                "unit": f"{name}.{hook}"})
    classes = _classes(source, tree, imports, transforms,
                       {name for name, facts in functions.items() if facts.get("builds_jitted") is True})
    return {"functions": functions, "jitted": sorted(jitted), "roots": roots, "applied": applied, "flows": flows,
            "methods": methods, "linen": linen, "results": results, "dtypes": dtype_aliases(tree, imports),
            "fields": field_literals(tree, imports),
            "numpy": numpy_constants(tree, imports), "classes": classes,
            "rebound": rebound_globals(tree, source),
            "nested": {unit: {"params": positional_names(func)} for unit, func in nested.items()},
            "aliases": transform_aliases(tree, lambda e: summary_qualname(e, imports), transforms),
            "tables": function_tables(tree, imports, local_functions),
            "options": {name: found for name, found in options.items() if found and name in jitted}}


def nested_units(tree, units, around, imports):
    """{unit: def} of the defs nested beside the nested ``units`` (``make_step.loss_fn`` beside the
    jitted ``make_step.step``), which those call (``jax.grad(loss_fn)(p)``): the reach follows them.
    ``around``: ``enclosing``'s answers for ``tree``."""
    found = {}
    for unit in units:
        outer = unit.partition(".")[0]
        for name, sibling in enclosing(tree, unit, around, imports)[1].items():
            found[sibling] = units.get(sibling) or next(  # (a root too: jax.grad(loss_fn) of its own)
                stmt for top in reversed(tree.body) if getattr(top, "name", None) == outer
                for stmt in top.body if getattr(stmt, "name", None) == name)
    return found


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
    if spec is None and summary_qualname(call.func, imports) in transforms:
        spec = (summary_qualname(call.func, imports), call.keywords)
    return spec


def class_summary(source, transforms):
    """What ``summarise`` says of the module's classes (``classes``) alone: a parse, and of
    its top-level defs only whether they return a jitted function, without the flows,
    roots and records that cost most of a summary."""
    try:
        tree = parsed(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {"classes": {}}
    imports = module_imports(tree)
    lines = TransformLines(source, imports, transforms)
    built = {stmt.name: lines.touched(stmt) and _builds_jitted(stmt, imports, transforms) is True
             for stmt in tree.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))}  # (the last def)
    return {"classes": _classes(source, tree, imports, transforms, {name for name, built in built.items() if built})}


def _classes(source, tree, imports, transforms, builders):
    """``wrappers.wrapper_classes`` of the module, ``builders`` its defs that return a jitted function."""
    return wrapper_classes(tree, lambda call: _is_jit_call(call, imports, transforms), builders,
                           lambda names: TransformLines(source, imports, transforms, names).touched)


def _follow_returned_calls(functions):
    """A def whose every return is a call of another def of its module (``return helper(x)``, ``y =
    helper(x); return y``: ``function_facts``' ``returns_call``) returns what that def returns, followed
    along a chain of such defs (one that loops back stays unknown)."""
    calls = {name: facts.pop("returns_call") for name, facts in functions.items() if "returns_call" in facts}
    for name, called in calls.items():
        seen = {name}
        while called in calls and called not in seen:
            seen.add(called)
            called = calls[called]
        if called in functions and called not in calls:
            functions[name]["returns"] = functions[called]["returns"]


def function_summary(source, name, transforms, scalars_static=(), definitions=None):
    """What ``summarise`` says of the top-level name ``name``, from the module's header and
    the lines that define it alone, so a module that a file calls one function of is not
    parsed whole: parsing is most of a summary's cost. For a def (its decorators
    included) or an assignment of a call (``step = jax.jit(_step)``) that is the name's
    only top-level definition (found by ``top_level_definitions``), when no import follows
    the first top-level definition, and, for a jitted def, when the module defines no
    class (its result's shape may name one); None otherwise, and wherever the lines cut
    through a string or a bracket (they then fail to parse), so the caller summarises the
    whole module."""
    if may_call_given_apply_fn(source):  # what state.apply_fn calls is the whole module's to say
        return None
    if definitions is None:
        definitions = top_level_definitions(source)
    found, lined = definitions.get(name, ()), b"\n" + source
    header_end = _TOP_LEVEL_DEFINITION.search(lined)
    if len(found) != 1 or header_end is None or _IMPORT.search(lined, header_end.start()):
        return None
    offset, is_def = found[0]
    start = _first_decorator(source, offset) if is_def else offset
    ending = _TOP_LEVEL_STATEMENT.search(lined, source.find(b"\n", offset) + 1 or len(source))
    piece = b"\n" * source.count(b"\n", 0, start) + source[start:ending.start() if ending else None]
    if may_apply_an_instance(piece):
        return None
    try:
        imports = _header_imports(source[:header_end.start()])
        lines = parsed(piece)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(lines.body) != 1:
        return None
    stmt, functions, flows, results = lines.body[0], {}, {}, {}
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_def:
        jitted = _jitted(stmt, imports, transforms)
        if jitted and _TOP_LEVEL_CLASS.search(lined):
            return None
        functions[name] = _top_level_facts(stmt, imports, transforms, TransformLines(piece, imports, transforms))
        if any(is_def for _, is_def in definitions.get(functions[name].pop("returns_call", None), ())):
            return None  # what another def returns: the whole module's summary follows it
        local_functions = {n for n, places in definitions.items() if any(flag for _, flag in places)}
        flows = _unit_flows(stmt, imports, local_functions)
        if jitted and _keeps_structure(stmt, imports, transforms, scalars_static):
            shape = jitted_result_shape(stmt, {}, functions[name]["returns"])  # (no class: no record)
            results = {name: shape} if shape is not None else {}
    elif _assigns_call(stmt) and not is_def:  # a call is no dtype alias: the assignment says all
        jitted = _stages(_assigned_transform(stmt, imports, transforms), transforms)
    else:
        return None
    found = _jit_options(stmt, imports, transforms, {}) if jitted else None
    return {"functions": functions, "jitted": [name] if jitted else [], "roots": [], "applied": [], "flows": flows,
            "methods": {}, "linen": {}, "results": results, "dtypes": {}, "classes": {},
            "options": {name: found} if found else {}}


def root_summary(source, transforms, scalars_static=()):
    """What ``summarise`` says of where a module applies a transform (``roots``, ``applied``,
    and ``flows`` of every root unit, empty ones included), from its header, the top-level
    statements on lines that name a transform and the top-level defs those name, so that a
    module is not parsed whole to learn its roots. None where the cut cannot be made (an
    import after the header, a root named by two top-level definitions, a cut that fails
    to parse, a root that applies a name it does not bind, ``model.apply(...)``): the
    caller then summarises the whole module."""
    lined = b"\n" + source
    header_end = _TOP_LEVEL_DEFINITION.search(lined)
    if header_end is None or _IMPORT.search(lined, header_end.start()) or may_call_given_apply_fn(source):
        return None
    try:
        imports = _header_imports(source[:header_end.start()])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    lines = TransformLines(source, imports, transforms)
    starts = [m.start() for m in _TOP_LEVEL_STATEMENT.finditer(lined, header_end.start())]
    starts = [start for i, start in enumerate(starts)  # a decorator's statement goes on through its def
              if i == 0 or source[starts[i - 1]:starts[i - 1] + 1] != b"@"]
    ends = starts[1:] + [len(source)]
    definitions = top_level_definitions(source)
    chosen = {bisect.bisect_right(starts, offset) - 1 for offset in lines.offsets if offset >= starts[0]} \
        if starts else set()
    single = {n.encode(): places[0][0] for n, places in definitions.items()  # (words are ASCII)
              if len(places) == 1 and places[0][0] >= starts[0]}
    pending = list(chosen)
    while pending:  # the top-level defs and assignments they name (fn = make(cfg)), and theirs
        i = pending.pop()
        for word in single.keys() & _WORD.findall(source, starts[i], ends[i]):
            found = bisect.bisect_right(starts, single[word]) - 1
            if found not in chosen:
                chosen.add(found)
                pending.append(found)
    pieces, previous = [source[:starts[0]] if starts else source], starts[0] if starts else len(source)
    for i in sorted(chosen):
        pieces.append(b"\n" * source.count(b"\n", previous, starts[i]))
        pieces.append(source[starts[i]:ends[i]])
        previous = ends[i]
    text = b"".join(pieces)
    try:
        tree = parsed(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    counts = {name: len(places) for name, places in definitions.items()}
    roots, applied, units = applications(tree, imports, transforms, lines, counts)
    if any(counts.get(unit.split(".")[0], 0) > 1 for unit in units):
        return None
    if any(transform in scalars_static for _, transform, _, _ in roots):
        return None  # which arrays it is given is for the module's calls to say: all of them
    roots, applied, units = static_scalars_kept(tree, imports, transforms, scalars_static, roots, applied, units)
    if any(calls_a_parameter(func) for func in units.values()):
        return None  # which class a parameter holds is for the module's calls to say: all of them
    local_functions = {n for n, places in definitions.items() if any(flag for _, flag in places)}
    instances = UnreadInstances() if may_apply_an_instance(text) else module_objects(tree, imports, source)
    around, held = {}, set()  # (enclosing's answers; the class attributes the flows read in them)
    flows = {unit: parameter_calls(func, imports, local_functions, None, None, instances,
                                   noted(enclosing(tree, unit, around, imports), held)) for unit, func in units.items()}
    if type(instances) is UnreadInstances and instances.asked:
        return None  # which class a name of the module holds is for the whole module to say
    if held and named_outside(held, source, text):
        return None  # what a class's attribute holds is for the whole module's stores to say
    return {"roots": roots, "applied": applied, "flows": flows}


_WORD = Pattern(rb"[A-Za-z_]\w*")


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
# Each pattern starts with the newline before the line, as ``package._DEFINITION`` does, and is searched
# in b"\n" + source, where a match's start is the line's offset in ``source``.
_TOP_LEVEL_DEFINITION = Pattern(rb"\n(?:@|(?:async[ \t]+)?def\b|class\b)")
_IMPORT = Pattern(rb"\n(?:import|from)[ \t]")
_TOP_LEVEL_STATEMENT = Pattern(rb"\n[A-Za-z_@]")
_TOP_LEVEL_CLASS = Pattern(rb"\nclass\b")
# First bytes of a line that is not a top-level statement or decorator (blank, indented,
# a comment, a closing bracket).
_NOT_A_STATEMENT_START = frozenset({b"", b"\n", b"\r", b" ", b"\t", b"\f", b"#", b")", b"]", b"}"})


def _top_level_facts(func, imports, transforms, lines):
    """``function_facts`` of a top-level def, with what other modules may call it for: the
    def it returns (``gives``: its name and parameters, for ``jax.jit(make_train(cfg))``),
    and whether it returns a jitted function (``builds_jitted``: ``return jax.jit(step)``, or which
    positions of the tuple it returns hold one: ``return step, tx``; ``jits``: the nested def so jitted)."""
    facts = function_facts(func, imports)
    built = _builds_jitted(func, imports, transforms) if lines.touched(func) else None
    jitted = returned_step(func, lambda value, body: _returned_jit(value, body, imports, transforms)) \
        if built is True else None
    for field, inner in (("gives", returned_def(func)), ("jits", jitted)):
        if inner is not None:
            facts[field] = {"name": inner.name, "params": positional_names(inner), "keys": function_facts(
                inner, imports)["keys"], "traceable": sorted(applied_parameters(inner, None, ()))}
    if built is not None:
        facts["builds_jitted"] = built
        donates = returned_donation(func, lambda value: _is_jit_call(value, imports, transforms))
        if donates is not None:  # (``checks.donating_objects``: what a call of the factory donates)
            facts["returned_donation"] = donates
    if built is True and _jits_anew(func, imports, transforms):
        facts["fresh_jitted"] = True
    return facts


def _unit_flows(func, imports, local_functions, apply_fn=None, applied_instances=None, module=None):
    """The flows of a top-level def and of the def it returns (``make_train.train``, enclosed: ``module``)."""
    flows = {}
    inner = returned_def(func)
    for unit, node in ((func.name, func), (f"{func.name}.{inner.name}" if inner else None, inner)):
        around = enclosing(module[0], unit, module[1], imports) if module and inner and node is inner else ({}, {})
        calls = parameter_calls(node, imports, local_functions, apply_fn, None, applied_instances, around) \
            if node is not None else None
        if calls:
            flows[unit] = calls
    return flows


def _builds_jitted(func, imports, transforms):
    """``built_jitted`` of a def, undecorated or cached by functools, whose returns give transformed
    functions whose calls give device arrays (``_returned_jit``)."""
    if any(summary_qualname(d.func if isinstance(d, ast.Call) else d, imports) not in CACHING_DECORATORS
           for d in func.decorator_list):
        return None
    body = own_body(func)
    return built_jitted(body[0], lambda value: _returned_jit(value, body, imports, transforms) is not None) \
        if body is not None else None


def _returned_jit(value, body, imports, transforms):
    """What a value that a def returns (``body``: its ``own_body``) has jitted: a nested def
    decorated with such a transform (``@jax.jit def step``), or what a jit call is given
    (``jax.jit(step)``), also through a name bound once to it; None for anything else."""
    _, stores, assigned, defs = body
    if type(value) is ast.Name:
        if stores.get(value.id) != 1:
            return None
        if value.id in defs:
            return defs[value.id] if _jitted_def(defs[value.id], imports, transforms) else None
        value = assigned.get(value.id)
    return value.args[0] if _is_jit_call(value, imports, transforms) else None


def _jitted_def(func, imports, transforms):
    """Whether a decorator of ``func`` jits it (``@jax.jit``)."""
    return any(spec is not None and _jits(spec[0], transforms)
               for spec in (_transform(d, imports, transforms) for d in func.decorator_list))


def _jits_anew(func, imports, transforms):
    """Whether every call of the undecorated ``func`` returns a jitted function made on that call:
    a jitted def or lambda nested in it (``return jax.jit(step)``), new at each call, so each
    compiles on its first call; JAX's cache keeps the jit of a module's own function
    (``return jax.jit(apply)``) across calls (both measured)."""
    body = own_body(func) if not func.decorator_list else None
    if not body or not body[0] or None in body[0]:
        return False
    returns, stores, _, defs = body
    made = [_returned_jit(value, body, imports, transforms) for value in returns]
    return all(type(new) in (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)
               or type(new) is ast.Name and new.id in defs and stores.get(new.id) == 1 for new in made)


def _is_jit_call(value, imports, transforms):
    """``jax.jit(f, ...)``: a staging transform applied, whose result gives arrays when called; or a def
    that one decorates (``@partial(jax.jit, static_argnums=0)``: ``_jitted_def``)."""
    if isinstance(value, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _jitted_def(value, imports, transforms)
    name = summary_qualname(value.func, imports) if type(value) is ast.Call and value.args else None
    return _jits(name, transforms)


def _jits(transform, transforms):
    """Whether ``transform`` stages what it is given and the staged function's calls give arrays."""
    return transform in transforms and _stages((transform,), transforms) and _gives_arrays(transform)


def _gives_arrays(transform):
    """Whether calling what ``transform`` returns gives arrays (not ``jax.make_jaxpr``)."""
    return api.transforms().get(transform, {"arrays": True})["arrays"]


def _keeps_structure(func, imports, transforms, scalars_static):
    """Every decorator is a jit-like transform that turns each leaf of the result into an
    array (not ``equinox.filter_jit``, which passes Python values through, nor grad)."""
    for decorator in func.decorator_list:
        spec = _transform(decorator, imports, transforms)
        if not _stages(spec, transforms) or spec[0] in scalars_static:
            return False
    return True


def _stages(spec, transforms):
    """jit-like: ``spec`` (``_transform``'s) names a transform whose transformed function gives
    device arrays when called."""
    return spec is not None and transforms[spec[0]].abstract and transforms[spec[0]].cached


def _jit_options(stmt, imports, transforms, defs):
    """``argument_options`` of a jitted def, or of ``step = jax.jit(_step, ...)`` (the keywords of
    the transform and of the call; the parameters of ``_step`` when ``defs`` has it)."""
    if isinstance(stmt, ast.Assign):
        spec, target = _assigned_transform(stmt, imports, transforms), defs.get(stmt.value.args[0].id)
        return argument_options([*spec[1], *stmt.value.keywords], positional_names(target) if target else None)
    spec = next(spec for spec in (_transform(d, imports, transforms) for d in stmt.decorator_list)
                if _stages(spec, transforms))
    return argument_options(spec[1], positional_names(stmt))


def _jitted(func, imports, transforms):
    """Whether a decorator of ``func`` is jit-like (``_stages``)."""
    return any(_stages(_transform(d, imports, transforms), transforms) for d in func.decorator_list)


def _transform(expr, imports, transforms):
    """(transform name, keywords) for ``@jax.jit``, ``@partial(jax.jit, ...)``, ``@jax.jit(...)``."""
    return transform_spec(expr, lambda e: summary_qualname(e, imports), transforms)


def dtype_aliases(tree, imports):
    """{name: [dtype, spelled as a Python type]} for module constants bound once, at the top
    level, to a dtype (``f64 = jnp.float64``, ``DT = "float32"``), for other modules to read, and
    {"Class.field": ...} for the fields of a top-level dataclass that default to one
    (``param_dtype: object = jnp.float64``; a single base of the module's included): what
    ``cfg.param_dtype`` holds for an instance built without giving that field."""
    found = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            dtype = dtype_spelled(stmt.value, imports)
            if dtype[0] is not None:
                found[stmt.targets[0].id] = list(dtype)
    found = bound_once(tree, found)
    for name, value in _field_defaults(tree, imports).items():
        dtype = dtype_spelled(value, imports)
        if dtype[0] is not None:
            found[name] = list(dtype)
    return found


def field_literals(tree, imports):
    """{"Class.field": the literal's text} for the fields of a top-level dataclass that default to a
    literal (``donate: bool = True``): what ``cfg.donate`` holds for an instance built without it. A
    class that defines ``__init__`` or ``__post_init__`` (either may set the field anew), whose base
    is not a plain dataclass of the module, or that calls ``setattr``, says nothing; nor does a field
    its methods store (``def off(self): self.donate = False``: ``cfg.off()`` changes it)."""
    plain = {}
    for stmt in tree.body:
        if type(stmt) is ast.ClassDef and all(type(base) is ast.Name and base.id in plain for base in stmt.bases) \
                and not any(getattr(item, "name", None) in ("__init__", "__post_init__") for item in stmt.body):
            plain[stmt.name] = stmt
    found = {name: ast.unparse(value) for name, value in _field_defaults(tree, imports).items()
             if name.partition(".")[0] in plain and literals(value, (bool, int, float, str)) is not None}
    changed = set()
    for name in {name.partition(".")[0] for name in found}:  # (a walk of the classes that have such a field)
        chain = [plain[name]]  # the class and its bases, whose methods it inherits
        for cls in chain:
            chain.extend(plain[base.id] for base in cls.bases)
        for node in (node for cls in chain for node in ast.walk(cls)):
            if type(node) is ast.Name and node.id == "setattr":
                changed.add(name)
            elif type(node) is ast.Attribute and type(node.ctx) is not ast.Load:
                changed.add(f"{name}.{node.attr}")
    return {name: text for name, text in found.items() if name not in changed and name.partition(".")[0] not in changed}


def _field_defaults(tree, imports):
    """{"Class.field": its default expression} for the fields of the module's top-level dataclasses, a
    single base of the module's included."""
    classes = {}
    for stmt in tree.body:
        if type(stmt) is ast.ClassDef and any(summary_qualname(d.func if type(d) is ast.Call else d, imports)
                                              in DATACLASS_DECORATORS for d in stmt.decorator_list):
            base = stmt.bases[0] if len(stmt.bases) == 1 else None
            fields = dict(classes.get(base.id, {}) if type(base) is ast.Name else {})
            fields.update((item.target.id, item.value) for item in stmt.body
                          if type(item) is ast.AnnAssign and type(item.target) is ast.Name and item.value is not None)
            classes[stmt.name] = fields
    return {f"{name}.{field}": value for name, fields in classes.items() for field, value in fields.items()}
