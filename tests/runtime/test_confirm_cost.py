"""flake8-jaxnp-confirm --measure-cost: each confirmed finding of a rule whose harm is time gets a
figure measured where it happens (and, for a rule with a mechanical fix, against the fixed case), or
the reason it has none. No test here asserts a timing value: only counts, bytes, signs and that the
numbers are made from the samples that were taken."""
import json
import os
import statistics
import time
from collections import namedtuple
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

from confirm_helpers import INPUTS, ON_PLATFORM, PLATFORM, alive, confirm
from flake8_jaxnp.confirm.cost import EVENTS, HEADER, event_figure
from flake8_jaxnp.confirm.worker import MIN_RUNS, same_results
from flake8_jaxnp.rules import RULES

TIMED_LOOP = INPUTS / "cost_timed_loop.py"
UNMEASURABLE = INPUTS / "cost_unmeasurable.py"


@pytest.fixture(scope="module")
def pid_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("pids")


@pytest.fixture(scope="module")
def report(pid_folder):
    result = confirm("--format", "json", "--measure-cost", "--jobs", "1", "--timeout", "10", *ON_PLATFORM,
                     TIMED_LOOP, UNMEASURABLE, env=dict(os.environ, JAXNP_COST_PIDS=str(pid_folder)))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def measured(report):
    return {(Path(cost["path"]).name, cost["line"]): cost for cost in report["costs"]}


def test_an_upload_gets_its_bytes_and_time_where_it_happens(measured):
    """The bias (1000 x 1000 float32) is uploaded on each of 3 steps of the 2 calls of train."""
    cost = measured["cost_timed_loop.py", 23]
    assert (cost["code"], cost["reason"], cost["case"], cost["backend"]) == ("JNP104", "", "case_train_twice", PLATFORM)
    figure = cost["at_event"]
    assert (figure["event"], figure["per_call"], figure["bytes"]) == ("upload", 6, 1000 * 1000 * 4)
    assert figure["calls"] >= MIN_RUNS
    assert 0 < figure["ms_each"] and 0 < figure["iteration_ms"] and 0 < figure["call_ms"]
    assert figure["share_of_iteration"] == figure["ms_each"] / figure["iteration_ms"]
    assert figure["share_of_call"] == figure["per_call"] * figure["ms_each"] / figure["call_ms"]


def test_a_rule_with_a_fix_is_also_timed_against_it(measured):
    fix = measured["cost_timed_loop.py", 23]["against_fix"]
    assert fix["reason"] == ""
    assert fix["runs"] >= MIN_RUNS
    assert len(fix["original_ms"]) == len(fix["fixed_ms"]) == fix["runs"]
    assert all(sample > 0 for sample in fix["original_ms"] + fix["fixed_ms"])
    assert fix["median_original_ms"] == statistics.median(fix["original_ms"])
    assert fix["median_fixed_ms"] == statistics.median(fix["fixed_ms"])
    assert fix["cost_ms_per_call"] == fix["median_original_ms"] - fix["median_fixed_ms"]
    assert fix["line_runs"] == 6  # the case calls train twice, whose loop runs 3 times: counted, not assumed
    assert fix["cost_ms_per_line_run"] == fix["cost_ms_per_call"] / 6
    assert fix["share_of_call"] == fix["cost_ms_per_call"] / fix["median_original_ms"]


def test_a_transfer_without_a_fix_gets_its_wait_copy_and_bytes(measured):
    """float(x[0, 0]) copies one float32 on each of 6 steps; no mechanical fix, so no comparison."""
    cost = measured["cost_timed_loop.py", 24]
    assert (cost["code"], cost["reason"], cost["against_fix"]) == ("JNP102", "", None)
    figure = cost["at_event"]
    assert (figure["event"], figure["per_call"], figure["bytes"]) == ("transfer", 6, 4)
    assert 0 <= figure["wait_ms"] <= figure["ms_each"]
    assert 0 < figure["share_of_iteration"] and 0 < figure["share_of_call"] < 1


def test_a_compile_in_the_loop_gets_the_first_calls_compiles(measured):
    """A lambda jitted on each of 3 steps of the 2 calls of train: 6 compiles in every call."""
    cost = measured["cost_timed_loop.py", 25]
    assert (cost["code"], cost["reason"], cost["against_fix"]["reason"]) == ("JNP602", "", "")
    figure = cost["at_event"]
    assert (figure["event"], figure["calls"], figure["per_call"], figure["later_per_call"]) == ("compile", 1, 6, 6)
    assert figure["stages"] == ["trace", "lowering", "backend compile"]
    assert 0 < figure["ms_each"] and 0 < figure["share_of_call"] <= 1


def test_every_confirmed_finding_of_a_rule_whose_harm_is_time_has_a_figure_or_a_reason(measured, report):
    confirmed = [(Path(row["path"]).name, row["line"]) for row in report["results"]
                 if row["verdict"] == "confirmed" and RULES[row["codes"][0]].costs_time]
    assert len(confirmed) == 7
    assert [place for place in confirmed if (measured[place]["at_event"] is None) == (not measured[place]["reason"])] \
        == []


def test_an_unsynchronised_clock_read_gets_what_it_leaves_out(measured):
    """Not a negative cost against the fix, which adds the very wait the reading leaves out."""
    cost = measured["cost_timed_loop.py", 28]
    assert (cost["code"], cost["reason"], cost["against_fix"]) == ("JNP603", "", None)
    figure = cost["at_event"]
    assert (figure["event"], figure["per_call"]) == ("clock read", 2)
    assert figure["ms_each"] >= 0


@pytest.mark.parametrize("line, reason", [
    (33, "the case raised RuntimeError: called again"),
    (47, "one call gave no result within 10s"),
])
def test_a_raise_or_a_hang_is_not_measured(measured, line, reason):
    cost = measured["cost_unmeasurable.py", line]
    assert (cost["code"], cost["reason"], cost["at_event"], cost["against_fix"]) == ("JNP603", reason, None, None)


def test_a_changed_result_is_not_timed_against_the_fix(measured):
    cost = measured["cost_unmeasurable.py", 25]
    assert (cost["code"], cost["reason"], cost["at_event"]["event"]) == ("JNP104", "", "upload")
    fix = cost["against_fix"]
    assert (fix["reason"], fix["original_ms"], fix["fixed_ms"], "cost_ms_per_call" in fix) == (
        "the fixed case returns a different result", [], [], False)


def test_a_hung_timing_run_leaves_nothing_behind(measured, pid_folder):
    """The hung case's worker and the process it started end with the run."""
    pids = [int(path.stem) for path in pid_folder.glob("*.pid")]
    assert len(pids) == 2
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in pids if alive(pid)] == []


def test_the_table_adds_a_section_and_nothing_else():
    plain = confirm(*ON_PLATFORM, TIMED_LOOP)
    with_cost = confirm("--measure-cost", *ON_PLATFORM, TIMED_LOOP)
    assert plain.returncode == with_cost.returncode == 0
    lines = with_cost.stdout.splitlines()
    section = lines.index(HEADER)
    upload, transfer, compiles, clock = lines[section + 1:section + 5]
    assert upload.startswith(f"  {TIMED_LOOP}:23:22  JNP104  6 uploads of 3.81 MiB a call, ")
    assert f" on {PLATFORM}, case_train_twice; against the fix: " in upload
    assert transfer.startswith(f"  {TIMED_LOOP}:24:18  JNP102  6 device-to-host transfers of 4 B a call, ")
    assert transfer.endswith(f" on {PLATFORM}, case_train_twice")
    assert compiles.startswith(f"  {TIMED_LOOP}:25:13  JNP602  6 compiles in the first call, ")
    assert "; later calls: 6 each on " in compiles and "; against the fix: " in compiles
    assert clock.startswith(f"  {TIMED_LOOP}:28:15  JNP603  2 clock reads a call, each leaving out ")
    assert "mechanical fix" not in with_cost.stdout
    # the rows without their evidence: which arrays a clock read found unfinished depends on the machine's timing
    without_detail = [line.partition(": ")[0] for line in lines[:section] + lines[section + 5:]]
    assert without_detail == [line.partition(": ")[0] for line in plain.stdout.splitlines()]
    assert HEADER not in plain.stdout


def test_json_has_costs_only_when_asked():
    report = json.loads(confirm("--format", "json", *ON_PLATFORM, TIMED_LOOP).stdout)
    assert "costs" not in report


def test_every_rule_whose_harm_is_time_has_an_event_the_probes_time():
    """So every confirmed finding of such a rule gets a figure where it happens, or the reason it has none."""
    assert [code for code, rule in RULES.items() if rule.costs_time and not set(rule.evidence) & set(EVENTS)] == []


def _transfer(call, at, seconds, data="a"):
    return {"kind": "to-scalar", "call": call, "at": at, "seconds": seconds, "wait_s": seconds / 2, "bytes": 4}


def test_a_transfer_figure_leaves_out_the_first_call_and_spans_iterations_within_a_call():
    samples = [_transfer(0, 0.0, 9.0), _transfer(1, 10.0, 0.001), _transfer(1, 10.004, 0.001),
               _transfer(2, 20.0, 0.003), _transfer(2, 20.004, 0.003)]
    figure = event_figure(samples, calls=[30.0, 0.010, 0.010])
    assert figure == pytest.approx({"event": "transfer", "calls": 2, "call_ms": 10.0, "per_call": 2, "ms_each": 2.0,
                                    "wait_ms": 1.0, "bytes": 4, "iteration_ms": 4.0, "share_of_iteration": 0.5,
                                    "share_of_call": 0.4})


def test_an_upload_figure_counts_the_data_uploaded_again_not_a_new_batch():
    samples = [dict(_transfer(call, call + index / 10, 0.001), kind="same-upload", data=data)
               for call in (1, 2) for index, data in enumerate(["mask", f"batch{call}", "mask"])]
    figure = event_figure(samples, calls=[1.0, 0.01, 0.01])
    assert (figure["per_call"], figure["iteration_ms"]) == (2, pytest.approx(200.0))


def test_a_compile_figure_is_the_first_calls():
    stages = [("trace", 0.01), ("lowering", 0.02), ("backend compile", 0.05)]
    samples = [{"kind": "retrace", "call": call, "stage": stage, "seconds": seconds}
               for call in (0, 0, 1) for stage, seconds in stages]
    figure = event_figure(samples, calls=[0.2, 0.1, 0.001])
    assert figure.pop("stages") == ["trace", "lowering", "backend compile"]
    assert figure == pytest.approx({"event": "compile", "calls": 1, "call_ms": 200.0, "per_call": 2, "ms_each": 80.0,
                                    "share_of_call": 0.8, "later_per_call": 0.5})


def test_rules_whose_harm_is_time_are_confirmable():
    """A cost is measured on the case that confirmed the finding."""
    assert [code for code, rule in RULES.items() if rule.costs_time and not rule.evidence] == []


Pair = namedtuple("Pair", "left right")
OtherPair = namedtuple("Pair", "left right")  # a second run of a module defines its classes again


@pytest.mark.parametrize("first, second, same", [
    ((jnp.ones(3), 2.0), (jnp.ones(3), 2.0), True),
    (Pair(jnp.arange(2), [np.nan]), OtherPair(jnp.arange(2), [np.nan]), True),
    (jnp.array([np.nan]), jnp.array([np.nan]), True),
    (jnp.ones(3), jnp.ones(3, dtype=jnp.int32), False),
    (jnp.ones(3), jnp.ones((3, 1)), False),
    ((jnp.ones(3),), [jnp.ones(3)], False),
    ({"a": 1.0}, {"a": 1.5}, False),
    (jnp.ones(2), 1.0, False),
])
def test_results_are_compared_by_structure_dtype_shape_and_values(first, second, same):
    assert same_results(first, second) is same
