"""flake8-jaxnp-confirm --measure-cost: each confirmed finding of a rule whose harm is time gets a
cost measured against the case with the finding's fix, or the reason it has none. No test here
asserts a timing value: only that the numbers are the medians of samples that were taken."""
import json
import os
import statistics
import time
from collections import namedtuple

import jax.numpy as jnp
import numpy as np
import pytest

from confirm_helpers import INPUTS, ON_PLATFORM, PLATFORM, alive, confirm
from flake8_jaxnp.confirm.cost import HEADER
from flake8_jaxnp.confirm.worker import MIN_RUNS, same_results
from flake8_jaxnp.rules import RULES

TIMED_LOOP = INPUTS / "cost_timed_loop.py"
UNMEASURABLE = INPUTS / "cost_unmeasurable.py"


@pytest.fixture(scope="module")
def pid_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("pids")


@pytest.fixture(scope="module")
def measured(pid_folder):
    result = confirm("--format", "json", "--measure-cost", "--jobs", "1", "--timeout", "10", *ON_PLATFORM,
                     TIMED_LOOP, UNMEASURABLE, env=dict(os.environ, JAXNP_COST_PIDS=str(pid_folder)))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    return {(cost["path"].rpartition("/")[2], cost["line"]): cost for cost in report["costs"]}


@pytest.mark.parametrize("line, code, line_runs", [
    (21, "JNP104", 6),  # the case calls train twice, whose loop runs 3 times: counted, not assumed
    (25, "JNP603", 2),
])
def test_a_fixed_finding_gets_a_cost_from_its_samples(measured, line, code, line_runs):
    cost = measured["cost_timed_loop.py", line]
    assert (cost["code"], cost["reason"], cost["case"], cost["backend"]) == (code, "", "case_train_twice", PLATFORM)
    assert cost["runs"] >= MIN_RUNS
    assert len(cost["original_ms"]) == len(cost["fixed_ms"]) == cost["runs"]
    assert all(sample > 0 for sample in cost["original_ms"] + cost["fixed_ms"])
    assert cost["median_original_ms"] == statistics.median(cost["original_ms"])
    assert cost["median_fixed_ms"] == statistics.median(cost["fixed_ms"])
    assert cost["cost_ms_per_call"] == cost["median_original_ms"] - cost["median_fixed_ms"]
    assert cost["line_runs"] == line_runs
    assert cost["cost_ms_per_line_run"] == cost["cost_ms_per_call"] / line_runs
    assert cost["share_of_call"] == cost["cost_ms_per_call"] / cost["median_original_ms"]


def test_a_rule_without_a_fix_says_so(measured):
    cost = measured["cost_timed_loop.py", 22]
    assert (cost["code"], cost["reason"]) == ("JNP102", "JNP102 has no mechanical fix")
    assert (cost["original_ms"], cost["fixed_ms"], "runs" in cost) == ([], [], False)


@pytest.mark.parametrize("line, reason", [
    (23, "the fixed case returns a different result"),
    (30, "the original case raised RuntimeError: called again"),
    (44, "one call gave no result within 10s"),
])
def test_a_changed_result_a_raise_or_a_hang_is_not_measured(measured, line, reason):
    cost = measured["cost_unmeasurable.py", line]
    assert (cost["code"], cost["reason"]) == ("JNP603", reason)
    assert (cost["original_ms"], cost["fixed_ms"], "cost_ms_per_call" in cost) == ([], [], False)


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
    measured_lines = [lines[section + 1], lines[section + 3]]
    assert lines[section + 2] == f"  {TIMED_LOOP}:22:18  JNP102  not measured: JNP102 has no mechanical fix"
    assert [line.split()[:2] for line in measured_lines] == [[f"{TIMED_LOOP}:21:22", "JNP104"],
                                                             [f"{TIMED_LOOP}:25:15", "JNP603"]]
    assert all(" ms per call, " in line and line.endswith(f"on {PLATFORM}, case_train_twice")
               for line in measured_lines)
    assert lines[:section] + lines[section + 4:] == plain.stdout.splitlines()
    assert HEADER not in plain.stdout


def test_json_has_costs_only_when_asked():
    report = json.loads(confirm("--format", "json", *ON_PLATFORM, TIMED_LOOP).stdout)
    assert "costs" not in report


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
