"""Apply the fixes of given findings to a module's text, keeping its formatting (libcst).

A fix shape (one module per rule family beside this one) is a function declared with
``@fixer(code)``: given a finding and the module's ``Context``, it returns the ``Edit``
that fixes it, or None when it cannot know the fix. Edits rewrite the nodes as the
transformer leaves them, so an edit inside another one's node (``jnp.product(np.tanh(x))``)
still applies. Any failure, and a result that does not parse, leave the text unchanged.
"""
import ast
from dataclasses import dataclass
from typing import Callable, Iterable

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ..findings import Finding, source_lines
from ..rules import RULES

FIXERS = {}  # code -> the fix shape of its findings


def fixer(code):
    """Declare the fix shape of ``code``'s findings (the catalogue says whether it is safe)."""
    def register(function):
        FIXERS[code] = function
        return function
    return register


@dataclass(frozen=True)
class Edit:
    node: cst.CSTNode  # a node of the parsed module
    rewrite: Callable  # the node as the transformer leaves it (inner edits applied) -> its replacement
    imports: tuple = ()  # ("jax.numpy", "jnp"): the import statement the rewrite's names need, when missing
    unsafe: bool = False  # this shape of a safe rule's fix changes what the program computes: only when asked for


@dataclass(frozen=True)
class FixResult:
    text: str
    applied: tuple = ()  # the findings whose fix the text now has
    unfixed: tuple = ()  # the others: no fix, an unsafe one not asked for, or one that could not be made
    unsafe: tuple = ()  # those of ``applied`` whose fix changes what the program computes (asked for)


def fix_safety(code):
    """"safe" (behaviour unchanged but for the pitfall), "unsafe", or None (no fix), from the catalogue."""
    rule = RULES.get(code)
    return rule.fix_safety or None if rule is not None else None


def fix_source(text, findings: Iterable[Finding], *, unsafe=False):
    """``text`` with the fix of each of ``findings`` that has one (the safe ones only, unless
    ``unsafe``: a safe rule's fix can have an unsafe shape, ``Edit.unsafe``); never raises:
    what cannot be fixed is returned in ``unfixed``."""
    findings = sorted(set(findings))
    allowed = ("safe", "unsafe") if unsafe else ("safe",)
    wanted = [f for f in findings if f.code in FIXERS and fix_safety(f.code) in allowed]
    if not wanted:
        return FixResult(text, (), tuple(findings))
    try:
        context = Context(text)
        edits = {}
        for finding in wanted:
            edit = FIXERS[finding.code](finding, context)
            if edit is not None and (unsafe or not edit.unsafe) and edit.node not in edits:
                edits[edit.node] = (finding, edit)
        if not edits:
            return FixResult(text, (), tuple(findings))
        fixed = context.apply([edit for _, edit in edits.values()])
        ast.parse(fixed)
    except Exception:  # noqa: BLE001 - a fix never breaks the user's file, nor the caller
        return FixResult(text, (), tuple(findings))
    applied = tuple(finding for finding, _ in edits.values())
    unsafe_fixes = tuple(sorted(finding for finding, edit in edits.values()
                                if edit.unsafe or fix_safety(finding.code) == "unsafe"))
    return FixResult(fixed, tuple(sorted(applied)), tuple(f for f in findings if f not in applied), unsafe_fixes)


class Context:
    """The parsed module, its nodes by position and the import bindings of its top level."""

    def __init__(self, text):
        self.lines = source_lines(text)
        self.wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
        self.module = self.wrapper.module
        if self.module.code != text:  # libcst drops a blank line before a last line of spaces, say
            raise ValueError("libcst does not give the text back as it was")
        positions = self.wrapper.resolve(PositionProvider)
        self._at = {}
        self.parents = {}
        for node, where in positions.items():
            self._at.setdefault((where.start.line, where.start.column), []).append(node)
        for node in positions:
            for child in node.children:
                self.parents[child] = node
        self.parents.update((child, self.module) for child in self.module.children)

    def names_in_use(self):
        """The identifiers the module uses, but for the dotted module paths its imports name
        (``import jax.numpy as jnp`` binds ``jnp``, not ``jax``)."""
        paths = {id(node) for statement in self.parents
                 if isinstance(statement, (cst.ImportAlias, cst.ImportFrom))
                 for part in [statement.name if isinstance(statement, cst.ImportAlias) else statement.module]
                 if part is not None for node in _subtree(part)}
        return {node.value for node in self.parents if isinstance(node, cst.Name) and id(node) not in paths}

    def nodes_at(self, finding, kind):
        """The nodes of type ``kind`` that start where ``finding`` points, outermost first.
        ast counts columns in UTF-8 bytes, libcst in characters."""
        line = self.lines[finding.line - 1] if 0 < finding.line <= len(self.lines) else ""
        column = len(line.encode("utf-8")[:finding.col].decode("utf-8", errors="ignore"))
        found = [node for node in self._at.get((finding.line, column), ()) if isinstance(node, kind)]
        return sorted(found, key=lambda node: -_size(node))

    def calls_at(self, finding, func):
        """The calls that start where ``finding`` points and call what the message calls ``func``
        (``np.asarray`` in ``np.asarray(x).sum()``, not the ``.sum()`` call around it)."""
        return [call for call in self.nodes_at(finding, cst.Call) if described(call.func) == func]

    def apply(self, edits):
        rewrites = {edit.node: edit.rewrite for edit in edits}
        module = self.module.visit(_Rewriter(rewrites))
        needed = dict.fromkeys(imp for edit in edits for imp in edit.imports)
        return add_imports(module, needed).code


def _subtree(node):
    yield node
    for child in node.children:
        yield from _subtree(child)


def _size(node):
    return len(cst.Module(body=[]).code_for_node(node))


class _Rewriter(cst.CSTTransformer):
    def __init__(self, rewrites):
        super().__init__()
        self.rewrites = rewrites

    def on_leave(self, original_node, updated_node):
        rewrite = self.rewrites.get(original_node)
        return updated_node if rewrite is None else rewrite(updated_node)


def add_imports(module, needed):
    """``module`` with ``import MODULE as ALIAS`` (``import MODULE`` when the alias is the
    module) for each needed pair, after the imports that open the module."""
    statements = [cst.parse_statement(f"import {name}" if name == alias else f"import {name} as {alias}")
                  for name, alias in needed]
    if not statements:
        return module
    body = list(module.body)
    at = 0
    for index, statement in enumerate(body):
        if _opens_module(statement, index):
            at = index + 1
        else:
            break
    return module.with_changes(body=body[:at] + statements + body[at:])


def _opens_module(statement, index):
    """A docstring (first statement), or an import."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    return all(isinstance(small, (cst.Import, cst.ImportFrom)) or
               (index == 0 and isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString))
               for small in statement.body)


def module_name_for(context, module, alias):
    """(the expression that names ``module`` in the module, the imports it needs): an existing
    top-level ``import module as x``, ``from parent import last as x`` or ``import module``
    (``import jax`` also names ``jax.numpy``), else ``alias`` with a new import (``import
    module as alias``, or ``import alias`` when ``alias`` is the top package, which then names
    ``module`` in full); None when ``alias`` is already some other name of the module."""
    parent, _, last = module.rpartition(".")
    package = None
    for statement in context.module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Import):
                for name in small.names:
                    written = context.module.code_for_node(name.name)
                    if name.asname and (module == written or module.startswith(written + ".")):
                        return name.asname.name.value + module[len(written):], ()  # import jax as jx: jx.debug
                    if name.asname is None and written.split(".")[0] == module.split(".")[0]:
                        package = module  # the package is bound, and JAX imports its submodules
            elif isinstance(small, cst.ImportFrom) and small.module is not None and not small.relative \
                    and context.module.code_for_node(small.module) == parent \
                    and not isinstance(small.names, cst.ImportStar):
                for name in small.names:
                    if name.name.value == last:
                        return (name.asname.name.value if name.asname else last), ()
    if package is not None:
        return package, ()
    if alias in context.names_in_use():
        return None
    if alias == module.split(".")[0]:
        return module, ((alias, alias),)
    return alias, ((module, alias),)


def wrapped(context, node, module, alias, function):
    """The Edit that passes ``node`` to ``module.function`` (named as ``module_name_for`` finds)."""
    named = module_name_for(context, module, alias)
    if named is None:
        return None
    func = cst.parse_expression(f"{named[0]}.{function}")
    return Edit(node, lambda updated: cst.Call(func=func, args=[cst.Arg(updated)]), named[1])


def with_last_comma(args, call):
    """``args`` for ``call`` with the last one taking the comma ``call``'s last argument had:
    none, or the trailing comma and line break of a call written one argument a line."""
    if not args:
        return args
    return [*args[:-1], args[-1].with_changes(comma=call.args[-1].comma)]


def described(node):
    """The text a check's message gives for ``node`` (the checks' ``describe`` of its ast form)."""
    from ..checks import describe

    return describe(ast.parse("(" + cst.Module(body=[]).code_for_node(node) + ")", mode="eval").body)


def previous_statement(context, node):
    """The small statement run just before the one holding ``node`` in its block, or None."""
    small = node
    while not isinstance(small, cst.BaseSmallStatement):
        small = context.parents.get(small)
        if small is None:
            return None
    line = context.parents[small]
    index = line.body.index(small)
    if index:
        return line.body[index - 1]
    block = context.parents[line]
    siblings = list(block.body)
    before = siblings[siblings.index(line) - 1] if siblings.index(line) else None
    return before.body[-1] if isinstance(before, cst.SimpleStatementLine) else None


def rebinding_is_local(context, node, name):
    """Whether ``name = ...`` where ``node`` stands rebinds the same variable ``name`` reads there:
    at the top level, or in a function that binds ``name`` itself (a parameter, an assignment,
    a loop or ``with`` target, ``global``/``nonlocal``). In a function that only reads an
    enclosing one's ``name``, the assignment would make it local and every read of it fail."""
    scope = context.parents.get(node)
    while scope is not None and not isinstance(scope, (cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.Module)):
        scope = context.parents.get(scope)
    if scope is None or isinstance(scope, cst.Module):
        return True
    if isinstance(scope, (cst.Lambda, cst.ClassDef)):
        return False
    if any(param.name.value == name for param in _parameters(scope.params)):
        return True
    return any(binds(child, name) for child in own_nodes(scope.body))


def _parameters(params):
    found = [*params.posonly_params, *params.params, *params.kwonly_params]
    found += [star for star in (params.star_arg, params.star_kwarg) if isinstance(star, cst.Param)]
    return found


def own_nodes(node):
    """The nodes of a function body, not those of the functions, classes and lambdas in it."""
    for child in node.children:
        yield child
        if not isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            yield from own_nodes(child)


def binds(node, name):
    if isinstance(node, (cst.Global, cst.Nonlocal)):
        return any(item.name.value == name for item in node.names)
    targets = {cst.AssignTarget: "target", cst.AugAssign: "target", cst.AnnAssign: "target", cst.For: "target",
               cst.AsName: "name", cst.NamedExpr: "target"}
    field = targets.get(type(node))
    return field is not None and name in _target_names(getattr(node, field))


def _target_names(target):
    """The names an assignment target binds (``a``, ``a, *b``), not those it only reads (``a[i]``, ``a.f``)."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(_target_names(element.value) for element in target.elements))
    return set()


# -- out of a loop (JNP104, JNP602) ---------------------------------------------------------

def loop_around(context, node):
    """The ``for``/``while`` statement whose every iteration runs ``node``, or None (a
    comprehension, a function, a lambda or a class in between, or a statement run once: a
    ``for``'s iterable, an ``else`` clause)."""
    child, parent = node, context.parents.get(node)
    while parent is not None:
        if isinstance(parent, (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.FunctionDef,
                               cst.Lambda, cst.ClassDef, cst.Module)):
            return None
        if isinstance(parent, cst.For) and child is parent.body or \
                isinstance(parent, cst.While) and child in (parent.body, parent.test):
            return parent
        if isinstance(parent, (cst.For, cst.While)):
            return None
        child, parent = parent, context.parents.get(parent)
    return None


def hoisted(loop, name, value, replaced, imports=()):
    """The Edit that binds ``name = value`` just before ``loop`` and puts ``name`` where
    ``replaced`` (``value`` or a node in it) stands in the loop."""
    target = cst.Name(name)

    def rewrite(updated_loop):
        if not updated_loop.deep_equals(loop):  # another fix changed the loop: the command's next round does this
            return updated_loop
        line = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(target)], value)])
        return cst.FlattenSentinel([line, loop.visit(_Replace(replaced, target))])
    return Edit(loop, rewrite, imports)


def moved_above(context, value, loop, name=None):
    """The Edit that moves ``target = value``, a one-statement line of ``loop``'s body, above
    ``loop``, when nothing else in the loop binds ``target`` (and it is ``name``, if given)."""
    assign = context.parents.get(value)
    line = context.parents.get(assign)
    if not (isinstance(assign, cst.Assign) and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1
            and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)
            and assign.targets[0].target.value == (name or assign.targets[0].target.value)
            and any(line is statement for statement in loop.body.body)
            and sum(binds(node, assign.targets[0].target.value) for node in (loop, *own_nodes(loop))) == 1):
        return None

    def rewrite(updated_loop):
        if not updated_loop.deep_equals(loop):
            return updated_loop
        return cst.FlattenSentinel([line, loop.visit(_Replace(line, cst.RemovalSentinel.REMOVE))])
    return Edit(loop, rewrite)


class _Replace(cst.CSTTransformer):
    """Puts ``replacement`` where ``node`` is (a node of the tree it visits: the transformer's
    nodes are new objects, so the visit is of the original loop)."""

    def __init__(self, node, replacement):
        super().__init__()
        self.node, self.replacement = node, replacement

    def on_leave(self, original_node, updated_node):
        return self.replacement if original_node is self.node else updated_node
