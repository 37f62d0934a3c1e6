"""Match static findings with what the cases did at runtime.

Findings and runtime lines meet at the first line of the innermost statement
of their file, so a multi-line call is one place. Events are runtime pitfalls (a missed one
is reported); observations are weaker facts (a line ran only while JAX
traced, a transfer repeated) that can confirm a finding but are never
reported as missed.
"""
import os
from dataclasses import dataclass

from .. import evidence as ev
from ..rules import RULES, confirmed_by

TRANSFERS = frozenset({ev.TO_NUMPY, ev.TO_SCALAR, ev.FORMATTING})  # what a test's assertion has to do

CONFIRMED, NOT_REPRODUCED, NOT_EXERCISED, MISSED = "confirmed", "not reproduced", "not exercised", "missed"
VERDICTS = (CONFIRMED, NOT_REPRODUCED, NOT_EXERCISED, MISSED)
NOT_OBSERVABLE = "not observable"  # the probes could not establish it either way (counted only when it occurs)
CASE_PROBLEMS = ("timed out", "crashed", "exited")  # exited: the case raised SystemExit


@dataclass
class Row:
    path: str
    line: int
    col: object  # 1-based column of a finding (as flake8 prints it); None for a missed event
    codes: list
    verdict: str
    message: str = ""
    mechanism: str = ""
    evidence: str = ""
    case: str = ""


def judge(results, silenced=frozenset()):
    """Rows for prepared FileResults: one per finding, then one per missed event. Events and
    lines count in whichever of the files they happened, whichever file's case reached them.
    ``silenced``: rules not judged (off by default and not selected): none of their pitfalls is missed."""
    by_path = {path: result for result in results for path in result.own_paths}

    def place(item_path, line):
        result = by_path.get(item_path)
        return None if result is None else (result.path, result.statements.get(line, line))

    ran, evidence, events = set(), {}, []  # evidence: (statement, code) -> (kind order, case, item)
    blind = {}  # (statement, evidence kind) -> (case, why the probes could not establish it there)
    for result in results:
        for case in result.cases:
            ran.update(place(path, line) for path, line in case.lines)
            for path, line, kinds, why in case.blind:
                for kind in kinds:
                    blind.setdefault((place(path, line), kind), (_label(result, case, place(path, line)), why))
            for order, items in enumerate((case.events, case.observations)):
                for item in items:
                    statement = place(item["path"], item["line"])
                    if statement is None:
                        continue
                    label = _label(result, case, statement)
                    if order == 0:
                        events.append((statement, label, item))
                    for code in confirmed_by(item["kind"]):
                        key = (statement, code)
                        if key not in evidence or evidence[key][0] > order:
                            evidence[key] = (order, label, item)
    # (case, why, the folder of the modules it may have reached: its own file's, or any for a pytest test)
    uncounted = [(case.name, case.uncounted, None) if "::" in case.name
                 else (f"{result.path}::{case.name}", case.uncounted, os.path.dirname(result.path))
                 for result in results for case in result.cases if case.uncounted]
    rows, explained = [], set()
    for result in results:
        for finding in result.findings:
            statement = (result.path, result.statements.get(finding.line, finding.line))
            explained.add((statement, finding.code))
            row = Row(result.path, finding.line, finding.col + 1, [finding.code], NOT_EXERCISED, finding.message)
            if (statement, finding.code) in evidence:
                _, case, item = evidence[(statement, finding.code)]
                row.verdict, row.mechanism, row.evidence, row.case = CONFIRMED, item["mechanism"], item["detail"], case
            elif statement in ran:
                row.verdict = NOT_REPRODUCED
                unseen = [blind[statement, kind] for kind in RULES[finding.code].evidence if (statement, kind) in blind]
                if unseen:
                    row.verdict, (row.case, why) = NOT_OBSERVABLE, unseen[0]
                    row.evidence = f"not observable here: {why}"
            elif reaching := [(case, why) for case, why, folder in uncounted
                              if folder in (None, os.path.dirname(result.path))]:
                case, why = reaching[0]  # a case that counted no line may have reached it
                row.verdict, row.case = NOT_OBSERVABLE, case
                row.evidence = f"not observable here: line counting was off in {case} ({why})"
            rows.append(row)
    seen, unjudged = set(), {result.path for result in results if result.lint_error}
    # the linter reports no transfer where a test checks a value, nor in a loop of a handful of steps
    unreported = {(result.path, line) for result in results for line in result.assertions | result.demo_lines}
    for statement, case, event in events:
        codes = [code for code in confirmed_by(event["kind"]) if code not in silenced]
        key = (statement, tuple(codes))
        if (not codes or key in seen or statement[0] in unjudged
                or (event["kind"] in TRANSFERS and statement in unreported)
                or any((statement, code) in explained for code in codes)):
            continue
        seen.add(key)
        rows.append(Row(statement[0], event["line"], None, codes, MISSED, "",
                        event["mechanism"], event["detail"], case))
    return sorted(rows, key=lambda row: (row.path, row.line, row.col or 0, row.codes))


def _label(result, case, statement):
    """A case reaching another file is named with its own; a pytest node id names it already."""
    return case.name if statement[0] == result.path or "::" in case.name else f"{result.path}::{case.name}"


def summary(rows):
    counts = dict.fromkeys(VERDICTS, 0)
    for row in rows:
        counts[row.verdict] = counts.get(row.verdict, 0) + 1
    return counts


def exit_code(rows, results, errors):
    """0: nothing wrong; 1: not reproduced, missed, or a case hung/crashed/exited; 2: path, setup or linter errors."""
    if errors:
        return 2
    problems = any(case.status in CASE_PROBLEMS for result in results for case in result.cases)
    return 1 if problems or any(row.verdict in (NOT_REPRODUCED, MISSED) for row in rows) else 0
