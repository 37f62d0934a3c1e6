"""Fixes for side effects that run only while JAX traces: ``print`` -> ``jax.debug.print`` (JNP301).

The fix must print, on every call, what the print would have printed given the values. How
JAX 0.10 prints: ``jax.debug.print(fmt, *args)`` runs ``fmt.format(*args)`` on the values
(jax.Arrays) when they arrive, but only when ``fmt``'s first chunk (up to its first field or
escaped brace) ends in a field; otherwise it prints ``fmt`` as written with the arguments
after it (``"braces {{x}} {}"`` prints ``braces {{x}} {} 1.5``). So text with a brace before
the first field goes in as an argument of its own. ``print`` shows ``str(value)``, which for
a 0-d array is not ``format(value, "")`` (``1.23456`` against ``1.2345600128173828``), so a
printed value becomes ``{!s}``; an f-string's or ``.format``'s field keeps its own conversion
and spec. Text formatted while tracing (``str(x)``, ``"%s" % (x,)``, ``"{}".format(x)``,
``f"{x}"``) is taken apart into fields, or the fix is withheld.
"""
import ast
import re
import string
from dataclasses import dataclass

import libcst as cst

from .engine import Edit, fixer, module_name_for, with_last_comma

# A %-conversion the fix can restate as a format spec: flags, width, precision and type.
PERCENT = re.compile(r"%([-+ #0]*)(\d*)(?:\.(\d+))?([srafFeEgG%])")
FLOAT_TYPES = frozenset("fFeEgG")
DEBUG_PRINT_OPTIONS = frozenset({"ordered", "partitioned"})


@dataclass(frozen=True)
class Field:
    """One replacement field: ``format(conversion(value), spec)``."""
    value: cst.BaseExpression
    conversion: str = ""  # "s", "r", "a" or ""
    spec: str = ""

    def written(self):
        return "{" + (f"!{self.conversion}" if self.conversion else "") + (f":{self.spec}" if self.spec else "") + "}"


@fixer("JNP301")
def debug_print(finding, context):
    """``print("loss", v)`` -> ``jax.debug.print("loss {!s}", v)``; ``jax.debug.print(f"{v:.3f}")``
    -> ``jax.debug.print("{:.3f}", v)``. Withheld for what it cannot restate exactly: ``end=``
    other than a newline, ``file=``, ``flush=``, ``*args``, bytes, ``{x=}``, nested specs,
    ``.format`` with ``**``, an index or attribute in a field, arguments out of order or unused,
    ``%`` of anything but a tuple display (a name may hold a tuple), ``%d``, and a value that
    formats text inside it (``", ".join(...)``); also a print whose value is used, and a
    ``jax.debug.print`` given other arguments or text with a brace (JAX reads it as a format)."""
    for call in context.nodes_at(finding, cst.Call):
        if isinstance(call.func, cst.Name) and call.func.value == "print":
            if not isinstance(context.parents[call], cst.Expr) or _printed_pieces(call) is None:
                return None
            named = module_name_for(context, "jax.debug", "jax")
            if named is None:
                return None
            expression, imports = named
            func = cst.parse_expression(expression + ".print")
            return Edit(call, lambda node: _rewritten(node, func, _printed_pieces(node), []), imports)
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "print":
            if _formatted_pieces(call) is None:
                return None
            return Edit(call, lambda node: _rewritten(node, node.func, _formatted_pieces(node),
                                                      [arg for arg in node.args if arg.keyword is not None]))
    return None


def _printed_pieces(call):
    """The text and fields ``print(...)`` shows, or None."""
    separator = " "
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is not None:
            name, value = arg.keyword.value, arg.value
            if name == "sep" and _is_none(value):
                continue
            if name == "sep" and _is_text(value):
                separator = value.evaluated_value
            elif not (name == "end" and (_is_none(value) or _is_text(value) and value.evaluated_value == "\n")):
                return None
    pieces = []
    for index, arg in enumerate(arg for arg in call.args if arg.keyword is None):
        if index:
            pieces.append(separator)
        if not _printed(arg.value, pieces):
            return None
    return pieces


def _formatted_pieces(call):
    """The text and fields of ``jax.debug.print(text)`` given text formatted while tracing (and
    no other arguments but ``ordered=``/``partitioned=``), or None."""
    positional = [arg for arg in call.args if arg.keyword is None]
    if len(positional) != 1 or positional[0].star or not _makes_text(positional[0].value) \
            or any(arg.keyword.value not in DEBUG_PRINT_OPTIONS for arg in call.args if arg.keyword is not None):
        return None
    pieces = []
    if not _printed(positional[0].value, pieces):
        return None
    # JAX reads the text as a format string: a brace in it is an error or printed as written
    return None if any("{" in piece or "}" in piece for piece in pieces if isinstance(piece, str)) else pieces


def _printed(node, pieces):
    """Add what ``str(node)`` shows to ``pieces``; False when the fix cannot say it exactly."""
    if isinstance(node, cst.SimpleString):
        pieces.append(node.evaluated_value)
        return isinstance(node.evaluated_value, str)  # bytes: print shows b'...'
    if isinstance(node, cst.ConcatenatedString):
        return _printed(node.left, pieces) and _printed(node.right, pieces)
    if isinstance(node, (cst.Integer, cst.Float)):
        pieces.append(str(ast.literal_eval(node.value)))
        return True
    if isinstance(node, cst.FormattedString):
        return _fstring(node, pieces)
    if _calls(node, "str"):
        return _printed(node.args[0].value, pieces)
    if _calls(node, "repr"):
        return _shown(node.args[0].value, "r", "", pieces)
    if _is_format_method(node):
        return _format_method(node, pieces)
    if _is_percent(node):
        return _percent(node, pieces)
    return _shown(node, "s", "", pieces)


def _shown(node, conversion, spec, pieces):
    """Add what the field ``format(conversion(node), spec)`` shows to ``pieces``."""
    if _makes_text(node):  # text made while tracing: taken apart when it is shown as it is
        return conversion in ("", "s") and not spec and _printed(node, pieces)
    if _formats_inside(node):
        return False
    pieces.append(Field(node, conversion, spec))
    return True


def _fstring(node, pieces):
    for part in node.parts:
        if isinstance(part, cst.FormattedStringText):
            pieces.append(_evaluated(part.value, node))
        elif part.equal is not None or not all(isinstance(p, cst.FormattedStringText) for p in part.format_spec or ()):
            return False
        elif not _shown(part.expression, part.conversion or "", "".join(p.value for p in part.format_spec or ()),
                        pieces):
            return False
    return True


def _format_method(call, pieces):
    """``"...".format(...)``: each argument used once, in the order given, by number or name."""
    positional = [arg.value for arg in call.args if arg.keyword is None]
    named = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}
    if any(arg.star for arg in call.args):
        return False
    try:
        parsed = list(string.Formatter().parse(call.func.value.evaluated_value))
    except ValueError:
        return False
    used, numbering = [], set()
    for text, name, spec, conversion in parsed:
        pieces.append(text)
        if name is None:
            continue
        numbering.add(name == "")
        if name == "":
            name = str(len(used))  # automatic numbering counts the fields before it
        if name.isdigit() and int(name) < len(positional):
            value = positional[int(name)]
        elif name in named:
            value = named[name]
        else:
            return False  # an index, an attribute, or no such argument
        used.append(value)
        if "{" in spec or not _shown(value, conversion or "", spec, pieces):
            return False
    return len(numbering) < 2 and [id(v) for v in used] == [id(arg.value) for arg in call.args]


def _percent(node, pieces):
    """``"..." % (a, b)``: ``%s``/``%r``/``%a`` and the float conversions, with their flags,
    width and precision restated as a spec; the right side must be a tuple display."""
    if not isinstance(node.right, cst.Tuple) or any(isinstance(e, cst.StarredElement) for e in node.right.elements):
        return False
    values = [element.value for element in node.right.elements]
    text, start = node.left.evaluated_value, 0
    for match in PERCENT.finditer(text):
        pieces.append(text[start:match.start()])
        if "%" in text[start:match.start()]:
            return False  # a conversion the pattern does not take (%d, %(name)s, %*d)
        start = match.end()
        flags, width, precision, kind = match.groups()
        if kind == "%":
            pieces.append("%")
            if flags or width or precision is not None:
                return False
            continue
        if not values:
            return False
        if kind in FLOAT_TYPES:
            spec = ("<" if "-" in flags else "") + ("+" if "+" in flags else " " if " " in flags else "") \
                + ("#" if "#" in flags else "") + ("0" if "0" in flags and "-" not in flags else "")
            conversion = ""
        elif set(flags) <= {"-"}:
            spec, conversion = ("<" if flags else ">") if width else "", kind
        else:
            return False
        spec += width + (f".{precision}" if precision is not None else "") + (kind if kind in FLOAT_TYPES else "")
        if not _shown(values.pop(0), conversion, spec, pieces):
            return False
    pieces.append(text[start:])
    return "%" not in text[start:] and not values


def _rewritten(call, func, pieces, keywords):
    """The ``jax.debug.print`` call of ``call`` (as the transformer left it). The arguments it
    keeps keep their own commas and line breaks; the format string takes the first one's, and
    the new last argument the old last one's (a trailing comma stays)."""
    template, values = _template(pieces)
    kept = {id(arg.value): arg for arg in call.args}
    first = call.args[0]
    args = [cst.Arg(cst.SimpleString(_quoted(template)),
                    comma=cst.MaybeSentinel.DEFAULT if any(value is first.value for value in values) else first.comma)]
    args += [kept.get(id(value), cst.Arg(value)) for value in values] + keywords
    return call.with_changes(func=func, args=with_last_comma(args, call))


def _template(pieces):
    """(the format string, the expressions it formats). JAX formats only a string whose text
    before the first field has no brace: such text becomes a field of its own."""
    first = next((index for index, piece in enumerate(pieces) if isinstance(piece, Field)), len(pieces))
    lead = "".join(pieces[:first])
    if "{" in lead or "}" in lead:
        lead = Field(cst.SimpleString(_quoted(lead)))
    pieces = [lead, *pieces[first:]]
    template = "".join(piece.written() if isinstance(piece, Field) else _escape(piece) for piece in pieces)
    return template, [piece.value for piece in pieces if isinstance(piece, Field)]


def _makes_text(node):
    """A string literal, or text formatted when it runs: an f-string, ``str()``, ``repr()``,
    ``"...".format()``, ``"..." % ...``."""
    return isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)) \
        or _calls(node, "str") or _calls(node, "repr") or _is_format_method(node) or _is_percent(node)


def _formats_inside(node):
    """True when formatting runs somewhere in ``node`` (``", ".join(f"{v}" for v in xs)``)."""
    if isinstance(node, cst.FormattedString) or isinstance(node, cst.Call) and (
            isinstance(node.func, cst.Name) and node.func.value in ("str", "repr", "format", "ascii")
            or isinstance(node.func, cst.Attribute) and node.func.attr.value == "format") \
            or isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo) \
            and isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return True
    return any(_formats_inside(child) for child in node.children)


def _calls(node, name):
    """``name(value)``: one positional argument."""
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == name \
        and len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star


def _is_format_method(node):
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "format" \
        and _is_text(node.func.value)


def _is_percent(node):
    return isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo) and _is_text(node.left)


def _is_text(node):
    return isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str)


def _is_none(node):
    return isinstance(node, cst.Name) and node.value == "None"


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
