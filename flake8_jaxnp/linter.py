"""Lint one parsed module: build the model, run every check, collect findings.

This is what flake8 calls (through ``plugin``) and what the runtime mode calls
to learn what to confirm. It never imports jax, numpy or the linted code.
"""
import gc
import importlib
import sys
from functools import lru_cache

from . import api, reuse, rules
from .findings import INTERNAL_ERROR, Finding
from .model.project import project_around
from .model.project.cache import forget_trees
from .options import DEFAULT
from .patterns import Pattern


@lru_cache(maxsize=None)
def _family_checks(family):
    """The checks that family module ``family`` defines with ``@rule(codes)`` (imported here)."""
    module = importlib.import_module(f"{__package__}.checks.{family}")
    return tuple(value for value in vars(module).values()
                 if callable(value) and hasattr(value, "codes") and value.__module__ == module.__name__)


def _declared_checks():
    """Every declared check, of every family the catalogue names."""
    return tuple(check for family in rules.families() for check in _family_checks(family))


def _checks_for(model):
    """The checks a lint of ``model`` runs: ``CHECKS`` once it is loaded (or set), else those with a
    rule whose need (the catalogue's ``needs``, a function of ``checks``) the module meets, their
    family imported when first met. A need only says where a rule can find nothing, so both give
    the same findings."""
    declared = globals().get("CHECKS")
    if declared is not None:
        return declared
    met = {}  # need -> whether the module meets it, asked once (rules share needs)
    found = []
    for family, needs in rules.families().items():
        needed = {code for code, need in needs.items() if _met(need, model, met)}
        if needed:
            found += [check for check in _family_checks(family) if needed.intersection(check.codes)]
    return found


def _met(need, model, met):
    if need and need not in met:
        from . import checks

        try:
            met[need] = getattr(checks, need)(model)
        except Exception:  # noqa: BLE001 - then its checks run, and report the failure as JNP900
            met[need] = True
    return not need or met[need]


def _model_class():
    from .model.facade import Model

    return Model


_ON_FIRST_USE = {"CHECKS": _declared_checks, "Model": _model_class}


def __getattr__(name):
    """``CHECKS`` (every declared check) and ``Model`` (the model's facade), imported when first
    asked for: they are a third of the plugin's start-up, which a process whose files name no
    JAX, or whose findings are all reused, never needs."""
    if name in _ON_FIRST_USE:
        globals()[name] = found = _ON_FIRST_USE[name]()
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def relevant(text, options=DEFAULT):
    """Cheap pre-check: a module that never mentions jax, numpy or a framework's or extra
    transform's package (``equinox`` for ``equinox.filter_jit``) has nothing to find, unless
    another module's traces call it (``_reached_by_traces``).
    Identifiers are compared as Python reads them (NFKC: ``ｊａｘ`` is ``jax``)."""
    if not text.isascii():
        import unicodedata  # (an extension module that ASCII text, nearly all code, never needs)

        text = unicodedata.normalize("NFKC", text)
    packages = {name.split(".")[0] for name in (*api.framework_transforms(), *options.extra_transforms)}
    return any(word in text for word in ("jax", "numpy", *packages))


_DEF = Pattern(r"\bdef\b")  # (a function, the only thing of a module that traces can reach, needs one)


def _reached_by_traces(filename, text, options):
    """Whether another module's traces call a function of this module, which never names JAX
    (a callbacks module of plain Python): its side effects then run only while JAX traces. The
    reach is solved once per project and process, and kept on disk; a module with no ``def``
    has no function to reach, and does not ask it (linted alone, it would solve its package's)."""
    project = project_around(filename, options) if _DEF.search(text) else None
    return project is not None and bool(project.callers())


def lint(tree, lines, options=DEFAULT, filename=None):
    """Sorted Findings for one module (at ``filename``, when known); never raises. The
    findings of a file whose text, project and settings did not change are reused.
    The garbage collector waits meanwhile: the model makes many objects and frees few until
    it is dropped, so collections during the work would traverse them for nothing."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _lint(tree, lines, options, filename)
    finally:
        forget_trees()
        if collecting:
            gc.enable()


def _lint(tree, lines, options, filename):
    text = "".join(lines)
    if not relevant(text, options) and not _reached_by_traces(filename, text, options):
        return []
    where = reuse.entry(text, options, filename)
    if where is not None:
        found = reuse.reused(where, filename, options)
        if found is not None:
            return found
    loaded = sys.modules[__name__]  # (its Model is imported on first use: __getattr__)
    try:
        model = loaded.Model(tree, options, filename)
    except Exception as exc:  # noqa: BLE001 - any failure becomes JNP900, flake8 goes on
        return [_internal_error(exc)]
    results = set()
    for check in _checks_for(model):
        try:
            results.update(check(model))
        except Exception as exc:  # noqa: BLE001
            results.add(_internal_error(exc))
    findings = sorted(finding for finding in results if finding.code not in options.silenced)
    if where is not None and model.project is not None:
        reuse.keep(where, findings, model.project.consulted)
    return findings


def _internal_error(exc):
    detail = _first_words(str(exc).splitlines()[0]) if str(exc) else ""
    error = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
    return Finding(1, 0, INTERNAL_ERROR, (("error", error),))


def _first_words(line, limit=80):
    """``line``, or its words up to ``limit`` characters and " ..." (a name is never cut)."""
    cut = line.rfind(" ", 0, limit - 3)
    return line if len(line) <= limit or cut < 0 else line[:cut] + " ..."
