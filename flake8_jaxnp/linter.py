"""Lint one parsed module: build the model, run every check, collect findings.

This is what flake8 calls (through ``plugin``) and what the runtime mode calls
to learn what to confirm. It never imports jax, numpy or the linted code.
"""
import unicodedata

from . import api, reuse
from .checks import (api_usage, donation, dtypes, gradients, keys, methods, performance, side_effects, tracing,
                     transfers)
from .findings import Finding
from .model import Model
from .options import DEFAULT

CHECKS = (tracing.check, side_effects.check, transfers.check, dtypes.check, api_usage.check,
          api_usage.sequence_arguments, keys.check, performance.check, gradients.check,
          donation.check, methods.check, methods.stale_static_self)


def relevant(text, options=DEFAULT):
    """Cheap pre-check: a module that never mentions jax, numpy or a framework's or extra
    transform's package (``equinox`` for ``equinox.filter_jit``) has nothing to find.
    Identifiers are compared as Python reads them (NFKC: ``ｊａｘ`` is ``jax``)."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    packages = {name.split(".")[0] for name in (*api.framework_transforms(), *options.extra_transforms)}
    return any(word in text for word in ("jax", "numpy", *packages))


def lint(tree, lines, options=DEFAULT, filename=None):
    """Sorted Findings for one module (at ``filename``, when known); never raises. The
    findings of a file whose text, project and settings did not change are reused."""
    text = "".join(lines)
    if not relevant(text, options):
        return []
    where = reuse.entry(text, options, filename)
    if where is not None:
        found = reuse.reused(where, filename, options)
        if found is not None:
            return found
    try:
        model = Model(tree, options, filename)
    except Exception as exc:  # noqa: BLE001 - any failure becomes JNP900, flake8 goes on
        return [_internal_error(exc)]
    results = set()
    for check in CHECKS:
        try:
            results.update(check(model))
        except Exception as exc:  # noqa: BLE001
            results.add(_internal_error(exc))
    findings = sorted(results)
    if where is not None and model.project is not None:
        reuse.keep(where, findings, model.project.consulted)
    return findings


CHECKER_ERROR = "JNP900"  # the finding that stands for a check that failed


def _internal_error(exc):
    detail = str(exc).splitlines()[0][:80] if str(exc) else ""
    error = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
    return Finding(1, 0, CHECKER_ERROR, (("error", error),))
