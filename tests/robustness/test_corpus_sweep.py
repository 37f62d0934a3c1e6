"""The whole real-world corpus (tests/benchmarks/corpus.py) lints cleanly and consistently,
and the false alarms found by reading its findings stay fixed.

The sweep: no JNP900 and no traceback; ``-j 2`` equals ``-j 1``; stdin equals
the file. It is slow: it downloads eight wheels on first use and lints ~230,000
lines twice, then each file once more through stdin. It is skipped only when
the download itself fails. The regressions at the end are small and fast.
"""
import ast
import sys

import pytest

from conftest import ROOT
from flake8_runs import serial_and_parallel, stdin_mismatches

sys.path.insert(0, str(ROOT / "tests" / "benchmarks"))
import corpus  # noqa: E402 - the benchmark folder's script
from flake8_jaxnp.linter import lint  # noqa: E402


@pytest.fixture(scope="module")
def corpus_files():
    try:
        root = corpus.fetch()
    except corpus.CorpusUnavailable as exc:
        pytest.skip(f"could not download the corpus wheels: {exc}")
    files = corpus.python_files(root)
    assert len(files) > 500, "the pinned wheels hold hundreds of modules"
    return root, files


@pytest.fixture(scope="module")
def corpus_runs(corpus_files):
    root, files = corpus_files
    serial, parallel = serial_and_parallel(root, files)
    return root, files, serial, parallel


@pytest.mark.slow
def test_corpus_has_no_internal_errors(corpus_runs):
    _, _, serial, _ = corpus_runs  # flake8() already refused tracebacks and crashed plugins
    assert serial, "the corpus produces findings"
    assert [line for line in serial if line.split()[1] == "JNP900"] == []


@pytest.mark.slow
def test_corpus_parallel_equals_serial(corpus_runs):
    _, _, serial, parallel = corpus_runs
    assert parallel == serial


@pytest.mark.slow
def test_corpus_stdin_equals_file(corpus_runs):
    root, files, serial, _ = corpus_runs
    assert stdin_mismatches(root, files, serial) == []


# ---- false alarms found in the corpus ------------------------------------------------
LOOP_HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\n\ndef run(batches, steps):\n"


@pytest.mark.parametrize("loop", ["for flag in (False, True):", "for name in ['a', 'b', 'c']:", "for x in {1, 2}:"])
def test_a_sweep_over_a_few_written_out_values_is_not_a_hot_loop(lint_source, loop):
    """chex's ``for flag in (False, True):`` around assertions."""
    source = LOOP_HEADER + f"    {loop}\n        print(float(jnp.ones(3).sum()))\n"
    assert lint_source(source) == []


@pytest.mark.parametrize("loop", ["for i in range(steps):", "for i in range(6):", "for b in batches:",
                                  "for x in (*batches, 1):", "for x in tuple(range(20)):", "for i in range(0, 9, 0):"])
def test_loops_of_unknown_or_many_iterations_still_report(lint_source, loop):
    source = LOOP_HEADER + f"    {loop}\n        print(float(jnp.ones(3).sum()))\n"
    assert [code for _, code in lint_source(source)] == ["JNP102"]


def test_a_handful_loop_inside_a_hot_loop_still_reports(lint_source):
    source = LOOP_HEADER + ("    for step in range(steps):\n"
                            "        for name in ('loss', 'accuracy'):\n"
                            "            print(float(jnp.ones(3).sum()))\n")
    assert [code for _, code in lint_source(source)] == ["JNP102"]


@pytest.mark.parametrize("check", ["self.assertEqual(int(y), 3)", "np.testing.assert_allclose(np.asarray(y), 1.0)",
                                   "assert_trees_all_close(float(y), 1.0)"])
def test_a_value_checked_by_a_test_assertion_is_read_on_purpose(lint_source, check):
    """haiku's ``self.assertEqual(int(grad_fn(x)), ...)`` inside ``for _ in range(3)``."""
    source = LOOP_HEADER + f"    for i in range(steps):\n        y = jnp.ones(3).sum()\n        {check}\n"
    assert lint_source(source) == []


@pytest.mark.parametrize("check", ["log(int(y), 3)", "assert float(y) > 0"])
def test_other_checks_in_a_loop_still_report(lint_source, check):
    """A bare ``assert`` also runs in production loops, where its sync costs every step."""
    source = LOOP_HEADER + f"    for i in range(steps):\n        y = jnp.ones(3).sum()\n        {check}\n"
    assert [code for _, code in lint_source(source)] == ["JNP102"]


@pytest.mark.parametrize("loop", ["for i in range(3):", "for i in range(1, 6):", "for i in range(0, 10, 2):"])
def test_a_literal_range_of_a_handful_of_steps_is_not_a_hot_loop(lint_source, loop):
    """JAX's documentation: ``for _ in range(3): print(loss)`` demonstrates, it does not train."""
    source = LOOP_HEADER + f"    {loop}\n        print(float(jnp.ones(3).sum()))\n"
    assert lint_source(source) == []


TEST_LOOP = LOOP_HEADER.replace("def run(", "def {name}(") + (
    "    for t in range(steps):\n"
    "        assert jnp.allclose(batches[t], jnp.ones(3).sum())\n")


@pytest.mark.parametrize("name, path, reported", [
    ("test_rollout", "rollout_test.py", False), ("test_rollout", "train.py", False),
    ("check_rollout", "test_rollout.py", False), ("check_rollout", "rollout_test.py", False),
    ("train", "train.py", True), ("train", None, True)])
def test_a_bare_assert_in_a_test_reads_its_value_on_purpose(name, path, reported):
    """12 of 13 corpus false alarms: ``assert jnp.allclose(a[t], b[t])`` in a test's loop."""
    source = TEST_LOOP.format(name=name)
    found = [f.code for f in lint(ast.parse(source), source.splitlines(True), filename=path)]
    assert found == (["JNP102"] if reported else [])


def test_an_inner_loops_header_runs_once_per_outer_iteration(lint_source):
    source = LOOP_HEADER + ("    n = jnp.asarray(steps)\n"
                            "    for epoch in range(steps):\n"
                            "        for i in range(n):\n"
                            "            pass\n"
                            "        for b in np.asarray(jnp.ones(3)):\n"
                            "            pass\n"
                            "    while True:\n"
                            "        for i in range(n):\n"
                            "            pass\n")
    assert lint_source(source) == []


def test_an_inner_loops_test_repeats(lint_source):
    source = LOOP_HEADER + ("    n = jnp.asarray(steps)\n"
                            "    for epoch in range(steps):\n"
                            "        i = 0\n"
                            "        while i < n:\n"
                            "            i += 1\n")
    assert lint_source(source) == [(10, "JNP102")]


@pytest.mark.parametrize("outer, inner, reported", [("range(3)", "range(3)", False), ("range(4)", "range(3)", True),
                                                    ("(1, 2)", "range(5)", False), ("range(steps)", "range(2)", True)])
def test_nested_demo_loops_are_hot_once_their_steps_multiply_past_ten(lint_source, outer, inner, reported):
    source = LOOP_HEADER + (f"    for i in {outer}:\n        for j in {inner}:\n"
                            "            print(float(jnp.ones(3).sum()))\n")
    assert [code for _, code in lint_source(source)] == (["JNP102"] if reported else [])
