"""Match static findings with what the cases did at runtime.

Findings and runtime lines meet at the first line of the innermost statement,
so a multi-line call is one place. Events are runtime pitfalls (a missed one
is reported); observations are weaker facts (a line ran only while JAX
traced, a transfer repeated) that can confirm a finding but are never
reported as missed.
"""
from dataclasses import dataclass

CONFIRMED, NOT_REPRODUCED, NOT_EXERCISED, MISSED = "confirmed", "not reproduced", "not exercised", "missed"
VERDICTS = (CONFIRMED, NOT_REPRODUCED, NOT_EXERCISED, MISSED)
CASE_PROBLEMS = ("timed out", "crashed")


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


def judge(result):
    """Rows for one FileResult: one per finding, then one per missed event."""
    place = result.statements.get
    ran = {place(line, line) for case in result.cases for line in case.lines}
    evidence = {}  # (statement, code) -> (kind order, case, item); events win over observations
    for case in result.cases:
        for order, items in enumerate((case.events, case.observations)):
            for item in items:
                for code in item["codes"]:
                    key = (place(item["line"], item["line"]), code)
                    if key not in evidence or evidence[key][0] > order:
                        evidence[key] = (order, case.name, item)
    rows, explained = [], set()
    for finding in result.findings:
        statement = place(finding.line, finding.line)
        explained.add((statement, finding.code))
        row = Row(result.path, finding.line, finding.col + 1, [finding.code], NOT_EXERCISED, finding.message)
        if (statement, finding.code) in evidence:
            _, case, item = evidence[(statement, finding.code)]
            row.verdict, row.mechanism, row.evidence, row.case = CONFIRMED, item["mechanism"], item["detail"], case
        elif statement in ran:
            row.verdict = NOT_REPRODUCED
        rows.append(row)
    seen = set()
    for case in result.cases:
        for event in case.events:
            statement = place(event["line"], event["line"])
            key = (statement, tuple(event["codes"]))
            if key in seen or any((statement, code) in explained for code in event["codes"]):
                continue
            seen.add(key)
            rows.append(Row(result.path, event["line"], None, event["codes"], MISSED, "",
                            event["mechanism"], event["detail"], case.name))
    return sorted(rows, key=lambda row: (row.line, row.col or 0, row.codes))


def summary(rows):
    counts = dict.fromkeys(VERDICTS, 0)
    for row in rows:
        counts[row.verdict] += 1
    return counts


def exit_code(rows, results, errors):
    """0: nothing wrong; 1: not reproduced, missed, or a case hung/crashed; 2: path or setup errors."""
    if errors:
        return 2
    problems = any(case.status in CASE_PROBLEMS for result in results for case in result.cases)
    return 1 if problems or any(row.verdict in (NOT_REPRODUCED, MISSED) for row in rows) else 0
