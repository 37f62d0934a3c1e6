"""Recall and precision on the pitfalls users reported (tests/reported/).

    python tests/benchmarks/reported.py [--show] [PATH ...]

Lints tests/reported/ with flake8 (``--isolated --select JNP``, no cache), as
research.py lints a corpus, and compares the findings with the ``# reported:
JNPxxx`` marks. PATHs (files or folders, default tests/reported/) restrict both to a
part of the set, e.g. the held-out round: ``tests/reported/round2_*.py``. Recall per
rule: marked lines where flake8 reports that rule / marked lines. Marks of a rule that
is off by default (reported only where a selection names it) and ``# reported: none``
(no rule covers the pitfall) are listed apart and left out of recall. Precision:
findings on a line marked with their rule / all findings; every other finding (in a
``case_ok_*`` look-alike, or another rule on a marked line) is a false alarm and is
listed.

    python tests/benchmarks/reported.py --runtime plain.json --runtime frameworks.json

also reads the JSON reports of the runtime mode run over the set
(``python -m flake8_jaxnp.confirm --format json --cache-dir '' tests/reported/...``;
the files under frameworks/ need Flax and Equinox) and says, for every mark, whether
a case recorded on its line an event of a kind that confirms the marked rule (the
catalogue's evidence), whatever the linter found there.
"""
import json
import argparse
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import reported_marks  # noqa: E402 - tests/reported_marks.py, beside the suites

from flake8_jaxnp.rules import OFF_BY_DEFAULT, RULES  # noqa: E402


def findings(paths):
    """{(path relative to ROOT, line, code)} from one flake8 run over ``paths``."""
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", "JNP", "--jaxnp-cache-dir", "",
         "--format", "%(path)s\t%(row)d\t%(code)s\t%(text)s", *map(str, paths)],
        capture_output=True, text=True, cwd=ROOT,
    )
    if result.returncode not in (0, 1):
        raise SystemExit(f"flake8 failed with {result.returncode}: {result.stderr.strip()}")
    found = {}
    for line in result.stdout.splitlines():
        path, row, code, text = line.split("\t", 3)
        found[(str(Path(path).resolve().relative_to(ROOT)), int(row), code)] = text
    return found


def case_files(paths):
    """The case files under ``paths`` (files, or folders searched recursively)."""
    return sorted({file for path in paths
                   for file in (reported_marks.case_files(path) if path.is_dir() else [path])})


def expected(paths):
    """{(path, line, code)} marked in ``paths``."""
    return {(str(path.relative_to(ROOT)), line, code)
            for path in case_files(paths) for line, code, _ in reported_marks.marks(path)}


def measure(paths):
    marked, found = expected(paths), findings(paths)
    counted = {key for key in marked if key[2] not in OFF_BY_DEFAULT and key[2] != reported_marks.NO_RULE}
    set_aside = sorted(marked - counted)
    hits = counted & found.keys()
    false_alarms = sorted(key for key in found if key not in marked)
    return marked, found, counted, hits, set_aside, false_alarms


def _relative(path):
    path = Path(path)
    return str((path if path.is_absolute() else ROOT / path).resolve().relative_to(ROOT))


def runtime_evidence(reports):
    """{(path relative to ROOT, line): {codes the runtime mode confirmed or saw missed there, and the
    kinds of the events its cases recorded there}} from its JSON reports."""
    seen = {}
    for report in reports:
        data = json.loads(Path(report).read_text(encoding="utf-8"))
        for row in data["results"]:
            if row["verdict"] in ("confirmed", "missed"):
                seen.setdefault((_relative(row["path"]), row["line"]), set()).update(row["codes"])
        for case in data["cases"]:
            for event in case.get("events", []):
                seen.setdefault((_relative(event["path"]), event["line"]), set()).add(event["kind"])
    return seen


def print_runtime(marked, seen):
    """A row per mark: what the runtime mode saw on its line, and whether that confirms the rule
    (a confirmed or missed row of the rule, or an event of a kind the catalogue says confirms it)."""
    print("\n| mark | runtime mode on the line | confirms the rule |")
    print("| --- | --- | --- |")
    tally = Counter()
    for path, line, code in sorted(marked):
        here = seen.get((path, line), set())
        if code == reported_marks.NO_RULE:
            verdict = "pitfall seen" if here else "not observed"
        else:
            verdict = "yes" if code in here or here & set(RULES[code].evidence) else (
                "other" if here else "not observed")
        tally[verdict] += 1
        print(f"| {path}:{line} {code} | {', '.join(sorted(here)) or '-'} | {verdict} |")
    print("\nruntime: " + ", ".join(f"{n} {verdict}" for verdict, n in sorted(tally.items())))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", type=Path, nargs="*", default=[reported_marks.REPORTED],
                        help="case files or folders (default: the whole set)")
    parser.add_argument("--show", action="store_true", help="print every finding")
    parser.add_argument("--runtime", type=Path, action="append", default=[],
                        help="a JSON report of the runtime mode over the set (repeatable)")
    options = parser.parse_args()
    marked, found, counted, hits, set_aside, false_alarms = measure([path.resolve() for path in options.paths])
    per_rule, per_rule_hit = Counter(k[2] for k in counted), Counter(k[2] for k in hits)
    print("| rule | reported | found | recall |")
    print("| --- | ---: | ---: | ---: |")
    for code in sorted(per_rule):
        print(f"| {code} | {per_rule[code]} | {per_rule_hit[code]} | {per_rule_hit[code] / per_rule[code]:.2f} |")
    print(f"| all | {len(counted)} | {len(hits)} | {len(hits) / len(counted):.2f} |")
    correct = len(found) - len(false_alarms)
    print(f"\nprecision: {correct} of {len(found)} findings on a line reported with their rule"
          f" ({correct / len(found):.2f}); {len(false_alarms)} false alarms")
    for key in false_alarms:
        print(f"false alarm: {key[0]}:{key[1]}: {key[2]} {found[key]}")
    for key in sorted(counted - hits):
        print(f"missed: {key[0]}:{key[1]}: {key[2]}")
    for key in set_aside:
        why = "no rule" if key[2] == reported_marks.NO_RULE else "off by default"
        state = "found" if key in found else "not found"
        print(f"left out of recall ({why}, {state}): {key[0]}:{key[1]}: {key[2]}")
    if options.runtime:
        print_runtime(marked, runtime_evidence(options.runtime))
    if options.show:
        for key in sorted(found):
            print(f"finding: {key[0]}:{key[1]}: {key[2]} {found[key]}")


if __name__ == "__main__":
    main()
