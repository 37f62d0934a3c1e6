"""Backends: --platform, --require-accelerator, one worker at a time on a TPU, the report header.

CI has no accelerator, so a TPU is faked where the runner learns the backend
(``runner.Pool.backend``); the workers themselves run on the CPU.
"""
import json
import os
import subprocess
import sys
from importlib import metadata

import pytest

from confirm_helpers import COMMAND, INPUTS, confirm
from conftest import ROOT
from flake8_jaxnp.confirm import report, runner
from flake8_jaxnp.confirm.runner import CaseResult, FileResult

FILES = [INPUTS / "confirmed_and_unexercised.py", INPUTS / "raises_later.py"]

# The command line in a fresh interpreter whose runner is told the workers' backend is a TPU, and
# which says on its last stderr line how many workers it started.
FAKE_TPU = """
import sys
from flake8_jaxnp.confirm import cli, runner

started = []


class Counted(runner.Worker):
    def __init__(self, settings):
        super().__init__(settings)
        started.append(self)


runner.Worker = Counted
runner.Pool.backend = lambda pool: ("tpu", "TPU v5 lite")
code = cli.main(sys.argv[1:])
print(f"workers started: {len(started)}", file=sys.stderr)
sys.exit(code)
"""


def on_fake_tpu(*args):
    return subprocess.run([sys.executable, "-c", FAKE_TPU, "--platform", "cpu", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)


def test_a_tpu_lowers_jobs_to_one_and_says_so():
    result = on_fake_tpu("--jobs", "2", "--require-accelerator", "--format", "json", *FILES)
    assert result.stderr.splitlines() == [
        "flake8-jaxnp-confirm: --jobs 2 lowered to 1: one process at a time can hold a TPU",
        "workers started: 1"]
    assert result.returncode == 0
    assert json.loads(result.stdout)["summary"] == {"confirmed": 6, "not reproduced": 0, "not exercised": 1,
                                                    "missed": 0}


@pytest.mark.parametrize("jobs", [(), ("--jobs", "1")], ids=["default", "one"])
def test_a_tpu_runs_one_worker_without_a_word_when_no_more_were_asked_for(jobs):
    result = on_fake_tpu(*jobs, "--format", "json", *FILES)
    assert result.stderr.splitlines() == ["workers started: 1"]
    assert result.returncode == 0


def test_other_backends_keep_their_jobs():
    """The control of the TPU tests: on the CPU two files take two workers."""
    result = subprocess.run([sys.executable, "-c", FAKE_TPU.replace("runner.Pool.backend =", "_ ="),
                             "--platform", "cpu", "--jobs", "2", "--format", "json", *map(str, FILES)],
                            capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.stderr.splitlines() == ["workers started: 2"]


@pytest.mark.parametrize("flag, accepted", [("--require-accelerator", "gpu or tpu"), ("--require-gpu", "gpu")])
def test_required_accelerator_missing_is_a_one_line_error(flag, accepted):
    result = confirm(flag, "--platform", "cpu", *FILES)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"flake8-jaxnp-confirm: {flag}: JAX's backend is cpu, not {accepted}"]
    assert result.stdout == ""  # nothing ran: no report, no summary line


def test_a_backend_that_cannot_start_is_named_when_required():
    result = confirm("--require-accelerator", FILES[0], env={**os.environ, "JAX_PLATFORMS": "no-such-backend"})
    assert result.returncode == 2
    [error] = result.stderr.splitlines()
    assert error.startswith("flake8-jaxnp-confirm: --require-accelerator: JAX's backend is unavailable (")
    assert error.endswith(", not gpu or tpu") and result.stdout == ""


def test_platforms_are_cpu_gpu_tpu_and_auto_the_default():
    result = subprocess.run([*COMMAND, "--platform", "metal", str(FILES[0])], capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert result.returncode == 2
    [error] = result.stderr.splitlines()  # (newer Pythons quote the choices differently)
    assert "invalid choice" in error and all(name in error for name in ("metal", "cpu", "gpu", "tpu", "auto"))
    from flake8_jaxnp.confirm.cli import parser

    assert parser().parse_args(["x.py"]).platform == "auto"


def test_report_header_names_the_backend_and_its_device_kind():
    result = FileResult("step.py", [], {}, cases=[CaseResult("case_step", "ok")], backend=("tpu", "TPU v5 lite"))
    header = report.table([], [result]).splitlines()[0]
    assert header.startswith(f"backend: tpu (device: TPU v5 lite), jax {metadata.version('jax')}")
    assert json.loads(report.as_json([], [result], [], 0))["backends"] == [{"backend": "tpu",
                                                                           "device": "TPU v5 lite"}]


# What a TPU showed (docs/runtime.md, "What the TPU showed"), checked here on the CPU.

def test_the_guard_sees_explicit_transfers_too(monkeypatch):
    """jax.device_put/device_get are explicit transfers, which the guard's "disallow" lets through;
    on an accelerator the probes must see them (the CPU's guard fires for an explicit upload)."""
    import jax
    import numpy as np

    from flake8_jaxnp.confirm import array_probes

    monkeypatch.setattr(array_probes, "BACKEND", "tpu")
    result, moved = array_probes._call_guarded("h2d", lambda: jax.device_put(np.ones(3, np.float32)))
    assert moved is True and result.shape == (3,)


def test_an_array_holding_its_host_copy_is_not_transferred_again():
    """After a first conversion an accelerator keeps the host copy in _npy_value: converting the
    same array again copies nothing."""
    import numpy as np

    from flake8_jaxnp.confirm.array_probes import _on_host_already

    class Converted:
        _npy_value = np.ones(3)

    class OnDevice:
        _npy_value = None

    assert _on_host_already([Converted(), Converted()])
    assert not _on_host_already([Converted(), OnDevice()])
    assert not _on_host_already([])


@pytest.mark.parametrize("message", [
    "Array has been deleted with shape=float32[3].",
    "INVALID_ARGUMENT: Invalid buffer passed to Execute() as argument 0 to replica 0: "
    "INVALID_ARGUMENT: Buffer has been deleted or donated.",  # a jitted call on the CPU
    "INVALID_ARGUMENT: Invalid buffer passed to Execute() as argument 0 to replica 0: "
    "INVALID_ARGUMENT: Donation requested for invalid buffer",  # the same call on a TPU
    "INVALID_ARGUMENT: Attempt to use a buffer that was previously donated in the same call to Execute() "
    "(flattened argument 1, replica 0, partition 0, first use: 0).",  # f(x, x) donating the first x (CPU)
])
def test_a_donated_buffer_used_again_is_evidence_on_each_backend(message):
    from flake8_jaxnp import evidence as ev
    from flake8_jaxnp.confirm.observe import exception_kinds

    assert exception_kinds(ValueError(message), None) == {ev.DELETED_BUFFER}


def test_a_dead_worker_is_explained_by_the_runtime_check_that_failed_not_by_the_module_list():
    """A TPU runtime's abort ends its stderr with Python's list of extension modules; the failed check
    above it says why."""
    stderr = ("UserWarning: Transparent hugepages are not enabled.\n"
              "F1205 20:03:08.576208 5698 host_command_heap_buffer_util.cc:30] Check failed: size <= inputs.size()\n"
              "*** Check failure stack trace: ***\n    @ 0x7edf1669bc54 absl::log_internal::LogMessage::SendToLog()\n"
              "Fatal Python error: Aborted\n\nExtension modules: jaxlib.cpu_feature_guard, numpy._core\n")
    assert "Check failed: size <= inputs.size()" in runner._telling_line(stderr)
    assert runner._telling_line("Traceback (most recent call last):\nValueError: bad\n") == "ValueError: bad"


# One file's cases run by a worker's own code in a fresh interpreter, with the probes told the backend is
# ``sys.argv[2]``: JAX itself runs on the CPU. Prints each case's status, why it counted no line, and how
# many lines it counted.
FAKE_BACKEND_WORKER = """
import json, sys
from flake8_jaxnp.confirm import array_probes, process_probes, worker

process_probes.install_process_probes()
array_probes.BACKEND = sys.argv[2]
messages, path = [], sys.argv[1]
worker.run_file({"path": path, "cases": None, "watched": [path], "rerun": [path]}, messages.append,
                worker.ProcessState())
print(json.dumps({m["case"]: [m["status"], m["uncounted"], len(m["lines"])] for m in messages if m["type"] == "case"}))
"""


def test_lines_are_counted_through_host_callbacks_only_on_the_cpu():
    from flake8_jaxnp.confirm.process_probes import counts_lines_through_host_callbacks

    assert [counts_lines_through_host_callbacks(backend) for backend in ("cpu", "gpu", "tpu")] == [True, False, False]


@pytest.mark.parametrize("backend", ["cpu", "tpu"])
def test_a_case_that_calls_jax_debug_print_runs_without_line_counting_where_that_is_unsafe(backend):
    """On a TPU the case is run again without line counting (no settrace while its program runs) and
    says why; its other case, and every case on the CPU, counts lines as before."""
    path = os.path.realpath(INPUTS / "host_callbacks.py")
    result = subprocess.run([sys.executable, "-c", FAKE_BACKEND_WORKER, path, backend], capture_output=True,
                            text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    cases = json.loads(result.stdout.splitlines()[-1])
    assert cases["case_print"][:2] == ["ok", ""] and cases["case_print"][2] > 0
    status, uncounted, lines = cases["case_debug_print"]
    assert status == "ok"
    if backend == "cpu":
        assert uncounted == "" and lines > 0
    else:
        assert uncounted == ("it calls jax.debug.print, and on tpu host callbacks under line counting aborted "
                             "the runtime (docs/known-gaps.md)") and lines == 0


def test_a_finding_no_counted_case_reached_is_not_observable_when_a_case_counted_no_line():
    """No case is known to have reached it, but the one that counted no line may have: neither
    'not exercised' nor a failure; the row names the case and why, and the summary counts it."""
    from flake8_jaxnp.confirm.verdicts import exit_code, judge

    path = str(INPUTS / "host_callbacks.py")
    result = runner.prepare(path)
    result.cases = [CaseResult("case_debug_print", "ok", uncounted="it calls jax.debug.print")]
    [row] = judge([result])
    assert (row.line, row.codes) == (14, ["JNP301"])
    assert (row.verdict, row.case) == ("not observable", f"{path}::case_debug_print")
    assert row.evidence == (f"not observable here: line counting was off in {path}::case_debug_print "
                            "(it calls jax.debug.print)")
    assert report.summary_line([row]) == "0 confirmed, 0 not reproduced, 0 not exercised, 0 missed, 1 not observable"
    assert exit_code([row], [result], []) == 0
    result.cases[0].uncounted = ""
    assert judge([result])[0].verdict == "not exercised"


def test_a_case_that_counted_no_line_explains_only_findings_of_its_own_folder():
    """A case runs its own file and the modules beside it: a file of another folder with no case of its
    own (an example project beside the rule fixtures) stays not exercised, not 'not observable'
    through a case that could not have reached it (the TPU run named fixtures/jnp301.py's case for
    fixtures/pytest_project/trainer/*.py)."""
    from flake8_jaxnp.confirm.verdicts import judge

    uncounted = runner.prepare(str(INPUTS / "host_callbacks.py"))
    uncounted.cases = [CaseResult("case_debug_print", "ok", uncounted="it calls jax.debug.print")]
    elsewhere = runner.prepare(str(INPUTS / "attacks" / "cross_model.py"))
    assert elsewhere.findings, "the other folder's file needs a finding for this test"
    elsewhere.cases = []
    rows = judge([uncounted, elsewhere])
    assert {row.verdict for row in rows if row.path == elsewhere.path} == {"not exercised"}
    assert {row.verdict for row in rows if row.path == uncounted.path} == {"not observable"}


def test_the_pytest_mode_keeps_the_cpu_beside_the_platforms_it_was_given():
    """JAX_PLATFORMS=tpu would leave jax.debug.print no CPU to place its inputs on (an error at exit
    ends the session): the CPU is added after the given platforms, with a line saying so, before
    JAX starts any backend; a setting that names the CPU is left alone."""
    script = ("import jax\nfrom flake8_jaxnp.confirm.pytest_plugin import _keep_the_cpu\n"
              "for platforms in ('tpu', 'cpu', 'tpu,cpu'):\n    jax.config.update('jax_platforms', platforms)\n"
              "    print(_keep_the_cpu(jax), jax.config.jax_platforms)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.stdout.splitlines() == [
        "['flake8-jaxnp: jax_platforms=tpu leaves out cpu, which jax.debug.print needs: ran with tpu,cpu'] tpu,cpu",
        "[] cpu", "[] tpu,cpu"]
