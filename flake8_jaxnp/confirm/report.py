"""Render verdicts as a table or as JSON (the same content)."""
import json
from dataclasses import asdict
from importlib import metadata

from .. import api
from ..rules import RULES
from .cost import table_lines
from .verdicts import CASE_PROBLEMS, NOT_EXERCISED, NOT_REPRODUCED, summary

EXPLANATIONS = {NOT_REPRODUCED: "the line ran; no probe saw the pitfall",
                NOT_EXERCISED: "no case reached this line"}


def backends(results):
    """Sorted distinct (backend, device kind) pairs the workers reported."""
    return sorted({result.backend for result in results if result.backend})


def case_problems(results):
    """Cases that hung, crashed or raised an exception no rule accounts for."""
    return [(result.path, case) for result in results for case in result.cases
            if case.status in CASE_PROBLEMS or (case.status == "raised" and not _explained(case))]


def _explained(case):
    return any(event["mechanism"] == "exception" for event in case.events)


def notes(results):
    """Files with no case to run, and findings no runtime evidence can confirm: listed, never dropped."""
    found = []
    for result in results:
        if result.missing_package:
            found.append(not_run(result))
        elif not result.error and (not result.has_cases or result.case_names == []):
            found.append(f"{result.path}: no case_* function to run "
                         "(its lines count when another file's case reaches them)")
        found += [f"{result.path}:{finding.line}:{finding.col + 1}: {finding.message} "
                  f"(not confirmable at runtime: {RULES[finding.code].unconfirmable})"
                  for finding in result.unconfirmable]
    return found


def not_run(result):
    return (f"{result.path}: not run: it imports {result.missing_package}, which is not installed here "
            "(its findings stay not exercised)")


def summary_line(rows):
    return ", ".join(f"{count} {verdict}" for verdict, count in summary(rows).items())


def jax_versions():
    """The JAX the cases ran on (the workers use this interpreter) and the one the linter's data describes."""
    try:
        installed = metadata.version("jax")
    except metadata.PackageNotFoundError:
        installed = "not installed"
    return installed, api.data()["jax_version"]


def table(rows, results, costs=None):
    """``costs``: the findings' measured costs (--measure-cost), None when not asked for."""
    ran_on, described = jax_versions()
    version = f"jax {ran_on}" + ("" if ran_on == described else f" (the linter's API data describes jax {described})")
    lines = [f"backend: {backend} (device: {device}), {version}" for backend, device in backends(results)]
    cells = [(_location(row), "/".join(row.codes), row.verdict, _evidence(row)) for row in rows]
    widths = [max((len(cell[i]) for cell in cells), default=0) for i in range(3)]
    lines += ["  ".join(cell[i].ljust(widths[i]) for i in range(3)) + "  " + cell[3] for cell in cells]
    problems = case_problems(results)
    if problems:
        lines.append("cases:")
        lines += [f"  {path}::{case.name}  {case.status}: {case.detail}" for path, case in problems]
    remarks = notes(results)
    if remarks:
        lines.append("notes:")
        lines += [f"  {remark}" for remark in remarks]
    if costs is not None:
        lines += table_lines(costs)
    lines.append(summary_line(rows))
    return "\n".join(lines)


def _location(row):
    """path:line:col for a finding; a missed event has no column."""
    return f"{row.path}:{row.line}" if row.col is None else f"{row.path}:{row.line}:{row.col}"


def _evidence(row):
    if row.mechanism:
        return f"{row.mechanism} in {row.case}: {row.evidence}"
    return row.evidence or EXPLANATIONS.get(row.verdict, "")


def as_json(rows, results, errors, exit_code, costs=None):
    ran_on, described = jax_versions()
    measured = {} if costs is None else {"costs": [cost.as_dict() for cost in costs]}
    return json.dumps({
        "backends": [{"backend": backend, "device": device} for backend, device in backends(results)],
        "jax_version": ran_on,
        "api_data_jax_version": described,
        "results": [asdict(row) for row in rows],
        "cases": [{"path": result.path, "case": case.name, "status": case.status, "detail": case.detail,
                   "uncounted": case.uncounted, "events": case.events} for result in results for case in result.cases],
        "errors": errors,
        "notes": notes(results),
        **measured,
        "summary": summary(rows),
        "exit_code": exit_code,
    }, indent=2)
