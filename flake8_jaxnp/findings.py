"""The one Finding type: what the checks emit and what every edge formats.

A finding is data (code, position, message fields); the flake8 entry point and
the runtime report turn it into text through the rule catalogue.
"""
from .patterns import Pattern
from .record import Record
from .rules import formatted

INTERNAL_ERROR = "JNP900"  # the one code no check emits: a check (or the model) that raised
# A line and its break, where Python's tokenizer, flake8 and LSP break lines: \r\n, \r or \n
# (``str.splitlines`` also breaks at \f, \v, \x1c-\x1e, \x85, \u2028 and \u2029).
_LINE = Pattern(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def source_lines(text):
    """``text``'s lines, each with its line break, numbered as a finding's ``line`` counts them."""
    return _LINE.findall(text)


class Finding(Record):
    __slots__ = (
        "line",
        "col",  # 0-based, as flake8 reports it
        "code",
        "fields",  # sorted (name, value) pairs filled into the rule's message
    )
    DEFAULTS = {"fields": ()}

    @classmethod
    def at(cls, node, code, fields):
        """A finding reported at ``node``'s position."""
        return cls(node.lineno, node.col_offset, code, tuple(sorted(fields.items())))

    @property
    def message(self):
        """``JNPxxx text``, as flake8 prints it."""
        return formatted(self.code, **dict(self.fields))
