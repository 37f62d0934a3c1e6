"""The pytest plugin: ``pytest --jaxnp-confirm`` over a project's own test suite.

Each run is a fresh pytest in a subprocess, as a user would start it.
"""
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from conftest import FIXTURES, ROOT
from expectations import expected_findings

PROJECT = FIXTURES / "pytest_project"
SRC_PROJECT = FIXTURES / "src_project"
SUMMARY_START = "=== flake8-jaxnp runtime confirmation"


def run_pytest(folder, *args):
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *map(str, args), "."],
                          capture_output=True, text=True, cwd=folder, timeout=600)


def confirm_tests(folder, report, *args):
    """``pytest --jaxnp-confirm`` in ``folder`` over exactly ``args``: the run, once it passed, and its JSON report."""
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--jaxnp-confirm",
                             f"--jaxnp-report={report}", *args],
                            capture_output=True, text=True, cwd=folder, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:]
    return result, json.loads(report.read_text())


def expected(folder):
    return {(str(path.relative_to(folder)), line, code)
            for path in sorted(folder.rglob("*.py")) for line, code in expected_findings(path)}


@pytest.fixture(scope="module")
def example_run(tmp_path_factory):
    report = tmp_path_factory.mktemp("report") / "report.json"
    result = run_pytest(PROJECT, "--jaxnp-confirm", f"--jaxnp-report={report}")
    return result, json.loads(report.read_text())


def test_example_project_confirms_every_expected_finding(example_run):
    result, report = example_run
    assert result.returncode == 0, result.stdout[-2000:]
    found = {(row["path"], row["line"], row["codes"][0]) for row in report["results"]}
    assert found == expected(PROJECT)
    assert {row["verdict"] for row in report["results"]} == {"confirmed"}
    assert report["summary"]["missed"] == 0


def test_findings_are_confirmed_from_other_files_tests(example_run):
    _, report = example_run
    for row in report["results"]:
        assert row["case"].split("::")[0].endswith(("test_model.py", "test_train.py")), row


def test_verdict_table_and_summary_line_end_the_session(example_run):
    result, report = example_run
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if SUMMARY_START in line)
    counts = report["summary"]
    summary = (f"{counts['confirmed']} confirmed, {counts['not reproduced']} not reproduced, "
               f"{counts['not exercised']} not exercised, {counts['missed']} missed")
    assert summary in lines[start:]
    assert sum(" confirmed " in line for line in lines[start:]) == len(expected(PROJECT))


def test_suite_runs_unchanged_with_the_plugin_off(example_run):
    plain = run_pytest(PROJECT)
    confirmed, _ = example_run
    assert plain.returncode == 0
    assert SUMMARY_START not in plain.stdout
    assert outcome(plain.stdout) == outcome(confirmed.stdout)
    assert warning_places(confirmed.stdout) == warning_places(plain.stdout) != []


def outcome(output):
    """pytest's last line without its duration (which sets how many '=' pad it)."""
    return output.splitlines()[-1].split(" in ")[0].strip("= ")


def warning_places(output):
    """The file:line of each warning in pytest's warnings summary."""
    summary = output.split(SUMMARY_START)[0]
    return [line.split(": ")[0].strip() for line in summary.splitlines() if "Warning: " in line]


def test_warning_and_caught_exception_confirm_their_findings(example_run):
    _, report = example_run
    by_code = {row["codes"][0]: row for row in report["results"]}
    assert (by_code["JNP402"]["mechanism"], by_code["JNP402"]["path"]) == ("dtype warning", "trainer/model.py")
    assert by_code["JNP201"]["mechanism"] == "exception"  # raised inside pytest.raises, which caught it
    assert report["exit_code"] == example_run[0].returncode == 0


@pytest.mark.parametrize("where, args, shown, package_added", [
    ("", (), "", True), ("", ("tests",), "", True), ("", (str(PROJECT),), "", False),
    ("..", ("pytest_project/tests",), "pytest_project/", True),
], ids=["no path", "the tests only", "absolute path", "from the folder above"])
def test_paths_are_relative_to_where_pytest_started_and_the_package_is_watched(
        tmp_path, where, args, shown, package_added):
    """Given no path, only the tests, or an absolute path, the report holds the same rows as with
    ``.``, relative to the folder pytest was started in; where the given paths leave out the
    package under test (``trainer/``, pytest.ini's folder being the rootdir), it is watched anyway
    and the summary says so."""
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--jaxnp-confirm",
                             f"--jaxnp-report={tmp_path / 'report.json'}", *args],
                            capture_output=True, text=True, cwd=PROJECT / where, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:]
    report = json.loads((tmp_path / "report.json").read_text())
    found = {(row["path"], row["line"], row["codes"][0], row["verdict"]) for row in report["results"]}
    assert found == {(shown + path, line, code, "confirmed") for path, line, code in expected(PROJECT)}
    added = f"flake8-jaxnp: also watched the project's code: {shown}trainer/"
    assert (added in result.stdout.splitlines()) == package_added


def test_project_code_is_the_rootdirs_packages_and_modules_except_tests_and_this_plugin(tmp_path):
    from flake8_jaxnp.confirm.pytest_plugin import project_code

    for folder in ("model", "src/data", "tests", "testing", "notes", "src/.hidden"):
        (tmp_path / folder).mkdir(parents=True)
        if folder != "notes":
            (tmp_path / folder / "__init__.py").write_text("")
    for module in ("conftest.py", "setup.py", "test_it.py", "train.py", "src/layers.py", "notes.txt"):
        (tmp_path / module).write_text("")
    assert project_code(tmp_path) == [str(tmp_path / "model"), str(tmp_path / "train.py"),
                                      str(tmp_path / "src" / "data"), str(tmp_path / "src" / "layers.py")]
    assert project_code(ROOT) == []  # flake8_jaxnp is this plugin's own package


def test_src_layout_project_confirms_every_expected_finding(tmp_path):
    """The second example: the package under src/, a jax.debug.print in a jitted function, only the tests given."""
    result, report = confirm_tests(SRC_PROJECT, tmp_path / "report.json", "tests")
    found = {(row["path"], row["line"], row["codes"][0], row["verdict"]) for row in report["results"]}
    assert found == {(path, line, code, "confirmed") for path, line, code in expected(SRC_PROJECT)}
    assert "flake8-jaxnp: also watched the project's code: src/scorer/" in result.stdout.splitlines()


def test_a_plain_module_beside_the_tests_is_judged(tmp_path):
    """``model.py`` next to ``tests/``, no package: ``pytest --jaxnp-confirm tests`` judges it too."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = .\n")
    (tmp_path / "model.py").write_text(
        "import jax\n\n\n@jax.jit\ndef step(x):\n    print(x)\n    return x + 1\n")
    (tmp_path / "tests" / "test_model.py").write_text(
        "import jax.numpy as jnp\n\nimport model\n\n\ndef test_step():\n"
        "    for _ in range(3):\n        model.step(jnp.ones(2))\n")
    result, report = confirm_tests(tmp_path, tmp_path / "report.json", "tests")
    assert [(row["path"], row["line"], row["verdict"]) for row in report["results"]] == [("model.py", 6, "confirmed")]


def test_a_package_the_tests_import_from_an_installed_copy_is_named(tmp_path):
    """Installed without -e, the tests run the copy in site-packages, never the watched src/: one line says so."""
    project = tmp_path / "project"
    shutil.copytree(SRC_PROJECT, project)
    (project / "pytest.ini").write_text("[pytest]\ntestpaths = tests\n")
    shutil.copytree(SRC_PROJECT / "src", tmp_path / "site")
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--jaxnp-confirm", "tests"],
                            capture_output=True, text=True, cwd=project, timeout=600,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "site"), str(ROOT)])))
    assert result.returncode == 0, result.stdout[-2000:]
    notes = [line for line in result.stdout.splitlines() if "was not judged" in line]
    assert notes == [f"flake8-jaxnp: src{os.sep}scorer was not judged: the tests imported it from "
                     f"{os.path.relpath(tmp_path / 'site' / 'scorer' / '__init__.py', project)} "
                     "(an installed copy? pip install -e . runs the watched one)"]


def test_plugin_off_imports_nothing_heavy(tmp_path):
    (tmp_path / "test_light.py").write_text(
        "import sys\n\ndef test_no_jax():\n    assert not {'jax', 'numpy'} & {m.split('.')[0] for m in sys.modules}\n")
    result = run_pytest(tmp_path, "-p", "jaxnp")
    assert result.returncode == 0, result.stdout[-2000:]


RETRACED = textwrap.dedent("""\
    from functools import partial

    import jax
    import jax.numpy as jnp


    @partial(jax.jit, static_argnums=1)
    def scaled(x, factor):
        print("scaling by", factor)  # a finding, but every call has a new static factor: it retraces
        return x * factor


    def test_scaled():
        results = [scaled(jnp.ones(()), factor) for factor in (1, 2, 3)]
        assert jnp.array_equal(jnp.stack(results), jnp.array([1.0, 2.0, 3.0]))
    """)


@pytest.mark.parametrize("strict, status", [(False, 0), (True, 1)])
def test_strict_fails_the_session_on_a_finding_not_reproduced(tmp_path, strict, status):
    (tmp_path / "test_retrace.py").write_text(RETRACED)
    result = run_pytest(tmp_path, "--jaxnp-confirm", *(["--jaxnp-strict"] if strict else []))
    assert result.returncode == status, result.stdout[-2000:]
    assert "1 passed" in result.stdout
    assert "0 confirmed, 1 not reproduced, 0 not exercised, 0 missed" in result.stdout


def test_failing_tests_still_fail_with_the_plugin(tmp_path):
    (tmp_path / "test_fails.py").write_text(
        "import jax.numpy as jnp\n\ndef test_wrong():\n    assert jnp.ones(()) == 2\n")
    assert run_pytest(tmp_path).returncode == 1
    assert run_pytest(tmp_path, "--jaxnp-confirm").returncode == 1


MISSED = textwrap.dedent("""\
    import jax.numpy as jnp


    def total(values):
        result = 0.0
        for value in values:
            result += float(value)  # a transfer on every iteration; the linter does not know the values
        return result


    def test_total():
        assert total([jnp.ones(()), jnp.ones(()), jnp.ones(())]) == 3.0
    """)


def test_strict_fails_the_session_on_a_missed_pitfall(tmp_path):
    (tmp_path / "test_missed.py").write_text(MISSED)
    plain = run_pytest(tmp_path, "--jaxnp-confirm", f"--jaxnp-report={tmp_path / 'plain.json'}")
    strict = run_pytest(tmp_path, "--jaxnp-confirm", "--jaxnp-strict", f"--jaxnp-report={tmp_path / 'strict.json'}")
    assert "1 passed" in plain.stdout and "1 passed" in strict.stdout
    assert "0 confirmed, 0 not reproduced, 0 not exercised, 1 missed" in plain.stdout, plain.stdout[-2000:]
    assert (plain.returncode, strict.returncode) == (0, 1)
    reported = [json.loads((tmp_path / name).read_text())["exit_code"] for name in ("plain.json", "strict.json")]
    assert reported == [0, 1]  # pytest's exit status, not the command line's rule


# The code under test catches its own pitfall; an installed-like helper outside the watched
# folder promotes and converts on every call; a test loop asserts on device values.
HELPER = textwrap.dedent("""\
    import jax.numpy as jnp


    def scale_all(values):
        weights = jnp.ones(3, dtype=jnp.float16)
        return [float((value * weights).sum()) for value in values]
    """)
CAUGHT_AND_ASSERTED = textwrap.dedent("""\
    import unittest

    import jax
    import jax.numpy as jnp
    import numpy as np

    import helper


    @jax.jit
    def host_norm(x):
        try:
            return np.linalg.norm(x)  # expect: JNP201
        except jax.errors.TracerArrayConversionError:
            return jnp.linalg.norm(x)


    class Checks(unittest.TestCase):
        def test_host_norm_falls_back(self):
            self.assertEqual(float(host_norm(jnp.array([3.0, 4.0]))), 5.0)

        def test_helper_outside_the_watched_files(self):
            counts = [jnp.arange(3, dtype=jnp.int32) + step for step in range(4)]
            for total in helper.scale_all(counts):
                self.assertGreater(total, 0)

        def test_every_step_is_positive(self):
            for step in jnp.arange(1.0, 5.0):
                self.assertTrue(jnp.all(step > 0))
    """)


def test_caught_exceptions_count_and_unwatched_code_and_assertions_are_not_missed(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "helper.py").write_text(HELPER)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_checks.py").write_text(CAUGHT_AND_ASSERTED)
    (tmp_path / "tests" / "conftest.py").write_text(
        "import sys\nfrom pathlib import Path\n\nsys.path.insert(0, str(Path(__file__).parents[1] / 'lib'))\n")
    result, report = confirm_tests(tmp_path, tmp_path / "report.json", "tests")
    rows = [(row["path"], row["line"], row["codes"], row["verdict"]) for row in report["results"]]
    assert rows == [("tests/test_checks.py", 13, ["JNP201"], "confirmed")]
    helper_calls = [event for case in report["cases"] for event in case["events"]
                    if case["case"].endswith("test_helper_outside_the_watched_files")]
    assert helper_calls == []  # the promotion and the transfers happened inside helper.py


def test_unwritable_report_is_one_line_and_changes_no_outcome(tmp_path):
    (tmp_path / "test_light.py").write_text("def test_nothing():\n    pass\n")
    result = run_pytest(tmp_path, "--jaxnp-confirm", f"--jaxnp-report={tmp_path / 'missing' / 'report.json'}")
    assert result.returncode == 0
    [line] = [line for line in result.stdout.splitlines() if "--jaxnp-report" in line]
    assert line.startswith("flake8-jaxnp: --jaxnp-report: cannot write ") and "Traceback" not in result.stdout


def test_project_reached_through_a_symbolic_link_is_watched(tmp_path):
    shutil.copytree(PROJECT, tmp_path / "real")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--jaxnp-confirm", "link"],
                            capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:]
    assert f"{len(expected(PROJECT))} confirmed, 0 not reproduced, 0 not exercised, 0 missed" in result.stdout


def test_fixture_setup_is_watched_and_a_skip_is_no_exception(tmp_path):
    (tmp_path / "conftest.py").write_text(textwrap.dedent("""\
        import jax.numpy as jnp
        import pytest


        @pytest.fixture
        def history():
            values = []
            total, steps = jnp.zeros(()), 3
            for step in range(steps):  # a literal range(3) would be a demo loop, not reported
                total = total + step
                values.append(float(total))  # a transfer on every iteration, in the fixture's setup
            return values
        """))
    (tmp_path / "test_history.py").write_text(textwrap.dedent("""\
        import pytest


        def test_history(history):
            assert history == [0.0, 1.0, 3.0]


        def test_skipped():
            pytest.skip("not today")
        """))
    result = run_pytest(tmp_path, "--jaxnp-confirm", f"--jaxnp-report={tmp_path / 'report.json'}")
    assert result.returncode == 0, result.stdout[-2000:]
    report = json.loads((tmp_path / "report.json").read_text())
    assert [(row["path"], row["line"], row["codes"], row["verdict"], row["case"]) for row in report["results"]] == [
        ("conftest.py", 11, ["JNP102"], "confirmed", "test_history.py::test_history")]
    assert {case["case"]: case["status"] for case in report["cases"]} == {
        "test_history.py::test_history": "ok", "test_history.py::test_skipped": "ok"}


def test_a_linter_cache_folder_that_cannot_be_written_is_named(tmp_path):
    shutil.copytree(PROJECT, tmp_path / "project")
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    result = run_pytest(tmp_path / "project", "--jaxnp-confirm", f"--jaxnp-cache-dir={blocked}")
    assert result.returncode == 0, result.stdout[-2000:]
    lines = result.stdout[result.stdout.index(SUMMARY_START):].splitlines()
    assert sum(line.startswith(f"flake8-jaxnp: --jaxnp-cache-dir {blocked}: cannot write there") for line in lines) == 1


def test_a_test_that_calls_jax_debug_print_stops_line_counting_where_that_is_unsafe(tmp_path):
    """The probes act as on a TPU (JAX runs on the CPU): the test that stages jax.debug.print counts
    no line from there on, and keeps no count; what only it reached is not observable, and why is
    said; the other tests count lines as before."""
    project = tmp_path / "project"
    shutil.copytree(SRC_PROJECT, project)
    (project / "conftest.py").write_text(
        "import pytest\n\n\n@pytest.hookimpl(trylast=True)\ndef pytest_configure(config):\n"
        "    from flake8_jaxnp.confirm import array_probes\n    array_probes.BACKEND = 'tpu'\n")
    _, report = confirm_tests(project, tmp_path / "report.json", "tests")
    verdicts = {(row["path"], row["codes"][0]): (row["verdict"], row["case"]) for row in report["results"]}
    counted = "tests/test_scores.py::test_normalised_rows_sum_to_one"
    assert verdicts[("src/scorer/ops.py", "JNP301")] == ("confirmed", counted)
    counted_none = "tests/test_scores.py::test_mean_scores_of_normalised_batches_is_one"
    assert verdicts[("src/scorer/report.py", "JNP102")] == ("not observable", counted_none)
    [case] = [case for case in report["cases"] if case["case"] == counted_none]
    assert case["uncounted"].startswith("it calls jax.debug.print, and on tpu host callbacks under line counting")


def test_a_trace_count_of_a_function_a_factory_jits_is_taken(tmp_path):
    """A print in a function that a factory jits ran only while JAX traced: the pytest mode counts the
    calls of what user code jits (the jax.jit probe's stand-in), so it ran at trace time only."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = .\n")
    (tmp_path / "model.py").write_text(textwrap.dedent("""\
        import jax


        def make_step(scale):
            def step(x):
                print("tracing", x)
                return x * scale
            return jax.jit(step)
        """))
    (tmp_path / "tests" / "test_model.py").write_text(
        "import jax.numpy as jnp\n\nimport model\n\n\ndef test_step():\n    step = model.make_step(2.0)\n"
        "    for _ in range(3):\n        step(jnp.ones(2))\n")
    result, report = confirm_tests(tmp_path, tmp_path / "report.json", "tests")
    [row] = report["results"]
    assert (row["path"], row["line"], row["codes"], row["verdict"]) == ("model.py", 6, ["JNP301"], "confirmed")
    assert row["evidence"] == "print() ran 1x under jit, 3x without it"
    assert "1 confirmed, 0 not reproduced, 0 not exercised, 0 missed" in result.stdout


def test_a_function_jitted_through_a_wrapper_on_every_iteration_confirms_its_recompile(tmp_path):
    """A def decorated in a loop with a jit wrapper of the project (as Equinox's own suite, where
    eqx.filter_jit is watched code, decorates one): the wrapper calls jax.jit on a new function each
    time, and the compiles count at the decorator line of the test, not only inside the wrapper."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "wrappers").mkdir()
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = .\n")
    (tmp_path / "setup.cfg").write_text("[flake8]\njaxnp-extra-transforms = wrappers.filter_jit\n")
    (tmp_path / "wrappers" / "__init__.py").write_text(textwrap.dedent("""\
        import jax


        def filter_jit(fun):
            def call(*args):
                return fun(*args)
            return jax.jit(call)
        """))
    (tmp_path / "tests" / "test_loop.py").write_text(textwrap.dedent("""\
        import jax.numpy as jnp

        import wrappers


        def test_a_function_defined_and_jitted_on_each_iteration():
            x = jnp.ones(3)
            for scale in (1.0, 2.0, 3.0):
                @wrappers.filter_jit
                def halve(v):
                    return v * 0.5
                x = halve(x)
            assert x.shape == (3,)
        """))
    result, report = confirm_tests(tmp_path, tmp_path / "report.json", "tests")
    [row] = report["results"]
    assert (row["path"], row["line"], row["codes"], row["verdict"]) == (
        "tests/test_loop.py", 9, ["JNP602"], "confirmed")
    assert row["evidence"].endswith("wrapped 3 new functions and JAX compiled 3 of them")


def test_a_pitfall_inside_docstring_examples_a_test_runs_is_not_missed_at_the_test(tmp_path):
    """doctest runs a docstring's examples as code compiled from a string: a promotion there happens
    in code the linter never saw, so it is not missed at the test line that ran the examples."""
    (tmp_path / "test_examples.py").write_text(textwrap.dedent('''\
        import doctest

        import jax.numpy as jnp


        def scale():
            """
            >>> (jnp.ones(3, jnp.float32) * jnp.arange(3, dtype=jnp.int32)).dtype
            dtype('float32')
            """


        def test_docstring_examples():
            doctest.run_docstring_examples(scale, {"jnp": jnp})
        '''))
    result = run_pytest(tmp_path, "--jaxnp-confirm", "--jaxnp-strict")
    assert result.returncode == 0, result.stdout[-2000:]
    assert "0 confirmed, 0 not reproduced, 0 not exercised, 0 missed" in result.stdout


def test_numpy_float64_data_added_to_a_float32_array_is_no_promotion_while_x64_is_off(tmp_path):
    """With x64 off JAX computes NumPy float64 data as float32 (strict promotion does not raise), as
    Optax's apply_updates does with NumPy parameters: no promotion to miss. An int32 array minus a
    float32 one in the same helper is one."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = .\n")
    (tmp_path / "model.py").write_text("def add(p, u):\n    return p + u\n\n\ndef sub(p, u):\n    return p - u\n")
    (tmp_path / "tests" / "test_model.py").write_text(textwrap.dedent("""\
        import jax.numpy as jnp
        import numpy as np

        import model


        def test_numpy_parameters():
            assert model.add(np.array(3.0), jnp.ones((), jnp.float32)).dtype == jnp.float32


        def test_counts():
            assert model.sub(jnp.ones((), jnp.int32), jnp.ones((), jnp.float32)).dtype == jnp.float32
        """))
    result = run_pytest(tmp_path, "--jaxnp-confirm", f"--jaxnp-report={tmp_path / 'report.json'}")
    assert "2 passed" in result.stdout, result.stdout[-2000:]
    rows = json.loads((tmp_path / "report.json").read_text())["results"]
    assert [(row["path"], row["line"], row["codes"], row["verdict"]) for row in rows] == [
        ("model.py", 6, ["JNP401"], "missed")]
