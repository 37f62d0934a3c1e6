"""Fixes for findings: ``fix_source`` applies them to a module's text, keeping its formatting.

Above the checks, beside the other entry points: lint mode never imports it (nor libcst).
The catalogue says which rules have a fix and whether it is safe (``fix_safety``); each
fix shape lives in the module of its rule family (as in checks/), declared with ``@fixer(code)``.
"""
# the fix shapes register themselves
from . import api_usage, dtypes, performance, side_effects, tracing, transfers  # noqa: F401
from .engine import FIXERS, FixResult, fix_safety, fix_source

__all__ = ["FIXERS", "FixResult", "fix_safety", "fix_source"]
