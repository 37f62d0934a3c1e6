"""--measure-cost: what a pitfall whose harm is time costs, measured on the backend in use.

For each finding of a rule whose harm is time (``costs_time`` in the catalogue) that a case
confirmed, a worker started without probes (``worker.timings``) calls that case from the file
as written and from the file with the finding's fix (autofix's ``fix_source``, unsafe fixes
too: the two results must be equal, or nothing is measured) and times both. The cost is the
difference of the medians, per call of the case and per run of the finding's statement. A
finding that cannot be measured gets its reason, never a number. Findings are measured one at
a time whatever ``--jobs`` says: runs in parallel would time each other.
"""
import importlib.util
import statistics
from dataclasses import asdict, dataclass, field

from ..rules import RULES
from .runner import CorruptMessage, Pool, WorkerLost
from .verdicts import CONFIRMED

HEADER = ("cost (--measure-cost; as written minus fixed: the case as written against the same case with the "
          "finding's fix, medians of timed calls after a warm-up):")


@dataclass
class Cost:
    path: str
    line: int
    col: int  # 1-based, as in the rows
    code: str
    case: str = ""  # the case that confirmed the finding
    reason: str = ""  # why it was not measured; "" when it was
    original_ms: list = field(default_factory=list)  # one sample per timed call of the case as written
    fixed_ms: list = field(default_factory=list)  # one per timed call of the case with the fix
    line_runs: int = 0  # how often one call of the case as written entered the finding's statement
    backend: str = ""

    @property
    def per_call(self):
        """Milliseconds one call of the case as written takes beyond the fixed one."""
        return statistics.median(self.original_ms) - statistics.median(self.fixed_ms)

    def as_dict(self):
        found = asdict(self)
        if self.reason:
            return found
        return dict(found, runs=len(self.original_ms), median_original_ms=statistics.median(self.original_ms),
                    median_fixed_ms=statistics.median(self.fixed_ms), cost_ms_per_call=self.per_call,
                    cost_ms_per_line_run=self.per_call / self.line_runs if self.line_runs else None,
                    share_of_call=self.per_call / statistics.median(self.original_ms))

    def describe(self):
        """One line of the table."""
        where = f"{self.path}:{self.line}:{self.col}  {self.code}  "
        if self.reason:
            return f"{where}not measured: {self.reason}"
        written, fixed = statistics.median(self.original_ms), statistics.median(self.fixed_ms)
        per_line = (f"{self.per_call / self.line_runs:+.3g} ms per run of the line ({self.line_runs} a call), "
                    if self.line_runs else "")
        return (f"{where}{per_line}{self.per_call:+.3g} ms per call, {self.per_call / written:+.1%} of the call "
                f"({written:.3g} ms as written, {fixed:.3g} ms fixed; {len(self.original_ms)} timed calls of each) "
                f"on {self.backend}, {self.case}")


def measure(rows, results, timeout, settings):
    """A Cost for every finding of a rule whose harm is time, in the order of ``results``;
    ``settings``: the workers' (``runner.settings``), ``timeout``: seconds one call may take."""
    confirmed = {(row.path, row.line, row.col, row.codes[0]): row.case for row in rows if row.verdict == CONFIRMED}
    costs, pool = [], Pool(dict(settings, timing=True))
    try:
        for result in results:
            for finding in result.findings:
                if not RULES[finding.code].costs_time:
                    continue
                cost = Cost(result.path, finding.line, finding.col + 1, finding.code,
                            confirmed.get((result.path, finding.line, finding.col + 1, finding.code), ""))
                fixed, cost.reason = fixed_text(result, finding, cost.case)
                if fixed is not None:
                    cost.reason = _time(cost, result, finding, fixed, pool, timeout)
                costs.append(cost)
    finally:
        pool.close()
    return costs


def fixed_text(result, finding, case):
    """(the file's text with the finding's fix, "") or (None, why the finding cannot be measured)."""
    from ..autofix import fix_safety, fix_source  # libcst, only when measuring

    if not case:
        return None, "no case confirmed it"
    if "::" in case:
        return None, f"the case that confirmed it is in another file ({case.rpartition('::')[0]})"
    if fix_safety(finding.code) is None:
        return None, f"{finding.code} has no mechanical fix"
    with open(result.path, "rb") as handle:
        fixed = fix_source(importlib.util.decode_source(handle.read()), [finding], unsafe=True)
    return (fixed.text, "") if fixed.applied else (None, "its fix does not apply here")


def _time(cost, result, finding, fixed, pool, timeout):
    """Time the case in a worker; fill in ``cost``'s samples and return why not, or ""."""
    try:
        worker = pool.take()
    except WorkerLost as exc:
        return f"the worker did not start: {exc}"
    cost.backend = worker.backend[0]
    statement = result.statements.get(finding.line, finding.line)
    try:
        worker.send({"path": result.realpath, "case": cost.case, "fixed": fixed,
                     "lines": [line for line, first in result.statements.items() if first == statement]})
        message = worker.receive(timeout)
        while message["type"] != "cost":
            message = worker.receive(timeout)
        worker.receive(timeout)  # "file done"
        cost.original_ms = [seconds * 1000 for seconds in message["original"]]
        cost.fixed_ms = [seconds * 1000 for seconds in message["fixed"]]
        cost.line_runs = message["line_runs"]
        reason = message["reason"]
    except TimeoutError:
        reason = f"one call gave no result within {timeout:g}s"
    except (CorruptMessage, KeyError, TypeError) as exc:
        reason = f"the worker sent a corrupt message: {exc}"
    except WorkerLost:
        reason = f"the worker failed: {worker.exit_reason()}"
    else:
        pool.give(worker)
        return reason
    worker.kill()
    cost.original_ms, cost.fixed_ms = [], []
    return reason


def table_lines(costs):
    """The table's cost section."""
    return [HEADER] + ([f"  {cost.describe()}" for cost in costs] or ["  no finding of a rule whose harm is time"])
