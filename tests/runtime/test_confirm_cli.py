"""The runtime confirmation mode (flake8-jaxnp-confirm).

The fixtures folder and the confirm inputs are each run once per session
(module-scoped fixtures); the tests assert on those reports. They run on CPU;
JAXNP_CONFIRM_PLATFORM=gpu (scripts/gpu_confirm.sh) or tpu runs them on an accelerator.
"""
import ast
import json
import os
import pty
import select
import subprocess
import sys
from collections import defaultdict
from importlib import metadata
from pathlib import Path

import pytest

from confirm_helpers import INPUTS, ON_PLATFORM, PLATFORM, case_of, confirm, rows_of
from conftest import FIXTURES, ROOT
from expectations import expected_findings
from flake8_jaxnp.rules import OFF_BY_DEFAULT, RULES

INPUT_FILES = [INPUTS / name for name in (
    "confirmed_and_unexercised.py", "contained.py", "raises_later.py", "wrong_and_missed.py")]
FIXTURE_FILES = sorted(FIXTURES.glob("*.py"))


@pytest.fixture(scope="module")
def fixtures_report():
    result = confirm("--format", "json", "--extend-select", ",".join(OFF_BY_DEFAULT), *ON_PLATFORM, FIXTURES)
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def inputs_run():
    result = confirm("--format", "json", "--timeout", "5", "--memory-limit", "1", *ON_PLATFORM, *INPUT_FILES)
    return result, json.loads(result.stdout)


def test_fixtures_have_no_missed_pitfalls(fixtures_report):
    missed = [(row["path"], row["line"], row["codes"]) for row in fixtures_report["results"]
              if row["verdict"] == "missed"]
    assert missed == []


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=lambda p: p.name)
def test_fixture_findings_are_confirmed(fixture, fixtures_report):
    """Or, for a rule the catalogue calls unconfirmable, listed in the report's notes."""
    marked = expected_findings(fixture)
    unconfirmable = {(line, code) for line, code in marked if not RULES[code].evidence}
    noted = {(int(note.split(":")[1]), note.split()[1]) for note in fixtures_report["notes"]
             if Path(note.split(":")[0]).name == fixture.name and "not confirmable at runtime" in note}
    assert unconfirmable <= noted
    rows = [row for row in rows_of(fixtures_report, fixture.name) if row["verdict"] != "missed"]
    assert {(row["line"], row["codes"][0]) for row in rows} == marked - unconfirmable
    unconfirmed = [(row["line"], row["codes"], row["verdict"]) for row in rows if row["verdict"] != "confirmed"]
    assert unconfirmed == []
    assert all(row["mechanism"] and row["evidence"] and row["case"] for row in rows)


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=lambda p: p.name)
def test_fixture_negatives_produce_no_events(fixture, fixtures_report):
    tree = ast.parse(fixture.read_text())
    negatives = [node.name for node in tree.body
                 if isinstance(node, ast.FunctionDef) and node.name.startswith("case_ok")]
    for name in negatives:
        case = case_of(fixtures_report, fixture.name, name)
        assert case["status"] == "ok", case
        assert case["events"] == [], name


def test_fixture_cases_all_ran(fixtures_report):
    ran = {(Path(case["path"]).name, case["case"]) for case in fixtures_report["cases"]}
    for fixture in FIXTURE_FILES:
        tree = ast.parse(fixture.read_text())
        cases = {node.name for node in tree.body
                 if isinstance(node, ast.FunctionDef) and node.name.startswith("case_")}
        assert {case for name, case in ran if name == fixture.name} == cases
    assert all(case["status"] in ("ok", "raised") for case in fixtures_report["cases"])
    raised = [case for case in fixtures_report["cases"] if case["status"] == "raised"]
    assert all(any(e["mechanism"] == "exception" for e in case["events"]) for case in raised), raised


def test_report_names_backend_and_device(fixtures_report):
    [backend] = fixtures_report["backends"]
    assert backend["backend"] == PLATFORM and backend["device"]
    assert fixtures_report["jax_version"] == metadata.version("jax")


def test_summary_counts_rows(fixtures_report):
    counts = defaultdict(int)
    for row in fixtures_report["results"]:
        counts[row["verdict"]] += 1
    assert fixtures_report["summary"] == {verdict: counts[verdict] for verdict in fixtures_report["summary"]}
    failing = counts["not reproduced"] + counts["missed"]
    assert fixtures_report["exit_code"] == (1 if failing else 0)


def test_wrong_finding_is_not_reproduced(inputs_run):
    result, report = inputs_run
    rows = rows_of(report, "wrong_and_missed.py")
    retraced = [row for row in rows if row["codes"] == ["JNP301"]]
    assert [row["verdict"] for row in retraced] == ["not reproduced"]
    assert result.returncode == 1


def test_pitfall_without_finding_is_missed(inputs_run):
    _, report = inputs_run
    missed = [row for row in rows_of(report, "wrong_and_missed.py") if row["verdict"] == "missed"]
    assert [(row["line"], row["codes"], row["mechanism"]) for row in missed] == [(18, ["JNP201"], "exception")]
    assert "TracerArrayConversionError" in missed[0]["evidence"]


def test_evidence_gathered_before_a_later_exception_is_kept(inputs_run):
    """The print ran once under jit and 50 times without it before both runs raised at the removed
    name; the rerun without jit stops where the jitted run raised (a traced slice, a tracer's truth
    value), so a loop's rebinding (once in both) is no event, the rerun never reaches the sleep past
    the tracer error (it would have waited past --timeout), and a print that ran once under jit and
    three times without it before a tracer error is confirmed."""
    _, report = inputs_run
    rows = [(row["line"], row["codes"][0], row["verdict"], row["case"]) for row in rows_of(report, "raises_later.py")]
    assert rows == [(12, "JNP301", "confirmed", "case_print_then_removed_api"),
                    (18, "JNP202", "confirmed", "case_runs_that_end_differently_are_not_compared"),
                    (23, "JNP202", "confirmed", "case_tracer_error_spares_the_rerun"),
                    (31, "JNP504", "confirmed", "case_print_then_removed_api"),
                    (55, "JNP301", "confirmed", "case_print_then_tracer_error")]
    assert rows_of(report, "raises_later.py")[0]["evidence"] == "print() ran 1x under jit, 50x without it"
    events = {case: [(event["kind"], event["line"]) for event in case_of(report, "raises_later.py", case)["events"]]
              for case in ("case_runs_that_end_differently_are_not_compared", "case_tracer_error_spares_the_rerun")}
    assert events == {"case_runs_that_end_differently_are_not_compared": [("traced-slice", 18)],
                      "case_tracer_error_spares_the_rerun": [("tracer-to-python", 23)]}


def test_case_output_stays_out_of_the_report(inputs_run):
    result, _ = inputs_run
    assert "CASE-OUTPUT" not in result.stdout + result.stderr


def test_hanging_and_crashing_cases_are_contained(inputs_run):
    _, report = inputs_run
    statuses = {case: case_of(report, "contained.py", case) for case in (
        "case_hang", "case_after_hang", "case_segfault", "case_exit", "case_out_of_memory")}
    assert statuses["case_hang"]["status"] == "timed out"
    assert statuses["case_segfault"]["status"] == "crashed"
    assert "SIGSEGV" in statuses["case_segfault"]["detail"]
    assert statuses["case_exit"]["status"] == "crashed"
    assert "status 3" in statuses["case_exit"]["detail"]
    if PLATFORM == "cpu":  # --memory-limit applies to the CPU backend only
        assert statuses["case_out_of_memory"]["status"] == "raised"
        assert statuses["case_out_of_memory"]["detail"].startswith("MemoryError")
    # The run went on: the case after the hang ran in a new worker and confirmed its finding.
    assert statuses["case_after_hang"]["status"] == "ok"
    [row] = rows_of(report, "contained.py")
    assert (row["verdict"], row["case"]) == ("confirmed", "case_after_hang")


def test_table_verdicts_and_exit_status_zero():
    path = INPUTS / "confirmed_and_unexercised.py"
    result = confirm(*ON_PLATFORM, path)
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"backend: {PLATFORM} (device: ")
    assert f", jax {metadata.version('jax')}" in lines[0]
    rows = [line.split()[:3] for line in lines[1:-1]]
    assert rows == [[f"{path}:8:8", "JNP202", "confirmed"], [f"{path}:15:12", "JNP202", "not"]]
    assert "not exercised" in lines[2]
    assert lines[-1] == "1 confirmed, 0 not reproduced, 1 not exercised, 0 missed"
    assert result.returncode == 0
    assert "\r" not in result.stderr  # no progress display when stderr is not a terminal


@pytest.mark.parametrize("output_format, shows_progress", [("table", True), ("json", False)])
def test_progress_only_on_a_terminal_and_only_with_the_table(output_format, shows_progress):
    controller, terminal = pty.openpty()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "flake8_jaxnp.confirm", "--format", output_format, *ON_PLATFORM,
             str(INPUTS / "confirmed_and_unexercised.py")],
            stdout=subprocess.PIPE, stderr=terminal, text=True, cwd=ROOT, timeout=600)
        os.close(terminal)
        terminal = None
        shown = b""
        while chunk := _read_available(controller):
            shown += chunk
    finally:
        os.close(controller)
        if terminal is not None:
            os.close(terminal)
    assert ("[1/1]" in shown.decode()) == shows_progress
    assert "[1/1]" not in result.stdout


def _read_available(fd):
    """What the terminal holds; b"" once it is drained (a lingering process may keep it open)."""
    if not select.select([fd], [], [], 5)[0]:
        return b""
    try:
        return os.read(fd, 4096)
    except OSError:  # the terminal's other end is closed
        return b""


def test_bad_paths_get_one_line_errors(tmp_path):
    (tmp_path / "broken.py").write_text("def f(:\n")
    (tmp_path / "fails_on_import.py").write_text("import jax\nraise RuntimeError('boom')\ndef case_x():\n    pass\n")
    (tmp_path / "notes.txt").write_text("not python")
    result = confirm(tmp_path / "missing.py", tmp_path / "notes.txt", tmp_path / "broken.py",
                     tmp_path / "fails_on_import.py")
    assert result.returncode == 2
    errors = result.stderr.splitlines()
    assert len(errors) == 4, result.stderr
    assert "no such file" in errors[0] and "not a Python file" in errors[1]
    assert "not valid Python" in errors[2] and "import failed: RuntimeError: boom" in errors[3]
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_a_file_python_cannot_decode_is_reported_at_a_line(tmp_path):
    """A bad encoding is a SyntaxError without a line number; the error still names line 1."""
    (tmp_path / "binary.py").write_bytes(b"\x00\x01\xff")
    result = confirm(tmp_path / "binary.py")
    assert result.returncode == 2
    (error,) = result.stderr.splitlines()
    assert "binary.py:1: not valid Python" in error and "None" not in error


def test_file_in_a_package_keeps_its_relative_imports(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "settings.py").write_text("SCALE = 2.0\n")
    (package / "cases.py").write_text(
        "import jax\nimport jax.numpy as jnp\n\nfrom .settings import SCALE\n\n\n"
        "@jax.jit\ndef step(x):\n    print(x)\n    return x * SCALE\n\n\n"
        "def case_step():\n    for _ in range(3):\n        step(jnp.ones(2))\n")
    result = confirm("--format", "json", *ON_PLATFORM, package)
    assert result.stderr == "" and result.returncode == 0
    [row] = json.loads(result.stdout)["results"]
    assert (row["line"], row["codes"], row["verdict"]) == (9, ["JNP301"], "confirmed")


def test_a_package_reached_through_a_parent_folder_path_is_watched(tmp_path):
    """A script that puts ``os.path.join(os.path.dirname(__file__), os.pardir)`` on ``sys.path``
    imports its package through a path with ``..`` in it: the package's lines are still watched
    (the worker loads the module from its real path), so its finding is confirmed, not left
    unexercised."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "steps.py").write_text(
        "import jax\n\n\n@jax.jit\ndef step(x):\n    print(x)\n    return x * 2.0\n")
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "run.py").write_text(
        "import os\nimport sys\n\nsys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "
        "os.pardir))\n\nimport jax.numpy as jnp  # noqa: E402\n\nfrom pkg.steps import step  # noqa: E402\n\n\n"
        "def case_step():\n    for _ in range(3):\n        step(jnp.ones(2))\n")
    result = confirm("--format", "json", *ON_PLATFORM, tmp_path / "examples" / "run.py", package / "steps.py")
    assert result.stderr == "" and result.returncode == 0
    [row] = json.loads(result.stdout)["results"]
    assert (Path(row["path"]).name, row["line"], row["codes"], row["verdict"]) == \
        ("steps.py", 6, ["JNP301"], "confirmed")


def test_text_formatted_while_tracing_for_jax_debug_print_is_a_trace_only_print(tmp_path):
    """jax.debug.print(f"{x}") gets text made from a tracer: the print event, not only the line's
    trace count. jax.debug.print given the tracer itself formats values: no event."""
    (tmp_path / "debug_prints.py").write_text(
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef step(x):\n    jax.debug.print(f\"x = {x}\")\n"
        "    jax.debug.print(\"x = {}\", x)\n    return x\n\n\n"
        "def case_step():\n    for _ in range(3):\n        step(jnp.ones(2))\n")
    result = confirm("--format", "json", *ON_PLATFORM, tmp_path / "debug_prints.py")
    assert result.stderr == "" and result.returncode == 0
    report = json.loads(result.stdout)
    [row] = report["results"]
    assert (row["line"], row["codes"], row["verdict"]) == (7, ["JNP301"], "confirmed")
    assert row["evidence"] == "print() ran 1x under jit, 3x without it"
    assert [event["line"] for event in case_of(report, "debug_prints.py", "case_step")["events"]] == [7]


def test_command_line_side_does_not_import_jax():
    code = "import sys, flake8_jaxnp.confirm; assert not any(m.split('.')[0] in ('jax', 'numpy') for m in sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_a_file_whose_framework_is_not_installed_is_not_run_and_says_why(tmp_path):
    """Framework fixtures (fixtures/frameworks/) run where the frameworks extra is installed; elsewhere
    their findings stay not exercised, with a note naming the package, and the other files still run.
    A missing module of an installed package is still an import failure."""
    cases = "\n\ndef case_step():\n    for _ in range(3):\n        step(jnp.ones(2))\n"
    jitted = "import jax\nimport jax.numpy as jnp\n{}\n\n@jax.jit\ndef step(x):\n    print(x)\n    return x\n"
    (tmp_path / "needs_framework.py").write_text(jitted.format("import jaxnp_absent_framework.nn as nn") + cases)
    (tmp_path / "runs.py").write_text(jitted.format("") + cases)
    result = confirm("--format", "json", *ON_PLATFORM, tmp_path / "needs_framework.py", tmp_path / "runs.py")
    assert result.stderr == "" and result.returncode == 0
    report = json.loads(result.stdout)
    verdicts = {(Path(row["path"]).name, row["verdict"]) for row in report["results"]}
    assert verdicts == {("needs_framework.py", "not exercised"), ("runs.py", "confirmed")}
    assert [note for note in report["notes"] if "needs_framework.py" in note] == [
        f"{tmp_path / 'needs_framework.py'}: not run: it imports jaxnp_absent_framework, which is not "
        "installed here (its findings stay not exercised)"]

    alone = confirm(tmp_path / "needs_framework.py")
    assert alone.returncode == 2 and alone.stdout == ""
    assert alone.stderr.splitlines() == [f"flake8-jaxnp-confirm: {report['notes'][0]}"]

    (tmp_path / "missing_submodule.py").write_text("import json.no_such_part\n" + cases)
    broken = confirm(tmp_path / "missing_submodule.py")
    assert broken.returncode == 2 and "import failed: ModuleNotFoundError" in broken.stderr


def test_a_transfer_in_a_loop_of_a_handful_of_steps_is_not_missed(tmp_path):
    """The linter calls `for _ in range(3)` a demo, not a hot loop (checks.transfers.handful_steps):
    its per-iteration copies are no missed pitfall. The same loop inside a hot loop still is one."""
    result, rows = _confirmed_rows(
        tmp_path / "demo.py",
        "import jax.numpy as jnp\n\nSTEPS = 20\n\n\n"
        "def case_demo():\n    x = jnp.ones(3)\n    for i in range(3):\n        print(float(x.sum()))\n\n\n"
        "def case_nested():\n    x = jnp.ones(3)\n    for epoch in range(STEPS):\n        for i in range(3):\n"
        "            print(float((x * i).sum()))\n")
    assert rows == [(16, ["JNP102"], "confirmed")]
    assert result.returncode == 0, result.stderr


def test_a_nan_gradient_under_vmap_or_jacrev_is_confirmed(tmp_path):
    """Under jax.vmap(jax.grad(f)) the gradient is a tracer when the probe sees it, and jax.jacrev
    differentiates in reverse mode as grad does: both nan gradients confirm the where's finding."""
    _, rows = _confirmed_rows(
        tmp_path / "batched.py",
        "import jax\nimport jax.numpy as jnp\n\n\n"
        "def safe_log(x):\n    return jnp.where(x > 0, jnp.log(x), 0.0)\n\n\n"
        "def safe_root(x):\n    return jnp.where(x > 0, jnp.sqrt(x), 0.0)\n\n\n"
        "def case_batched():\n    print(jax.vmap(jax.grad(safe_log))(jnp.array([1.0, 0.0])))\n\n\n"
        "def case_jacobian():\n    print(jax.jacrev(safe_root)(jnp.array([1.0, 0.0])))\n")
    assert rows == [(6, ["JNP604"], "confirmed"), (10, ["JNP604"], "confirmed")]


def test_a_nan_gradient_through_a_boolean_mask_is_confirmed(tmp_path):
    """A boolean mask that drops what sqrt gave at 0 under jax.grad: the probe of a tracer's
    indexing records the mask's place, as it records a where's; the mask applied first stays silent."""
    _, rows = _confirmed_rows(
        tmp_path / "masked.py",
        "import jax\nimport jax.numpy as jnp\n\n\n"
        "def masked_root(x):\n    return jnp.sum((x ** 0.5)[x > 0])\n\n\n"
        "def masked_first(x):\n    return jnp.sum(x[x > 0] ** 0.5)\n\n\n"
        "def case_masked():\n    print(jax.grad(masked_root)(jnp.array([1.0, 0.0])))\n\n\n"
        "def case_masked_first():\n    print(jax.grad(masked_first)(jnp.array([1.0, 0.0])))\n")
    assert rows == [(6, ["JNP604"], "confirmed")]


def test_a_clock_read_in_a_timer_exit_is_confirmed(tmp_path):
    """A context manager whose __exit__ reads the clock ends the with block of its caller: the
    caller's list of results still being computed is the unfinished work."""
    _, rows = _confirmed_rows(
        tmp_path / "timer.py",
        "import time\n\nimport jax\nimport jax.numpy as jnp\n\n\n"
        "class Timer:\n    def __enter__(self):\n        self.start = time.perf_counter()\n        return self\n\n"
        "    def __exit__(self, *exc):\n        self.elapsed = time.perf_counter() - self.start\n\n\n"
        "def case_timed_block():\n    f = jax.jit(lambda a: a @ a)\n    f(jnp.ones((500, 500))).block_until_ready()\n"
        "    with Timer() as timer:\n        rs = [f(jnp.ones((500, 500))) for _ in range(20)]\n"
        "    return rs[-1], timer.elapsed\n")
    assert rows == [(19, ["JNP603"], "confirmed")]


def test_a_clock_read_after_steps_on_a_named_tuple_state_is_confirmed(tmp_path):
    """The frame's train state is a NamedTuple of arrays (a tuple, not of type tuple): its leaves
    still being computed when the clock is read are the unfinished work."""
    _, rows = _confirmed_rows(
        tmp_path / "state.py",
        "import time\nfrom typing import NamedTuple\n\nimport jax\nimport jax.numpy as jnp\n\n\n"
        "class State(NamedTuple):\n    w: jax.Array\n\n\n"
        "@jax.jit\ndef step(state):\n    return State(state.w @ state.w / 500.0)\n\n\n"
        "def case_timed_steps():\n    state = step(State(jnp.ones((500, 500))))\n    jax.block_until_ready(state)\n"
        "    start = time.perf_counter()\n    for _ in range(20):\n        state = step(state)\n"
        "    elapsed = time.perf_counter() - start\n    return state, elapsed\n")
    assert rows == [(23, ["JNP603"], "confirmed")]


def test_a_method_named_like_a_mutation_on_an_immutable_global_is_no_missed_pitfall(tmp_path):
    """`OPTIM.update(...)` of an optax-style NamedTuple of functions mutates nothing; a global
    dict's `update` under jit runs only while tracing and is still the linter's JNP303."""
    result, rows = _confirmed_rows(
        tmp_path / "optim.py",
        "from typing import Callable, NamedTuple\n\nimport jax\nimport jax.numpy as jnp\n\n\n"
        "class Transform(NamedTuple):\n    update: Callable\n\n\n"
        "OPTIM = Transform(lambda g: -0.1 * g)\nSEEN = {}\n\n\n"
        "@jax.jit\ndef step(w):\n    return w + OPTIM.update(w)\n\n\n"
        "@jax.jit\ndef noted(w):\n    SEEN.update(w=w.shape)\n    return w\n\n\n"
        "def case_steps():\n    w = jnp.ones(3)\n    for _ in range(4):\n        w = noted(step(w))\n    return w\n")
    assert rows == [(22, ["JNP303"], "confirmed")]
    assert result.returncode == 0, result.stderr


def _confirmed_rows(path, text):
    """(the run, its (line, codes, verdict) rows) for a file of ``text`` run at ``path``."""
    path.write_text(text)
    result = confirm("--format", "json", *ON_PLATFORM, path)
    return result, [(row["line"], row["codes"], row["verdict"]) for row in json.loads(result.stdout)["results"]]
