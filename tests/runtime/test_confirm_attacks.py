"""The runtime mode keeps the README's promises against hostile cases: one test per defect.

The inputs are in tests/runtime/confirm_inputs/attacks/ (run together once) and
tests/runtime/confirm_inputs/hang_until_signalled.py (the signal tests).
"""
import json
import os
import signal
import subprocess
import time

import pytest

from confirm_helpers import COMMAND, INPUTS, ON_PLATFORM, alive, case_of, confirm, rows_of
from conftest import ROOT

ATTACKS = INPUTS / "attacks"


@pytest.fixture(scope="module")
def pid_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("pids")


@pytest.fixture(scope="module")
def attacks(pid_folder):
    env = dict(os.environ, JAXNP_ATTACK_PIDS=str(pid_folder))
    result = confirm("--format", "json", "--timeout", "5", *ON_PLATFORM, ATTACKS, env=env)
    assert result.stderr == ""
    return result, json.loads(result.stdout)


def verdicts(report, name):
    return [(row["line"], row["codes"], row["verdict"]) for row in rows_of(report, name)]


def test_not_implemented_refusal_confirms_a_numpy_only_argument(attacks):
    _, report = attacks
    assert verdicts(report, "refused_out.py") == [(8, ["JNP503"], "confirmed")]


def test_weak_python_scalar_is_no_promotion_at_runtime(attacks):
    _, report = attacks
    assert verdicts(report, "weak_scalar.py") == []
    assert case_of(report, "weak_scalar.py", "case_int_times_half")["events"] == []


def test_cases_with_defaults_and_callables_run(attacks):
    _, report = attacks
    assert verdicts(report, "defaults.py") == [(10, ["JNP102"], "confirmed"), (16, ["JNP103"], "confirmed")]
    ran = {case["case"] for case in report["cases"] if case["path"].endswith("defaults.py")}
    assert ran == {"case_with_defaults", "case_variadic", "case_partial"}


def test_file_without_cases_is_named(attacks):
    _, report = attacks
    assert any(note.startswith(f"{ATTACKS / 'cross_model.py'}: no case_* function") for note in report["notes"])


def test_run_without_any_case_is_a_usage_error(tmp_path):
    (tmp_path / "helpers.py").write_text("import jax\n\ndef case_needs(x):\n    return x\n")
    result = confirm(tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["flake8-jaxnp-confirm: no case_* function to run in the given paths "
                                          "(a module-level callable that takes no arguments); --case NAME runs "
                                          "another one, e.g. --case main for a script"]
    assert result.stdout == ""  # nothing ran: no report, no summary line


def test_x64_turned_on_by_one_case_is_off_for_the_next(attacks):
    _, report = attacks
    assert verdicts(report, "x64_leak.py") == [(11, ["JNP402"], "confirmed")]


def test_modules_directory_environment_and_path_do_not_leak_between_cases(attacks):
    _, report = attacks
    assert case_of(report, "state_leak.py", "case_sees_nothing_of_it")["status"] == "ok"


def test_a_compiled_extension_a_case_imported_is_not_loaded_again(attacks):
    _, report = attacks
    assert [case_of(report, "extension_twice.py", name)["status"] for name in ("case_first", "case_second")] \
        == ["ok", "ok"]


def test_worker_never_imports_from_the_working_directory(tmp_path):
    marker = tmp_path / "imported"
    for name in ("jax.py", "numpy.py"):
        (tmp_path / name).write_text(f"open({str(marker)!r}, 'a').write({name!r})\nraise RuntimeError('shadow')\n")
    result = confirm("--format", "json", *ON_PLATFORM, ATTACKS / "refused_out.py", cwd=tmp_path)
    assert not marker.exists()
    assert result.returncode == 0, result.stderr
    assert verdicts(json.loads(result.stdout), "refused_out.py") == [(8, ["JNP503"], "confirmed")]


def test_nothing_a_case_started_outlives_the_run(attacks, pid_folder):
    _, report = attacks
    pids = [int(path.stem) for path in pid_folder.glob("*.pid")]
    assert len(pids) == 3  # the plain child, the one in its own session, the fork holding the pipes
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in pids if alive(pid)] == []
    statuses = {case: case_of(report, "children.py", case)["status"] for case in (
        "case_leave_a_child", "case_new_session_then_hang", "case_fork_holding_the_pipes", "case_non_daemon_thread")}
    assert statuses == {"case_leave_a_child": "ok", "case_new_session_then_hang": "timed out",
                        "case_fork_holding_the_pipes": "ok", "case_non_daemon_thread": "ok"}
    assert report["errors"] == []  # no "worker did not start" for a file whose cases all ran


def test_junk_on_the_pipes_fails_that_case_and_the_run_goes_on(attacks):
    result, report = attacks
    junk = case_of(report, "junk.py", "case_write_junk")
    assert junk["status"] == "crashed" and "corrupt message" in junk["detail"]
    assert verdicts(report, "junk.py") == [(18, ["JNP301"], "confirmed")]
    assert "Traceback" not in result.stderr
    assert result.returncode == 1


def test_timeout_applies_to_each_run_not_to_both(attacks):
    _, report = attacks
    assert case_of(report, "slow_runs.py", "case_slow")["status"] == "ok"
    assert verdicts(report, "slow_runs.py") == [(11, ["JNP301"], "confirmed")]


@pytest.mark.parametrize("option, value", [
    ("--timeout", "nan"), ("--timeout", "inf"), ("--timeout", "-1"), ("--timeout", "0"),
    ("--memory-limit", "nan"), ("--memory-limit", "-1"), ("--memory-limit", "1e30"), ("--jobs", "0"),
    ("--timeout", "soon"),
])
def test_bad_option_values_are_one_line_usage_errors(option, value):
    result = subprocess.run([*COMMAND, f"{option}={value}", str(ATTACKS / "refused_out.py")],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and option in result.stderr, result.stderr
    assert result.stdout == ""


def test_byte_order_mark_and_coding_cookie_are_read_as_python_reads_them(attacks):
    _, report = attacks
    assert verdicts(report, "bom.py") == [(7, ["JNP202"], "confirmed")]
    assert verdicts(report, "latin1.py") == [(8, ["JNP202"], "confirmed")]


def test_deep_elif_chain_does_not_crash_the_workers_loop_finder(attacks):
    _, report = attacks
    assert case_of(report, "deep_elif.py", "case_loop")["status"] == "ok"
    assert [(row["codes"], row["verdict"]) for row in rows_of(report, "deep_elif.py")] == [(["JNP102"], "confirmed")]


def test_linter_failure_is_an_error_of_the_file_not_a_note(tmp_path, monkeypatch):
    from flake8_jaxnp import linter
    from flake8_jaxnp.confirm.report import notes
    from flake8_jaxnp.confirm.runner import prepare

    def broken(model):
        raise RuntimeError("boom")
        yield  # pragma: no cover - makes this a generator like the real checks

    monkeypatch.setattr(linter, "CHECKS", (broken,) + linter.CHECKS)
    path = tmp_path / "step.py"
    path.write_text("import jax\n\n\n@jax.jit\ndef step(x):\n    print(x)\n    return x\n")
    result = prepare(str(path))
    assert [finding.code for finding in result.findings] == ["JNP301"]  # the other checks still ran
    assert result.unconfirmable == [] and not any("JNP900" in note for note in notes([result]))
    assert result.lint_error.startswith(f"{path}: linter error") and "RuntimeError: boom" in result.lint_error


def test_pitfalls_in_a_module_count_when_another_files_case_reaches_them(attacks):
    _, report = attacks
    rows = rows_of(report, "cross_model.py")
    assert [(row["line"], row["codes"], row["verdict"]) for row in rows] == [
        (8, ["JNP301"], "confirmed"), (16, ["JNP103"], "confirmed")]
    assert all(row["case"].endswith("cross_train.py::case_train") for row in rows)


def _interruptible():
    """Ctrl-C as in a terminal: a suite started in the background (``pytest &``) inherits
    SIGINT ignored, and so would the run, which then rightly goes on."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_signals_end_the_run_with_nothing_left_behind(tmp_path, signum, status):
    env = dict(os.environ, JAXNP_ATTACK_PIDS=str(tmp_path), TMPDIR=str(tmp_path))
    run = subprocess.Popen([*COMMAND, "--timeout", "300", *ON_PLATFORM, str(INPUTS / "hang_until_signalled.py")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
                           preexec_fn=_interruptible)
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("*.pid"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    pids = [int(path.stem) for path in tmp_path.glob("*.pid")]
    assert len(pids) == 2, "the case did not start"
    run.send_signal(signum)
    out, err = run.communicate(timeout=60)
    assert run.returncode == status
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in pids if alive(pid)] == []
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(f"{pid}.pid" for pid in pids)
