"""What the syntax says by itself: pure helpers over AST nodes, with no model state.

The model, the project summaries and the checks all read parameters, literal
options, transform specs and imports from the tree; each question is answered
here once, so a summary of another module and the model of the linted file
never disagree about the same lines.
"""
import ast
import os
from operator import attrgetter

FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# Nodes whose bodies run later, if ever: defs, lambdas and classes.
SCOPES = FUNCTION_NODES + (ast.ClassDef,)
LOOPS = (ast.For, ast.AsyncFor, ast.While)
TRIES = (ast.Try, getattr(ast, "TryStar", ast.Try))
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# The nodes that statements are found in: statements, ``except`` clauses, ``case`` blocks.
BLOCK_NODES = (ast.stmt, ast.excepthandler, ast.match_case)
# Nodes whose bodies do not run when the code around them runs (comprehensions' own scopes included).
NESTED_SCOPES = SCOPES + COMPREHENSIONS
PARTIAL = frozenset({"functools.partial"})
# The options that make arguments static, by position and by name (pmap's static_broadcasted_argnums too).
STATIC_NUMBERS = ("static_argnums", "static_broadcasted_argnums")
STATIC_NAMES = "static_argnames"


# ---- parameters -------------------------------------------------------------------------
def positional(func):
    """The arg nodes that positional arguments fill, in order."""
    return func.args.posonlyargs + func.args.args


def positional_names(func, bound=False):
    """The names positional arguments fill; of a ``bound`` call (``obj.method(x)``), not the
    leading ``self`` or ``cls``, which the call fills itself."""
    names = [a.arg for a in positional(func)]
    return names[1:] if bound and names[:1] in (["self"], ["cls"]) else names


def argument_for(call, names, param, by_keyword=True):
    """The argument expression ``call`` passes for ``param`` of a function whose positional
    parameters are ``names`` (``by_keyword``: whether it may come as ``param=``), when the
    call says it plainly (no ``*args`` or ``**kwargs``)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    if param in names and names.index(param) < len(call.args):
        return call.args[names.index(param)]
    if not by_keyword:
        return None
    return next((k.value for k in call.keywords if k.arg == param), None)


def defaults(func):
    """{parameter name: its default expression} of a def or lambda."""
    found = dict(zip([a.arg for a in positional(func)][::-1], func.args.defaults[::-1]))
    found.update((a.arg, d) for a, d in zip(func.args.kwonlyargs, func.args.kw_defaults) if d is not None)
    return found


def argument_or_default(call, func, param, names=None):
    """What ``call`` gives ``param`` of ``func`` (``names``: the positions the call fills, by default
    all of them): the argument it passes, else the parameter's default expression, which a call that
    leaves it out runs with; None when neither, or when the call's ``*args`` or ``**kwargs`` may fill it."""
    passed = argument_for(call, positional_names(func) if names is None else names, param)
    if passed is not None or any(isinstance(a, ast.Starred) for a in call.args) \
            or any(k.arg is None for k in call.keywords):
        return passed
    return defaults(func).get(param)


def parameters(func):
    """Every arg node of a def or lambda, ``*args`` and ``**kwargs`` included."""
    args = func.args
    return [a for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg] if a is not None]


# ---- literal options --------------------------------------------------------------------
def literals(expr, kind):
    """The values of a literal ``kind`` or tuple/list of them (``1``, ``(0, 2)``), else None."""
    elements = expr.elts if isinstance(expr, (ast.Tuple, ast.List)) else [expr]
    if all(isinstance(e, ast.Constant) and isinstance(e.value, kind) for e in elements):
        return [e.value for e in elements]
    return None


def selects_nothing(expr):
    """``()``, ``[]`` or ``None``: a donation option that donates nothing."""
    return type(expr) in (ast.Tuple, ast.List) and not expr.elts or type(expr) is ast.Constant and expr.value is None


def named_options(keywords):
    """{keyword: value expression} of a call's named keywords (``**options`` left out)."""
    return {k.arg: k.value for k in keywords if k.arg}


def selected_arguments(options, numbers_options, names_option):
    """(positions, names) that literal options select (``static_argnums=(0, 2)``,
    ``donate_argnames="x"``); an option not given selects nothing. None when one is
    not a literal: what it selects cannot be read."""
    numbers = []
    for option in numbers_options:
        if option in options:
            found = literals(options[option], int)
            if found is None:
                return None
            numbers += found
    names = literals(options[names_option], str) if names_option in options else []
    return None if names is None else (numbers, names)


def static_parameters(options, positional_params):
    """The names of the parameters that static_argnums/static_argnames (and pmap's
    static_broadcasted_argnums) make static, or None when they cannot be read."""
    found = selected_arguments(options, STATIC_NUMBERS, STATIC_NAMES)
    if found is None:
        return None
    numbers, names = found
    count = len(positional_params)
    return {positional_params[i] for i in numbers if -count <= i < count} | set(names)


def transform_spec(expr, qualname, transforms):
    """(transform name, keywords) for a transform used as a decorator: ``jax.jit``,
    ``partial(jax.jit, static_argnums=1)``, ``jax.jit(static_argnames=...)``; else None.
    ``qualname`` resolves an expression to its dotted name (the model's names or a
    summary's imports)."""
    name = qualname(expr)
    if name in transforms:
        return name, []
    if isinstance(expr, ast.Call):
        inner = qualname(expr.func)
        if inner in PARTIAL and len(expr.args) == 1:
            target = qualname(expr.args[0])
            if target in transforms:
                return target, expr.keywords
        if inner in transforms and not expr.args:
            return inner, expr.keywords
    return None


# ---- walks --------------------------------------------------------------------------------
_FIELDS = {}
# Node fields that never hold child nodes worth visiting.
_SCALAR_FIELDS = frozenset({"ctx", "id", "attr", "arg", "name", "names", "module", "level", "kind",
                            "type_comment", "is_async", "conversion", "n", "s", "op", "ops", "kwd_attrs"})


def child_fields(kind):
    """The fields of a node type that can hold child nodes, last first (cached per type)."""
    fields = _FIELDS.get(kind)
    if fields is None:
        scalar = _SCALAR_FIELDS - {"name"} if kind.__name__ == "TypeAlias" else _SCALAR_FIELDS  # type X = ...
        fields = _FIELDS[kind] = tuple(reversed([f for f in kind._fields if f not in scalar]))
    return fields


_CHILD_READERS = {}


def child_nodes(node):
    """The child nodes of ``node`` in field order: ``ast.iter_child_nodes`` without the leaves no
    question is about (contexts, operators, import aliases). One C-level ``attrgetter`` call per
    node reads its fields, several times cheaper than ``iter_child_nodes``' two generators."""
    reader = _CHILD_READERS.get(type(node))
    if reader is None:
        fields = child_fields(type(node))[::-1]
        reader = _CHILD_READERS[type(node)] = (attrgetter(*fields) if fields else None, len(fields) == 1)
    read, single = reader
    if read is None:
        return []
    found = []
    for value in (read(node),) if single else read(node):
        if type(value) is list:  # of nodes (a dict's keys may hold None)
            found.extend([child for child in value if child is not None] if None in value else value)
        elif isinstance(value, ast.AST):  # not None, nor a MatchMapping's rest name
            found.append(value)
    return found


def walk_own(roots, stop=FUNCTION_NODES, children=child_nodes):
    """``roots`` and the nodes below them, not below a ``stop`` node (which is yielded).
    ``children`` picks what is entered (every child node, or the statements alone)."""
    stack = list(roots)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, stop):
            stack.extend(children(node))


def expression_children(node):
    """The child nodes of ``node`` that are expressions (for ``walk_own``'s ``children``)."""
    return [child for child in child_nodes(node) if isinstance(child, ast.expr)]


def own_expression_nodes(stmt):
    """The expression nodes of one statement (not nested statements, not lambda bodies)."""
    return walk_own(expression_children(stmt), ast.Lambda, expression_children)


def captured_names(pattern):
    """Names a match pattern binds: ``case x``, ``case [x, *rest]``, ``case {**rest}``."""
    names = []
    for node in ast.walk(pattern):
        if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.append(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.append(node.rest)
    return names


def has_continue(stmt):
    """A ``continue`` of this loop (a nested loop's continue stays inside it)."""
    return any(isinstance(node, ast.Continue) for node in walk_own(ast.iter_child_nodes(stmt), SCOPES + LOOPS))


def statement_children(node):
    """The child nodes of ``node`` that are statements (for ``walk_own``'s ``children``)."""
    return [child for child in child_nodes(node) if isinstance(child, ast.stmt)]


def block_children(node):
    """The child nodes of ``node`` that are or hold statements: statements, ``except`` clauses and
    ``case`` blocks (for ``walk_own``'s ``children``: a walk for statements alone, which leaves the
    expressions, most of the nodes, unvisited)."""
    return [child for child in child_nodes(node) if isinstance(child, BLOCK_NODES)]


def walk_evaluated(body):
    """The nodes that run when ``body`` runs: a nested def's decorators but not its body,
    a local annotation's target and value but not the annotation (never evaluated)."""
    found = []
    stack = list(body)
    pop, extend, add = stack.pop, stack.extend, found.append
    while stack:
        node = pop()
        add(node)
        kind = type(node)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            extend(node.decorator_list)
        elif kind is ast.AnnAssign:
            extend([n for n in (node.target, node.value) if n is not None])
        elif kind is not ast.Lambda:
            extend(child_nodes(node))
    return found


def bound_names(*nodes):
    """Names ``nodes`` bind in their own scope: stores, defs, classes, imports; not what a nested
    def, class or lambda binds inside itself (a loop's or a body's own bindings)."""
    names = set()
    for node in walk_own(nodes, SCOPES):
        kind = type(node)
        if kind is ast.Name:
            if type(node.ctx) is not ast.Load:
                names.add(node.id)
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.ClassDef:
            names.add(node.name)
        elif kind is ast.Import or kind is ast.ImportFrom:
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


# ---- names through imports --------------------------------------------------------------------
def table_entries(display):
    """[(the repr of its key when a constant, else None; value)] of a dict display
    (``LOSSES = {"l2": l2, "huber": huber}``), or None for one with a ``**`` entry."""
    if None in display.keys:
        return None
    return [(repr(key.value) if type(key) is ast.Constant else None, value)
            for key, value in zip(display.keys, display.values)]


def held_name(expr):
    """The Name ``expr`` reads, itself or an item of it by a constant key (``params["b"]``, ``keys[6]``), or None."""
    expr = expr.value if type(expr) is ast.Subscript and type(expr.slice) is ast.Constant else expr
    return expr if type(expr) is ast.Name else None


def lookup_key(subscript):
    """The repr of the constant key of ``LOSSES["l2"]``; None for a key known only at runtime."""
    return repr(subscript.slice.value) if type(subscript.slice) is ast.Constant else None


def entries_looked_up(entries, key):
    """The values of ``entries`` (``table_entries``) that a lookup with ``key`` (``lookup_key``) may
    give: the last one a constant key names, every one for a key known only at runtime."""
    if key is None:
        return [value for _, value in entries]
    return [value for named, value in entries if named == key][-1:]


def split_attributes(expr):
    """(the Name at the root of ``a.b.c``, ["b", "c"]); the Name is None for other roots."""
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    return (expr if isinstance(expr, ast.Name) else None), parts[::-1]


def imported_qualname(expr, imports, builtin_names=frozenset()):
    """The absolute dotted name of ``np.asarray`` or ``jit`` through ``imports``
    (``module_imports``), or None; a name in ``builtin_names`` bound by no import is
    ``builtins.<name>``."""
    name, parts = split_attributes(expr)
    if name is None:
        return None
    bound = imports.get(name.id)
    if bound is None:
        return f"builtins.{name.id}" if name.id in builtin_names else None
    base = bound_qualname(bound)
    return None if base is None else ".".join([base, *parts])


def import_bindings(stmt):
    """[(local name, [module, level, attribute or None])] for what an import statement binds
    (``import a.b`` binds ``a``; a star import binds nothing we can name)."""
    found = []
    for alias in stmt.names:
        if isinstance(stmt, ast.Import):
            if alias.asname:
                found.append((alias.asname, [alias.name, 0, None]))
            else:
                top = alias.name.split(".")[0]
                found.append((top, [top, 0, None]))
        elif alias.name != "*":
            found.append((alias.asname or alias.name, [stmt.module or "", stmt.level, alias.name]))
    return found


def bound_qualname(binding):
    """The absolute dotted name an import binding refers to; None for a relative import."""
    module, level, attribute = binding
    if level:
        return None
    return f"{module}.{attribute}" if attribute else module


def module_imports(tree):
    """Module-level import bindings: local name -> [module, level, attribute or None]; ``STAR``
    -> [module, level, None] of the module's star import when it has exactly one."""
    imports = [stmt for stmt in tree.body if isinstance(stmt, (ast.Import, ast.ImportFrom))]
    found = {name: binding for stmt in imports for name, binding in import_bindings(stmt)}
    stars = [stmt for stmt in imports if isinstance(stmt, ast.ImportFrom) and stmt.names[0].name == "*"]
    if len(stars) == 1:
        found[STAR] = [stars[0].module or "", stars[0].level, None]
    return found


STAR = "*"  # (no name a module binds: the key of its star import in ``module_imports``)


def import_binding(stmt, local_name):
    """[module, level, attribute or None] that an import statement binds to ``local_name``."""
    return next((binding for name, binding in import_bindings(stmt) if name == local_name), None)


# Test code: a test has to bring the values it checks to the host, so its assertions
# are not transfers to report (checks.transfers) nor to count as missed (confirm).
TEST_FUNCTION_PREFIX = "test"


def is_test_file(filename):
    """``test_*.py`` or ``*_test.py``, pytest's default test files."""
    base = os.path.basename(filename or "")
    return base.endswith(".py") and (base.startswith("test_") or base.endswith("_test.py"))


def is_assertion_call(call):
    """``self.assertTrue(...)``, ``np.testing.assert_allclose(...)``: a call of an ``assert*`` name."""
    func = call.func
    return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")).startswith("assert")


def method_in(cls, method):
    """The def of ``method`` in the body of the ClassDef ``cls`` (None: no class), if unique."""
    if cls is None:
        return None
    methods = [s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == method]
    return methods[0] if len(methods) == 1 else None


def class_body_names(cls):
    """The names a class body binds (defs, assignments, also under an ``if``), nested scopes left out."""
    return bound_names(*cls.body)


def sharing_instances(classes):
    """{ClassDef: the ClassDefs one of whose objects may be an instance of it too} for the file's classes
    (``classes``: {name: [ClassDef]}, those a base may name): a store on the ``self`` of a method of any
    other class reaches none of its objects. Two classes share objects where one derives from the other, or
    a class derives from both, through bases that name them (every class of a name). A base from elsewhere
    cannot derive from this file's classes (but through an import cycle), nor is a class in an importer
    that derives from two of them seen: neither is followed."""
    found = {}
    for each in classes.values():
        for cls in each:
            ancestry = _ancestry(cls, classes)
            for one in ancestry:
                found.setdefault(one, set()).update(ancestry)
    return found


def _ancestry(cls, classes):
    """The ClassDef ``cls`` and those its bases name in ``classes``, through theirs."""
    found, pending = [cls], [cls]
    while pending:
        for base in pending.pop().bases:
            for named in classes.get(base.id, ()) if type(base) is ast.Name else ():
                if named not in found:
                    found.append(named)
                    pending.append(named)
    return found


def none_tested(test):
    """The name that ``test`` compares with ``is None`` (``if key is None:``), or None."""
    if type(test) is ast.Compare and type(test.left) is ast.Name and len(test.ops) == 1 \
            and type(test.ops[0]) is ast.Is and type(test.comparators[0]) is ast.Constant \
            and test.comparators[0].value is None:
        return test.left.id
    return None


def forwarding_lambda(node):
    """Whether ``node`` is a lambda that calls a method of its first parameter with its other parameters,
    in order and nothing else (``lambda module, x: module.encode(x)``): it runs as that method does."""
    if type(node) is not ast.Lambda or node.args.vararg or node.args.kwarg or node.args.kwonlyargs \
            or node.args.defaults or node.args.posonlyargs or not node.args.args:
        return False
    body, names = node.body, [arg.arg for arg in node.args.args]
    return type(body) is ast.Call and type(body.func) is ast.Attribute and type(body.func.value) is ast.Name \
        and body.func.value.id == names[0] and not body.keywords \
        and [arg.id if type(arg) is ast.Name else None for arg in body.args] == names[1:]
