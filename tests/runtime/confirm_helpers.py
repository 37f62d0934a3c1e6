"""Running flake8-jaxnp-confirm as a user would, and reading its JSON report."""
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

INPUTS = Path(__file__).resolve().parent / "confirm_inputs"
PLATFORM = os.environ.get("JAXNP_CONFIRM_PLATFORM", "cpu")
ON_PLATFORM = ["--platform", PLATFORM] + (["--require-accelerator"] if PLATFORM in ("gpu", "tpu") else [])
COMMAND = [sys.executable, "-m", "flake8_jaxnp.confirm"]


def confirm(*args, cwd=ROOT, env=None):
    """Run the command line in a fresh interpreter."""
    return subprocess.run([*COMMAND, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=600,
                          env=env)


def rows_of(report, name):
    return [row for row in report["results"] if Path(row["path"]).name == name]


def case_of(report, name, case):
    found = [c for c in report["cases"] if Path(c["path"]).name == name and c["case"] == case]
    assert len(found) == 1, (name, case)
    return found[0]


def alive(pid):
    """Whether ``pid`` still runs (a zombie waiting for init to reap it does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False
