"""The one Finding type: what the checks emit and what every edge formats.

A finding is data (code, position, message fields); the flake8 entry point and
the runtime report turn it into text through the rule catalogue.
"""
from dataclasses import dataclass

from .rules import RULES

INTERNAL_ERROR = "JNP900"  # the one code no check emits: a check (or the model) that raised


@dataclass(frozen=True, order=True)
class Finding:
    line: int
    col: int  # 0-based, as flake8 reports it
    code: str
    fields: tuple = ()  # sorted (name, value) pairs filled into the rule's message

    @classmethod
    def at(cls, node, code, fields):
        """A finding reported at ``node``'s position."""
        return cls(node.lineno, node.col_offset, code, tuple(sorted(fields.items())))

    @property
    def message(self):
        """``JNPxxx text``, as flake8 prints it."""
        return RULES[self.code].format(**dict(self.fields))
