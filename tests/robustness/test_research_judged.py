"""The judged-findings file of tests/benchmarks/research.py: its parser, and what a run adds,
loses and scores against it (a tiny synthetic set; no corpus needed)."""
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "benchmarks"))
import research  # noqa: E402 - the benchmark folder's script

HEADER = "file\tline\tcode\tverdict\treason\n"
JUDGED = HEADER + ("r/a.py\t3\tJNP101\ttrue\tconverts each step\n"
                   "r/a.py\t12\tJNP303\tfalse\tbranch never traced\n"
                   "r/b.py\t7\tJNP504\ttrue\tremoved API\n"
                   "r/b.py\t9\tJNP601\tformal\tdraw then split\n")
FOUND = ["./r/a.py:3:5: JNP101 np.asarray(x) copies ...",
         "./r/a.py:3:9: JNP101 np.asarray(y) copies ...",  # another column of a judged line: the same key
         "./r/b.py:7:1: JNP504 jax.tree_leaves raises ...",
         "./r/b.py:9:13: JNP601 'key' was already consumed ...",
         "./r/c.py:4:2: JNP102 float(loss) turns ..."]


def test_the_judged_file_round_trips():
    judged = research.parse_judged(JUDGED)
    assert judged[("r/a.py", 12, "JNP303")] == ("false", "branch never traced")
    assert research.format_judged(judged) == JUDGED


def test_a_run_lists_what_it_adds_and_loses():
    added, lost = research.compare(FOUND, research.parse_judged(JUDGED))
    assert added == [("r/c.py", 4, "JNP102")]
    assert lost == [("r/a.py", 12, "JNP303")]


def test_precision_counts_the_verdicts_of_the_judged_findings_found():
    rows = research.precision_rows(FOUND, research.parse_judged(JUDGED))
    # rule, true, formal, false: the lost JNP303 and the unjudged JNP102 count nowhere
    assert rows == [("JNP101", 1, 0, 0), ("JNP601", 0, 1, 0), ("outside JNP504", 1, 1, 0), ("JNP504", 1, 0, 0)]


@pytest.mark.parametrize("text, says", [
    ("file\tline\tcode\n", "header"),
    (HEADER + "r/a.py\t3\tJNP101\tmaybe\twhy\n", ":2:"),
    (HEADER + "r/a.py\tthree\tJNP101\ttrue\twhy\n", ":2:"),
    (HEADER + "r/a.py\t3\tJNP101\ttrue\n", ":2:"),
    (HEADER + "r/a.py\t3\tJNP101\ttrue\twhy\nr/a.py\t3\tJNP101\tfalse\twhy not\n", "judged twice"),
    (HEADER + "r/b.py\t3\tJNP101\ttrue\twhy\nr/a.py\t3\tJNP101\ttrue\twhy\n", "not sorted"),
])
def test_a_malformed_file_is_refused_with_the_place(text, says):
    with pytest.raises(research.JudgedFileError, match=says):
        research.parse_judged(text)


def test_the_committed_file_parses():
    judged = research.parse_judged(research.JUDGED.read_text(encoding="utf-8"))
    assert judged  # sorted, one verdict per finding
