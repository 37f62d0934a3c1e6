"""The rule catalogue: every JNP code is declared once, in ``catalogue.toml``.

Messages, the README rule table, the rule pages and the completeness tests all
read from it, so a rule exists exactly when it has an entry there. A lint reads only the
messages, the rules off by default and the rules of each check family (``MESSAGES``,
``OFF_BY_DEFAULT``, ``families``), which the kept parse holds as tables of their own; the
``Rule`` records (``RULES``), with their pages' text, are made when first asked for.
"""
from functools import lru_cache
from pathlib import Path

from . import datafiles
from .record import Record

CATALOGUE_FILE = Path(__file__).with_name("catalogue.toml")


class Rule(Record):
    __slots__ = (
        "code", "name",
        "family",  # the module of checks/ whose check emits it ("": JNP900, which no check emits)
        "needs",  # the function of checks/ that says whether a module can have it ("": every module can)
        "message",  # str.format template; fields are filled by the check
        "why", "fix",
        "on_by_default",  # False: reported only when selected explicitly
        # Rule pages (docs.py): code the rule flags, the fixed code, and the exception the
        # example raises on the JAX release jax_api.json describes ("": the pitfall is silent).
        # Tests lint both, run both under JAX, and check the exception.
        "example", "instead", "raises",
        "evidence",  # kinds of runtime evidence (evidence.py) that confirm a finding
        "unconfirmable",  # why no runtime evidence can confirm it (when evidence is empty)
        # The fix ``python -m flake8_jaxnp fix`` applies (autofix/): "safe" (nothing changes but the
        # pitfall), "unsafe" (applied only with --unsafe-fixes), "" (none); the note says why.
        "fix_safety", "fix_safety_note",
        # The harm is time (a sync, an upload, a compile): ``flake8-jaxnp-confirm --measure-cost`` times
        # it where it happens, and a fixable one also against the same case fixed (confirm/cost.py).
        "costs_time",
    )
    DEFAULTS = {"family": "", "needs": "", "on_by_default": True, "example": "", "instead": "", "raises": "",
                "evidence": (), "unconfirmable": "", "fix_safety": "", "fix_safety_note": "", "costs_time": False}

    def format(self, **fields):
        return formatted(self.code, **fields)


@lru_cache(maxsize=1)
def _rules():
    """Every Rule, in the catalogue's order (made when first asked for: a lint reads MESSAGES alone)."""
    rules = []
    for entry in _CATALOGUE["rule"]:
        entry["evidence"] = tuple(entry.get("evidence", ()))
        for part in ("example", "instead"):  # a literal block's text starts after its first newline
            if part in entry:
                entry[part] = entry[part].removeprefix("\n")
        rules.append(Rule(**entry))
    return tuple(rules)


def _parse_toml(text):
    """The catalogue, and the three tables a lint reads (kept with the parse: ``datafiles``)."""
    import tomllib  # (only when the kept parse is stale)

    catalogue = tomllib.loads(text.decode("utf-8"))
    catalogue["messages"] = {entry["code"]: entry["message"] for entry in catalogue["rule"]}
    catalogue["off_by_default"] = [entry["code"] for entry in catalogue["rule"] if not entry.get("on_by_default", True)]
    families = {}
    for entry in catalogue["rule"]:
        if entry.get("family"):
            families.setdefault(entry["family"], {})[entry["code"]] = entry.get("needs", "")
    catalogue["families"] = dict(sorted(families.items()))
    return catalogue


def __getattr__(name):
    """``RULES`` (code -> Rule), made when first asked for."""
    if name == "RULES":
        return _by_code()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@lru_cache(maxsize=1)
def _by_code():
    return {rule.code: rule for rule in _rules()}


_CATALOGUE = datafiles.load(CATALOGUE_FILE, _parse_toml)
MESSAGES = _CATALOGUE["messages"]  # code -> message template
OFF_BY_DEFAULT = _CATALOGUE["off_by_default"]
# flake8's --select for every rule: JNP alone leaves the ones off by default off (options._silenced).
SELECT_EVERY_RULE = ",".join(["JNP", *OFF_BY_DEFAULT])


def families():
    """{family: {code: the name of its need, or ""}}, the families by name: which rules each module
    of ``checks/`` emits, and what a module must have for each (read without importing the checks)."""
    return _CATALOGUE["families"]


def formatted(code, **fields):
    """``JNPxxx text``: the rule's message with ``fields`` filled in."""
    return f"{code} {MESSAGES[code].format(**fields)}"


def confirmed_by(kind):
    """The codes that runtime evidence of ``kind`` confirms, sorted."""
    return sorted(rule.code for rule in _rules() if kind in rule.evidence)


def needs_eager_run(codes):
    """Whether confirming any of ``codes`` needs a rerun under jax.disable_jit."""
    from .evidence import NEEDS_EAGER_RUN  # (the runtime mode's: a lint never asks)

    return any(NEEDS_EAGER_RUN.intersection(_by_code()[code].evidence) for code in codes)
