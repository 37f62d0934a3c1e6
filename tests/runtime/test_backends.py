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
from flake8_jaxnp.confirm import report
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
    assert json.loads(result.stdout)["summary"] == {"confirmed": 5, "not reproduced": 0, "not exercised": 1,
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
