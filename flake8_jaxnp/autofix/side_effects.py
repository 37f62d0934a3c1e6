"""Fixes for side effects that run only while JAX traces: ``print`` -> ``jax.debug.print`` (JNP301)."""
import ast

import libcst as cst

from .engine import Edit, fixer, module_name_for, with_last_comma


@fixer("JNP301")
def debug_print(finding, context):
    """``print("loss", v)`` -> ``jax.debug.print("loss {}", v)``: string literals and the
    literal parts of f-strings join the format string (their braces doubled), every other
    argument becomes a ``{}`` (keeping an f-string's ``!r`` and ``:.3f``). A print with
    ``end=``, ``file=``, ``flush=``, a non-literal ``sep=``, ``*args``, bytes or an f-string
    ``{x=}`` is left alone, as is a print whose value is used."""
    for call in context.nodes_at(finding, cst.Call):
        if isinstance(call.func, cst.Name) and call.func.value == "print" \
                and isinstance(context.parents[call], cst.Expr) and _format(call) is not None:
            named = module_name_for(context, "jax.debug", "jax")
            if named is None:
                return None
            expression, imports = named
            return Edit(call, lambda node: _debug_print(node, expression), imports)
    return None


def _debug_print(call, expression):
    """The ``jax.debug.print`` call of ``call`` (as the transformer left it). The arguments it
    keeps keep their own commas and line breaks; the format string takes the first one's, and
    the new last argument the old last one's (a trailing comma stays)."""
    template, values = _format(call)
    kept = {id(arg.value): arg for arg in call.args}
    first = call.args[0]
    args = [cst.Arg(cst.SimpleString(_quoted(template)),
                    comma=cst.MaybeSentinel.DEFAULT if any(value is first.value for value in values) else first.comma)]
    args += [kept.get(id(value), cst.Arg(value)) for value in values]
    return call.with_changes(func=cst.parse_expression(expression + ".print"), args=with_last_comma(args, call))


def _format(call):
    """(the format string, the argument expressions it formats), or None."""
    separator = " "
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value != "sep" or not _is_text(arg.value):
                return None
            separator = arg.value.evaluated_value
        elif arg.star:
            return None
    pieces, values = [], []
    for arg in (arg for arg in call.args if arg.keyword is None):
        piece = _literal(arg.value, values)
        if piece is False:
            return None
        if piece is None:
            piece = "{}"
            values.append(arg.value)
        pieces.append(piece)
    return _escape(separator).join(pieces), values


def _is_text(node):
    return isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str)


def _literal(node, values):
    """The format-string text of a string literal (None: not one; False: one it cannot take),
    adding an f-string's expressions to ``values``."""
    if isinstance(node, cst.SimpleString):
        return _escape(node.evaluated_value) if isinstance(node.evaluated_value, str) else False
    if isinstance(node, cst.ConcatenatedString):
        left = _literal(node.left, values)
        right = _literal(node.right, values) if isinstance(left, str) else None
        return left + right if isinstance(left, str) and isinstance(right, str) else False
    if isinstance(node, cst.FormattedString):
        text = ""
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                text += _escape(_evaluated(part.value, node))
            elif part.equal is not None or not all(isinstance(p, cst.FormattedStringText)
                                                   for p in part.format_spec or ()):
                return False
            else:
                values.append(part.expression)
                spec = "".join(p.value for p in part.format_spec or ())
                text += "{" + (f"!{part.conversion}" if part.conversion else "") + (f":{spec}" if spec else "") + "}"
        return text
    return None


def _evaluated(text, fstring):
    """The string a literal part of an f-string holds (``{{`` is ``{``; escapes evaluated)."""
    prefix = fstring.start.lower().replace("f", "")  # 'r"', '"', ...
    return ast.literal_eval(prefix + text.replace("{{", "{").replace("}}", "}") + fstring.end)


def _escape(text):
    return text.replace("{", "{{").replace("}", "}}")


def _quoted(text):
    """A double-quoted literal of ``text`` where it has no double quote, else Python's repr."""
    literal = repr(text)
    if literal.startswith("'") and '"' not in text:
        return '"' + literal[1:-1].replace("\\'", "'") + '"'
    return literal
