"""Quick fixes in the editor: a python-lsp-server plugin (entry point group ``pylsp``).

pylsp's flake8 plugin publishes the JNP diagnostics; this plugin offers the fix engine's
fix of each one as a code action, and one action that applies every safe fix of the file.
It fixes only what flake8 reported (so flake8's selection and ``noqa`` decide, as on the
command line): a finding of the linter is offered when a diagnostic of the request sits at
its line, column and code; "fix all" takes the diagnostics pylsp last published for the
same text. pylsp imports this module at start-up, so the linter and the fix engine (libcst)
are imported only when code actions are asked for, and the lint path pays nothing but a
filter over its own results.
"""
import logging

from pylsp import hookimpl

log = logging.getLogger(__name__)

FIX_ALL_TITLE = "Fix all safe JNP findings in file"

# uri -> (the text flake8 linted, {(line, character, code): diagnostic} of the JNP diagnostics published)
_published = {}


@hookimpl(hookwrapper=True)
def pylsp_lint(workspace, document):
    """Remember which JNP diagnostics pylsp publishes for which text (for "fix all")."""
    try:
        source = document.source
    except Exception as exc:  # noqa: BLE001 - never into pylsp's lint (and a wrapper must yield)
        source, failure = None, exc
    outcome = yield
    try:
        if source is None:
            raise failure
        diagnostics = [item for result in outcome.get_result() or () for item in result or ()]
        _published[document.uri] = (source, _positions(diagnostics))
    except Exception as exc:  # noqa: BLE001 - never into pylsp's lint
        log.warning("flake8-jaxnp: diagnostics not recorded: %s: %s", type(exc).__name__, exc)


@hookimpl
def pylsp_code_actions(config, workspace, document, range, context):  # noqa: A002 - pylsp's argument name
    """The JNP quick fixes at the request's diagnostics; an error logs one line and offers nothing."""
    try:
        return _code_actions(workspace, document, context)
    except Exception as exc:  # noqa: BLE001 - never into pylsp
        log.warning("flake8-jaxnp: no quick fixes for %s: %s: %s", document.uri, type(exc).__name__, exc)
        return []


def _positions(diagnostics):
    """{(line, character, code): diagnostic} of the JNP diagnostics."""
    return {(item["range"]["start"]["line"], item["range"]["start"]["character"], item["code"]): item
            for item in diagnostics if str(item.get("code", "")).startswith("JNP")}


def _code_actions(workspace, document, context):
    from .autofix import fix_safety

    wanted = _positions(context.get("diagnostics", ()))
    if not any(fix_safety(code) for _, _, code in wanted):
        return []
    import ast

    from .autofix import fix_source
    from .findings import source_lines
    from .linter import lint
    from .options import from_configuration
    from .rules import RULES

    source = document.source
    options = from_configuration(directory=workspace.root_path or None)
    findings = lint(ast.parse(source), source_lines(source), options, document.path)
    at = {(finding.line - 1, finding.col, finding.code): finding for finding in findings}
    actions = []
    for position in sorted(set(wanted) & set(at)):
        finding = at[position]
        fixed = fix_source(source, [finding], unsafe=True)
        if finding in fixed.applied:
            unsafe = finding in fixed.unsafe  # an unsafe rule, or an unsafe shape of a safe rule's fix
            title = f"{finding.code}: {RULES[finding.code].fix}" + (" (unsafe)" if unsafe else "")
            actions.append(_action(title, document.uri, source, fixed.text, [wanted[position]]))
    published_source, published = _published.get(document.uri, (None, {}))
    reported = [finding for position, finding in at.items()
                if position in wanted or (published_source == source and position in published)]
    fixed = fix_source(source, reported)
    if actions and fixed.applied:
        actions.append(_action(FIX_ALL_TITLE, document.uri, source, fixed.text, list(wanted.values())))
    return actions


def _action(title, uri, source, fixed, diagnostics):
    """A quick fix for ``diagnostics`` that turns ``source`` into ``fixed``."""
    return {"title": title, "kind": "quickfix", "diagnostics": diagnostics,
            "edit": {"changes": {uri: text_edits(source, fixed)}}}


def text_edits(before, after):
    """The fewest whole-line TextEdits that turn ``before`` into ``after`` (LSP positions)."""
    import difflib

    from .findings import source_lines

    old, new = source_lines(before), source_lines(after)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [{"range": {"start": _position(old, i1), "end": _position(old, i2)}, "newText": "".join(new[j1:j2])}
            for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _position(lines, index):
    """The start of line ``index``; past the last line, the end of the text (a last line
    without a line break ends inside that line, its column in UTF-16 units as LSP counts)."""
    if index < len(lines) or not lines or lines[-1].endswith(("\n", "\r")):
        return {"line": index, "character": 0}
    return {"line": len(lines) - 1, "character": len(lines[-1].encode("utf-16-le")) // 2}
