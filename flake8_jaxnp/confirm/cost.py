"""--measure-cost: what a pitfall whose harm is time costs, measured on the backend in use.

For each finding of a rule whose harm is time (``costs_time`` in the catalogue) that a case
confirmed, a worker calls that case with the probes on and a ``Timer`` on the recorder (no line
counting, ``worker.event_timings``): the probes time the pitfall where it happens (each
device-to-host transfer: the wait for the device, then the copy, and the bytes; each upload;
each compile; what each unsynchronised clock read leaves out), and the figure relates it to the
loop iteration and to the call. A rule with a mechanical fix is also timed against its fix
(``worker.timings``: the case as written against the same case fixed, autofix's ``fix_source``,
unsafe fixes too), except where the fix adds the very wait the pitfall leaves out (a clock read).
A finding that cannot be measured gets its reason, never a number. Findings are measured one at
a time whatever ``--jobs`` says: runs in parallel would time each other.
"""
import importlib.util
import statistics
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field

from .. import evidence as ev
from ..rules import RULES
from .runner import CorruptMessage, Pool, WorkerLost
from .verdicts import CONFIRMED

HEADER = ("cost (--measure-cost; where the pitfall happens: medians over timed calls of the confirming case "
          "after a first call that compiles; against the fix: the case as written minus the case fixed):")
# What the probes time for each kind of evidence (timer.py).
EVENTS = {ev.TO_NUMPY: "transfer", ev.TO_SCALAR: "transfer", ev.FORMATTING: "transfer", ev.SAME_UPLOAD: "upload",
          ev.RETRACE: "compile", ev.UNFINISHED_AT_CLOCK: "clock read"}
# Kinds whose fix adds the wait that the pitfall leaves out: timed against it, the "cost" is negative by construction.
FIX_ADDS_THE_WAIT = frozenset({ev.UNFINISHED_AT_CLOCK})


@dataclass
class FixComparison:
    """The case as written against the same case with the finding's fix."""
    reason: str = ""  # why it was not measured; "" when it was
    original_ms: list = field(default_factory=list)  # one sample per timed call of the case as written
    fixed_ms: list = field(default_factory=list)  # one per timed call of the case with the fix
    line_runs: int = 0  # how often one call of the case as written entered the finding's statement

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
        if self.reason:
            return f"against the fix: not measured: {self.reason}"
        written = statistics.median(self.original_ms)
        return (f"against the fix: {self.per_call:+.3g} ms per call, {self.per_call / written:+.1%} of the call "
                f"({len(self.original_ms)} timed calls of each)")


@dataclass
class Cost:
    path: str
    line: int
    col: int  # 1-based, as in the rows
    code: str
    case: str = ""  # the case that confirmed the finding
    backend: str = ""
    reason: str = ""  # why it has no figure where it happens; "" when it has one
    at_event: dict = None  # the figure where it happens (``event_figure``)
    against_fix: FixComparison = None  # None: the rule's fix is not timed against (none, or it adds the wait)

    def as_dict(self):
        return dict(asdict(self), against_fix=self.against_fix.as_dict() if self.against_fix else None)

    def describe(self):
        """One line of the table."""
        where = f"{self.path}:{self.line}:{self.col}  {self.code}  "
        text = f"not measured: {self.reason}" if self.reason else \
            f"{describe_figure(self.at_event)} on {self.backend}, {self.case}"
        return where + text + (f"; {self.against_fix.describe()}" if self.against_fix else "")


def measure(rows, results, timeout, settings):
    """A Cost for every finding of a rule whose harm is time, in the order of ``results``;
    ``settings``: the workers' (``runner.settings``), ``timeout``: seconds one call may take."""
    confirmed = {(row.path, row.line, row.col, row.codes[0]): row.case for row in rows if row.verdict == CONFIRMED}
    measured, pool = [], Pool(dict(settings, timing=True))
    for result in results:
        for finding in result.findings:
            if RULES[finding.code].costs_time:
                cost = Cost(result.path, finding.line, finding.col + 1, finding.code,
                            confirmed.get((result.path, finding.line, finding.col + 1, finding.code), ""))
                measured.append((cost, result, finding))
    try:
        # Against the fix first: the probes a timing run at the event installs stay in its worker.
        for cost, result, finding in measured:
            kinds = set(RULES[finding.code].evidence)
            if RULES[finding.code].fix_safety and not _unmeasurable(cost.case) and not kinds & FIX_ADDS_THE_WAIT:
                cost.against_fix = _against_fix(cost, result, finding, pool, timeout)
        by_case = defaultdict(list)
        for cost, result, finding in measured:
            cost.reason = _unmeasurable(cost.case)
            if not cost.reason:
                by_case[(result.path, cost.case)].append((cost, result, finding))
        for findings in by_case.values():
            _at_event(findings, pool, timeout)
    finally:
        pool.close()
    return [cost for cost, _, _ in measured]


def _unmeasurable(case):
    """Why a finding confirmed by ``case`` cannot be measured, or ""."""
    if not case:
        return "no case confirmed it"
    if "::" in case:
        return f"the case that confirmed it is in another file ({case.rpartition('::')[0]})"
    return ""


def _statement_lines(result, finding):
    """The lines of the finding's statement: a probe sees the line the interpreter is on."""
    statement = result.statements.get(finding.line, finding.line)
    return [line for line, first in result.statements.items() if first == statement]


def _ask(pool, request, timeout, reply_type):
    """Send one timing request to a worker: (its reply or None, why none or "", the worker's backend)."""
    try:
        worker = pool.take()
    except WorkerLost as exc:
        return None, f"the worker did not start: {exc}", ""
    backend = worker.backend[0]
    try:
        worker.send(request)
        message = worker.receive(timeout)
        while message["type"] != reply_type:
            message = worker.receive(timeout)
        worker.receive(timeout)  # "file done"
    except TimeoutError:
        reason = f"one call gave no result within {timeout:g}s"
    except (CorruptMessage, KeyError, TypeError) as exc:
        reason = f"the worker sent a corrupt message: {exc}"
    except WorkerLost:
        reason = f"the worker failed: {worker.exit_reason()}"
    else:
        pool.give(worker)
        return message, message["reason"], backend
    worker.kill()
    return None, reason, backend


def _against_fix(cost, result, finding, pool, timeout):
    """The FixComparison of one finding."""
    from ..autofix import fix_source  # libcst, only when measuring

    comparison = FixComparison()
    with open(result.path, "rb") as handle:
        fixed = fix_source(importlib.util.decode_source(handle.read()), [finding], unsafe=True)
    if not fixed.applied:
        comparison.reason = "its fix does not apply here"
        return comparison
    request = {"path": result.realpath, "case": cost.case, "fixed": fixed.text,
               "lines": _statement_lines(result, finding)}
    message, comparison.reason, cost.backend = _ask(pool, request, timeout, "cost")
    if message is not None and not comparison.reason:
        comparison.original_ms = [seconds * 1000 for seconds in message["original"]]
        comparison.fixed_ms = [seconds * 1000 for seconds in message["fixed"]]
        comparison.line_runs = message["line_runs"]
    return comparison


def _at_event(findings, pool, timeout):
    """Time one case with the probes on and give each of its ``findings`` its figure or reason."""
    first, result, _ = findings[0]
    request = {"path": result.realpath, "case": first.case, "at_event": True}
    message, reason, backend = _ask(pool, request, timeout, "event costs")
    for cost, result, finding in findings:
        cost.backend = backend
        if reason:
            cost.reason = reason
            continue
        lines, kinds = set(_statement_lines(result, finding)), set(RULES[finding.code].evidence) & set(EVENTS)
        samples = [dict(sample, kind=kind) for line, kind, found in message["lines"]
                   if line in lines and kind in kinds for sample in found]
        cost.at_event = event_figure(samples, message["calls"]) if samples else None
        if cost.at_event is None:
            cost.reason = "the probes saw no " + " or ".join(sorted({EVENTS[kind] for kind in kinds})) + \
                          " at this statement in the timed calls"


def event_figure(samples, calls):
    """The figure of one finding from the samples the probes took at its statement (timer.py) and the
    seconds each call of the case took (the first one compiles); None when the calls that count
    have no sample."""
    event = EVENTS[samples[0]["kind"]]
    if event == "compile":  # the first call: a compile in a loop repeats there; later calls may find it cached
        counted, call_seconds = [0], calls[0]
    else:  # after the first call: the steady state, compiles done
        counted, call_seconds = range(1, len(calls)), statistics.median(calls[1:])
    if event == "upload":  # the data uploaded again and again, not a new batch at the same line
        repeated = Counter(sample["data"] for sample in samples).most_common(1)[0][0]
        samples = [sample for sample in samples if sample["data"] == repeated]
    chosen = [sample for sample in samples if sample["call"] in counted]
    if not chosen:
        return None
    figure = {"event": event, "calls": len(counted), "call_ms": call_seconds * 1000}
    if event == "compile":
        compiles = sum(sample["stage"] == "trace" for sample in chosen)
        total = sum(sample["seconds"] for sample in chosen)
        later = [sum(sample["stage"] == "trace" and sample["call"] == call for sample in samples)
                 for call in range(1, len(calls))]
        return dict(figure, per_call=compiles, ms_each=total * 1000 / max(compiles, 1),
                    share_of_call=total / call_seconds, later_per_call=statistics.median(later) if later else None,
                    stages=list(dict.fromkeys(sample["stage"] for sample in chosen)))  # in the order JAX ran them
    per_call = statistics.median(sum(sample["call"] == call for sample in chosen) for call in counted)
    ms = statistics.median(sample["seconds"] for sample in chosen) * 1000
    figure.update(per_call=per_call, ms_each=ms)
    if event == "clock read":
        return figure
    intervals = [(later["at"] - earlier["at"]) * 1000 for earlier, later in zip(chosen, chosen[1:])
                 if earlier["call"] == later["call"]]
    iteration = statistics.median(intervals) if intervals else None
    figure.update(bytes=statistics.median_low(sample["bytes"] for sample in chosen), iteration_ms=iteration,
                  share_of_iteration=ms / iteration if iteration else None,
                  share_of_call=per_call * ms / figure["call_ms"])
    if event == "transfer":
        figure["wait_ms"] = statistics.median(sample["wait_s"] for sample in chosen) * 1000
    return figure


def describe_figure(figure):
    """The figure in a few words."""
    event, per_call, ms = figure["event"], figure["per_call"], figure["ms_each"]
    if event == "compile":
        later = figure["later_per_call"]
        return (f"{per_call} compiles in the first call, {ms:.3g} ms each ({', '.join(figure['stages'])}), "
                f"{figure['share_of_call']:.1%} of that call ({figure['call_ms']:.3g} ms); "
                f"later calls: {'none' if not later else f'{later:g} each'}")
    if event == "clock read":
        return (f"{per_call:g} clock reads a call, each leaving out {ms:.3g} ms of queued work; "
                f"{figure['calls']} timed calls")
    what = f"device-to-host transfers of {_size(figure['bytes'])}" if event == "transfer" else \
        f"uploads of {_size(figure['bytes'])}"
    wait = f" ({figure['wait_ms']:.3g} ms waiting for the device)" if event == "transfer" else ""
    iteration = (f", {figure['share_of_iteration']:.1%} of a loop iteration ({figure['iteration_ms']:.3g} ms)"
                 if figure["iteration_ms"] else "")
    return (f"{per_call:g} {what} a call, {ms:.3g} ms each{wait}{iteration}, "
            f"{figure['share_of_call']:.1%} of the call ({figure['call_ms']:.3g} ms); {figure['calls']} timed calls")


def _size(count):
    if count < 1024:
        return f"{count} B"
    return f"{count / 1024:.3g} KiB" if count < 1 << 20 else f"{count / (1 << 20):.3g} MiB"


def table_lines(costs):
    """The table's cost section."""
    return [HEADER] + ([f"  {cost.describe()}" for cost in costs] or ["  no finding of a rule whose harm is time"])
