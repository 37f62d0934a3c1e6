"""Fixes for findings: ``fix_source`` applies them to a module's text, keeping its formatting.

Above the checks, beside the other entry points: lint mode never imports it (nor libcst).
The catalogue says which rules have a fix and whether it is safe (``fix_safety``); each
fix shape lives in a module of this package, declared with ``@fixer(code)``.
"""
from . import names, prints, updates  # noqa: F401 - the fix shapes register themselves
from .engine import FIXERS, FixResult, fix_safety, fix_source

__all__ = ["FIXERS", "FixResult", "fix_safety", "fix_source"]
