"""One source of options: the runtime mode reads flake8's configuration, validates it as one, and
reports its own failures (bad values, a linter error, a case that exits) as such."""
import json
import shutil
import re
import subprocess
import sys
import textwrap
import types

import pytest

from confirm_helpers import COMMAND, ON_PLATFORM, confirm
from conftest import FIXTURES
from flake8_jaxnp.confirm.observe import Evidence, _transfers

WIDE = "import jax.numpy as jnp\n\n\ndef case_wide():\n    return jnp.zeros(3, dtype=jnp.float64)\n"
CONFIGURATIONS = {
    ".flake8": "[flake8]\njaxnp-x64 = true\n",
    "setup.cfg": "[flake8]\njaxnp-x64 = true\n",
    "tox.ini": "[flake8]\njaxnp-x64 = true\n",
    "pyproject.toml": "[tool.flake8]\njaxnp-x64 = true\n",
}


def flake8(folder, *args):
    return subprocess.run([sys.executable, "-m", "flake8", "--select", "JNP", *args], capture_output=True,
                          text=True, cwd=folder, timeout=120)


@pytest.mark.parametrize("name", sorted(CONFIGURATIONS))
def test_runtime_mode_reads_the_configuration_flake8_reads(tmp_path, name):
    if name == "pyproject.toml":
        pytest.importorskip("flake8p")  # flake8 reads pyproject.toml only through flake8-pyproject
    (tmp_path / "wide.py").write_text(WIDE)
    project = tmp_path / "project"
    project.mkdir()
    (project / name).write_text(CONFIGURATIONS[name])
    (project / "wide.py").write_text(WIDE)
    # flake8 finds its own files from the working directory upwards; flake8-pyproject reads only the one there
    inside, outside = (project if name == "pyproject.toml" else project / "sub"), tmp_path
    inside.mkdir(exist_ok=True)
    assert flake8(outside, "wide.py").stdout.count("JNP402") == 1
    assert flake8(inside, "../wide.py").stdout == ""
    default = json.loads(confirm("--format", "json", *ON_PLATFORM, "wide.py", cwd=outside).stdout)
    configured = confirm("--format", "json", *ON_PLATFORM, "../wide.py", cwd=inside)
    assert [row["codes"] for row in default["results"]] == [["JNP402"]]
    assert (configured.returncode, json.loads(configured.stdout)["results"]) == (0, [])


def test_pytest_plugin_reads_the_configuration_flake8_reads(tmp_path):
    (tmp_path / "conftest.py").write_text("import jax\n\njax.config.update('jax_enable_x64', True)\n")
    (tmp_path / "test_wide.py").write_text(WIDE + "\n\ndef test_wide():\n    assert case_wide().dtype == jnp.float64\n")
    runs = {}
    for configured in (False, True):
        if configured:
            (tmp_path / "tox.ini").write_text(CONFIGURATIONS["tox.ini"])
        report = tmp_path / f"report-{configured}.json"
        result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--jaxnp-confirm",
                                 f"--jaxnp-report={report}", "."], capture_output=True, text=True, cwd=tmp_path,
                                timeout=300)
        assert result.returncode == 0, result.stdout[-2000:]
        runs[configured] = [(row["codes"], row["verdict"]) for row in json.loads(report.read_text())["results"]]
    # The project enables x64 in its conftest: only its configuration tells the linter so.
    assert runs == {False: [(["JNP402"], "not reproduced")], True: []}


@pytest.mark.parametrize("where", ["command line", "configuration"])
@pytest.mark.parametrize("value, problem", [("!!", "is not a dotted path"),
                                            ("eqx.filter_jit", "starts with an import alias")])
def test_bad_transform_name_is_a_usage_error_before_anything_runs(tmp_path, where, value, problem):
    (tmp_path / "wide.py").write_text(WIDE)
    if where == "configuration":
        (tmp_path / ".flake8").write_text(f"[flake8]\njaxnp-extra-transforms = {value}\n")
        args = ["wide.py"]
    else:
        args = [f"--jaxnp-extra-transforms={value}", "wide.py"]
    result = confirm(*args, cwd=tmp_path)
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("flake8-jaxnp-confirm: --jaxnp-extra-transforms: ") and problem in line
    assert result.stdout == ""
    plugin = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--jaxnp-confirm", *args],
                            capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert plugin.returncode == pytest.ExitCode.USAGE_ERROR
    assert problem in plugin.stderr and "Traceback" not in plugin.stderr + plugin.stdout


def test_unreadable_configuration_is_one_line(tmp_path):
    (tmp_path / "wide.py").write_text(WIDE)
    (tmp_path / "tox.ini").write_text("[flake8]\nextend-ignore = 123\n")
    result = confirm("wide.py", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("flake8-jaxnp-confirm: the flake8 configuration could not be read: ")


MISSED_IF_FINDINGS_LOST = textwrap.dedent("""\
    import jax.numpy as jnp


    def case_loop():
        total = 0.0
        for value in jnp.arange(3.0):
            total += float(value)  # expect: JNP102
        return total
    """)
# The linter as the '!!' crash left it: the transfers check fails (JNP900) and its JNP102 is lost.
CRASHING_LINTER = textwrap.dedent("""\
    import sys
    from flake8_jaxnp import linter
    from flake8_jaxnp.confirm import cli


    def broken(model):
        raise IndexError("list index out of range")


    linter.CHECKS = tuple(broken if check.__module__.endswith(".transfers") else check for check in linter.CHECKS)
    sys.exit(cli.main(sys.argv[1:]))
    """)


def test_linter_error_is_an_error_and_turns_no_pitfall_into_missed(tmp_path):
    (tmp_path / "loop.py").write_text(MISSED_IF_FINDINGS_LOST)
    honest = json.loads(confirm("--format", "json", *ON_PLATFORM, "loop.py", cwd=tmp_path).stdout)
    assert [(row["codes"], row["verdict"]) for row in honest["results"]] == [(["JNP102"], "confirmed")]
    result = subprocess.run([sys.executable, "-c", CRASHING_LINTER, "--format", "json", "--jaxnp-cache-dir=",
                             *ON_PLATFORM, "loop.py"],
                            capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("flake8-jaxnp-confirm: loop.py: linter error") and "IndexError" in line
    report = json.loads(result.stdout)
    assert report["results"] == [] and not any("JNP900" in note for note in report["notes"])


def test_case_that_exits_fails_the_run(tmp_path):
    (tmp_path / "exits.py").write_text("import sys\n\n\ndef case_exit():\n    sys.exit(0)\n")
    result = confirm("--format", "json", *ON_PLATFORM, "exits.py", cwd=tmp_path)
    assert result.returncode == 1
    [case] = json.loads(result.stdout)["cases"]
    assert (case["status"], case["detail"]) == ("exited", "SystemExit: 0")


def test_memory_limit_message_rounds_the_machine_size(tmp_path):
    result = subprocess.run([*COMMAND, "--memory-limit=1e30", "any.py"], capture_output=True, text=True,
                            cwd=tmp_path, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    [size] = re.findall(r"this machine's (\S+)", result.stderr)
    assert re.fullmatch(r"\d+(\.\d)?", size), result.stderr


@pytest.mark.parametrize("iterations, wording", [(1, "in the loop's only iteration"),
                                                 (2, "on each of 2 loop iterations")])
def test_transfer_on_every_iteration_is_worded_for_the_count(tmp_path, iterations, wording):
    source = tmp_path / "loop.py"
    source.write_text("for step in steps:\n    total = float(x) + float(x)\n")
    place = (str(source), 2)
    rec = types.SimpleNamespace(guarded=False, d2h={place: {"to-scalar": 2 * iterations}},
                                d2h_what={(place, "to-scalar"): "float()"}, d2h_via={}, uploads={},
                                lines={place: iterations})
    found = Evidence()
    _transfers(found, rec)
    [event] = found.events
    assert event["detail"] == f"float() copied device-to-host {2 * iterations}x, {wording}"


@pytest.mark.parametrize("blocks, is_event", [(4, True), (2, False)])
def test_transfer_in_a_loop_of_an_every_n_block_is_an_event_only_when_no_step_skips_it(tmp_path, blocks, is_event):
    source = tmp_path / "loop.py"
    source.write_text("for step in steps:\n    if step % 2 == 0:\n        for split in splits:\n"
                      "            total = float(x)\n")
    place, steps, splits = (str(source), 4), 4, 3
    # the inner for line runs once more than its body on each entry (the last next())
    lines = {(str(source), 2): steps, (str(source), 3): blocks * (splits + 1), place: blocks * splits}
    rec = types.SimpleNamespace(guarded=False, d2h={place: {"to-scalar": blocks * splits}},
                                d2h_what={(place, "to-scalar"): "float()"}, d2h_via={}, uploads={}, lines=lines)
    found = Evidence()
    _transfers(found, rec)
    assert (len(found.events), len(found.observations)) == ((1, 0) if is_event else (0, 1))


SCRIPT = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp


    @jax.jit
    def step(params):
        return params * 0.5, jnp.sum(params)


    def main():
        params = jnp.ones(3)
        for _ in range(10):
            params, loss = step(params)
            print(float(loss))  # expect: JNP102


    if __name__ == "__main__":
        main()
    """)


def test_a_script_without_cases_runs_its_entry_point_when_named(tmp_path):
    """A new user's script has main(), not case_*: the error says how to run it, and --case main does."""
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    refused = confirm(*ON_PLATFORM, script)
    assert refused.returncode == 2 and "--case main" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    ran = confirm("--format", "json", "--case", "main", *ON_PLATFORM, script)
    assert ran.returncode == 0, ran.stderr
    [row] = json.loads(ran.stdout)["results"]
    assert (row["line"], row["codes"], row["verdict"], row["case"]) == (14, ["JNP102"], "confirmed", "main")


def test_a_script_with_argparse_runs_as_if_started_with_no_arguments(tmp_path):
    """--case main sees the script's own argv ([path]), not the worker's, so argparse does not exit."""
    script = tmp_path / "train.py"
    script.write_text(SCRIPT.replace("def main():\n", textwrap.dedent("""\
        def main():
            import argparse
            parser = argparse.ArgumentParser()
            parser.add_argument("--steps", type=int, default=10)
            assert parser.parse_args().steps == 10
        """)))
    ran = confirm("--format", "json", "--case", "main", *ON_PLATFORM, script)
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert [case["status"] for case in report["cases"]] == ["ok"]
    assert [row["verdict"] for row in report["results"]] == ["confirmed"]


def test_a_named_case_no_file_defines_is_named_in_the_error(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    result = confirm("--case", "nosuch", *ON_PLATFORM, script)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"flake8-jaxnp-confirm: --case nosuch: there is no module-level function nosuch in {script}"]


def test_a_case_name_that_is_no_identifier_is_a_usage_error(tmp_path):
    result = confirm("--case", "main()", tmp_path)
    assert result.returncode == 2 and "main(): not a function name" in result.stderr


def test_cache_folders_that_cannot_be_written_are_named_in_one_line_each(tmp_path):
    """The run goes on without them, but says so: a file where a folder should be cannot be written."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    result = confirm("--case", "main", f"--cache-dir={blocked}", f"--jaxnp-cache-dir={blocked}", *ON_PLATFORM, script)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"flake8-jaxnp: --jaxnp-cache-dir {blocked}: cannot write there")
    assert lines[1].startswith(f"flake8-jaxnp-confirm: --cache-dir {blocked}: cannot write there")
    assert lines[1].endswith("JAX's compilation cache is off in this run")


def test_rules_off_by_default_are_judged_only_where_selected(tmp_path):
    """JNP403 reports nothing unless selected: unselected, its findings get no row and its pitfalls are
    not missed; selected on the command line or in the flake8 configuration, it is judged."""
    shutil.copy(FIXTURES / "jnp403.py", tmp_path / "jnp403.py")

    def rows(*args):
        result = confirm("--format", "json", *args, *ON_PLATFORM, "jnp403.py", cwd=tmp_path)
        assert result.returncode in (0, 1), result.stderr
        return {(row["codes"][0], row["verdict"]) for row in json.loads(result.stdout)["results"]}

    assert rows() == set()
    assert rows("--extend-select", "JNP403") == {("JNP403", "confirmed")}
    (tmp_path / "setup.cfg").write_text("[flake8]\nextend-select = JNP403\n")
    assert rows() == {("JNP403", "confirmed")}


def test_a_future_warning_about_something_else_is_no_deprecated_name(tmp_path):
    """JAX's FutureWarning for a float scattered into an int array says it will be an error, not that a
    name is deprecated or removed: no missed JNP504."""
    script = tmp_path / "scatter.py"
    script.write_text("import jax.numpy as jnp\n\n\ndef case_float_into_int():\n"
                      "    return jnp.zeros(3, dtype=jnp.int32).at[0].set(1.5)\n")
    result = confirm("--format", "json", *ON_PLATFORM, script)
    assert result.returncode == 0, result.stdout
    assert json.loads(result.stdout)["results"] == []


def test_host_conversions_in_an_assertion_helper_are_not_missed(tmp_path):
    """A package's own ``assert_trees_all_close`` brings every leaf to the host in its loop: that is
    what checking values takes, not a pitfall."""
    script = tmp_path / "checks.py"
    script.write_text(textwrap.dedent("""\
        import jax
        import jax.numpy as jnp
        import numpy as np


        def assert_trees_all_close(first, second):
            for a, b in zip(jax.tree.leaves(first), jax.tree.leaves(second)):
                a, b = np.asarray(a), np.asarray(b)
                if not np.allclose(a, b):
                    raise AssertionError(f"{a} != {b}")


        def case_compare_trees():
            tree = {"w": jnp.ones(2), "b": jnp.zeros(2), "s": jnp.ones(())}
            assert_trees_all_close(tree, jax.tree.map(lambda leaf: leaf + 0, tree))
        """))
    result = confirm("--format", "json", *ON_PLATFORM, script)
    assert result.returncode == 0, result.stdout
    assert json.loads(result.stdout)["results"] == []


PYTREE_SELF = """\
import jax
import jax.numpy as jnp


class Scaler:
    def update(self, x):
        return x * 2


@jax.tree_util.register_pytree_node_class
class Model:
    def __init__(self, w, scaler):
        self.w, self.scaler = w, scaler

    def tree_flatten(self):
        return (self.w,), self.scaler

    @classmethod
    def tree_unflatten(cls, scaler, leaves):
        return cls(leaves[0], scaler)

    def apply(self, x):
        return self.scaler.update(x) * self.w


@jax.jit
def step(model, x):
    return model.apply(x)


def case_step():
    model = Model(jnp.ones(2), Scaler())
    for _ in range(3):
        step(model, jnp.ones(2))
"""


def test_a_pytree_self_whose_leaves_a_transform_traced_is_no_leak(tmp_path):
    """Inside jit a pytree's leaves are tracers by design (an eqx.Module through filter_jit): a
    method calling ``self.scaler.update(x)`` stores no tracer in self, so no JNP303 is missed."""
    script = tmp_path / "model.py"
    script.write_text(PYTREE_SELF)
    result = confirm("--format", "json", *ON_PLATFORM, script)
    assert result.returncode == 0, result.stdout
    assert json.loads(result.stdout)["results"] == []
