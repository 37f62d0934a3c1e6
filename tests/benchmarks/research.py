"""Research code: findings per rule and per repository, and the plugin's cost, on a folder
made by ``shared/research/extract.sh`` (one folder per repository, never committed).

    python tests/benchmarks/research.py DIR [--select JNP] [--show] [--repeat N] [--judged FILE]

Findings come from flake8 with the default selection (``--select`` changes it), run in each
repository's folder; the time is ``bench.measure`` over the whole folder, with and without
the plugin, cold cache, alternated ``--repeat`` times.

The findings are compared with the judged ones (``research_judged.tsv`` beside this script:
path, line, code, verdict, reason, tab-separated, sorted, one finding a line, keyed by
path:line:code): the findings no one has judged yet (added) and the judged ones no longer
found (lost) are listed, so a change shows at once what it adds or loses, and each rule's
precision is computed from the verdicts of the judged findings still found. Verdicts:
``true`` (the pitfall is real), ``false`` (a false alarm) and ``formal`` (the rule's condition
holds, with no measurable effect); precision counts only ``true`` as correct.
"""
import argparse
import csv
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402 - the sibling script, not an installed module
import corpus  # noqa: E402


def findings(root, repositories, select):
    """flake8's finding lines over ``root`` (paths relative to it), each repository linted from
    its own folder, as its users run flake8 (a script outside the package then finds the
    package beside it, as an installed one would be)."""
    args = [sys.executable, "-m", "flake8", "--isolated", "--jaxnp-cache-dir", "", "--exit-zero", "--jobs", "2"]
    if select:
        args += ["--select", select]
    found = []
    for repository in repositories:
        result = subprocess.run([*args, "."], capture_output=True, text=True, cwd=root / repository)
        if result.returncode != 0:
            raise SystemExit(f"flake8 failed with {result.returncode} in {repository}: {result.stderr.strip()}")
        found += [f"./{repository}/{line.removeprefix('./')}" for line in result.stdout.splitlines() if " JNP" in line]
    return found


JUDGED = Path(__file__).resolve().with_name("research_judged.tsv")
VERDICTS = ("true", "formal", "false")
FIELDS = ("file", "line", "code", "verdict", "reason")


class JudgedFileError(ValueError):
    """A judged-findings file that does not say what it should: the message names the line."""


def parse_judged(text, name="judged file"):
    """{(path, line, code): (verdict, reason)} from the judged-findings file's text (a header row
    naming FIELDS, then one row per finding)."""
    rows = list(csv.reader(text.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE))
    if not rows or tuple(rows[0]) != FIELDS:
        raise JudgedFileError(f"{name}:1: the header must be {', '.join(FIELDS)} (tab-separated)")
    judged, keys = {}, []
    for number, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != len(FIELDS) or not row[1].isdigit() or row[3] not in VERDICTS:
            raise JudgedFileError(f"{name}:{number}: expected path, line, code, verdict ({'/'.join(VERDICTS)}) "
                                  f"and reason, tab-separated; got {row!r}")
        key = (row[0], int(row[1]), row[2])
        if key in judged:
            raise JudgedFileError(f"{name}:{number}: {key_text(key)} is judged twice")
        judged[key] = (row[3], row[4])
        keys.append(key)
    if keys != sorted(keys):
        raise JudgedFileError(f"{name}: the rows are not sorted by path, line and code")
    return judged


def format_judged(judged):
    """The file's text for ``judged`` ({key: (verdict, reason)}), sorted: parse_judged's inverse."""
    rows = ["\t".join(FIELDS)]
    rows += ["\t".join((path, str(line), code, *judged[(path, line, code)])) for path, line, code in sorted(judged)]
    return "\n".join(rows) + "\n"


def finding_key(line):
    """(path, line, code) of a finding line ``./repo/path:12:5: JNP101 message``."""
    location, code = line.split(" ", 2)[:2]
    path, number = location.split(":")[:2]
    return path.removeprefix("./"), int(number), code


def key_text(key):
    path, line, code = key
    return f"{path}:{line}:{code}"


def compare(found, judged):
    """(added: the keys of ``found`` lines no one judged, lost: the judged keys not found), sorted."""
    keys = {finding_key(line) for line in found}
    return sorted(keys - judged.keys()), sorted(judged.keys() - keys)


def precision_rows(found, judged):
    """(rule, true, formal, false) for each rule but JNP504 with a judged finding among ``found``,
    then the totals outside JNP504 and of JNP504 (the deprecations, judged apart)."""
    counts = {}
    for key in {finding_key(line) for line in found} & judged.keys():
        counts.setdefault(key[2], Counter())[judged[key][0]] += 1
    rows = [(code, *(counts[code][v] for v in VERDICTS)) for code in sorted(counts) if code != "JNP504"]
    for label, keep in (("outside JNP504", lambda code: code != "JNP504"), ("JNP504", lambda code: code == "JNP504")):
        rows.append((label, *(sum(counts[code][v] for code in counts if keep(code)) for v in VERDICTS)))
    return rows


def print_judged(found, judged, name):
    """What the findings add and lose against the judged file, and the precision per rule."""
    added, lost = compare(found, judged)
    by_key = {finding_key(line): line for line in found}
    print(f"\nJudged findings ({name}): {len(judged)} judged, {len(added)} added, {len(lost)} lost")
    for key in added:
        print(f"added (not judged): {by_key[key]}")
    for key in lost:
        print(f"lost (judged {judged[key][0]}): {key_text(key)} ({judged[key][1]})")
    print("\n| rule | judged and found | true | formal | false | precision |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for code, true, formal, false in precision_rows(found, judged):
        total = true + formal + false
        shown = f"{true / total:.2f}" if total else "-"
        print(f"| {code} | {total} | {true} | {formal} | {false} | {shown} |")


def print_repository_table(found, repositories):
    """A row per repository: its findings by rule."""
    per_repository = Counter((line.split("/", 2)[1], line.split()[1]) for line in found)
    print("\n| repository | findings | by rule |")
    print("| --- | ---: | --- |")
    for repository in repositories:
        codes = {code: n for (name, code), n in sorted(per_repository.items()) if name == repository}
        listed = ", ".join(f"{code} {n}" for code, n in codes.items()) or "-"
        print(f"| {repository} | {sum(codes.values())} | {listed} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="the folder extract.sh wrote")
    parser.add_argument("--select", default="", help="flake8's --select for the findings (default: flake8's)")
    parser.add_argument("--show", action="store_true", help="print every finding")
    parser.add_argument("--repeat", type=int, default=1, help="timed runs with and without the plugin (0: none)")
    parser.add_argument("--judged", type=Path, default=JUDGED, help="the judged findings (default: %(default)s)")
    options = parser.parse_args()
    if not options.root.is_dir():
        parser.error(f"{options.root} is not a folder")
    try:
        judged = parse_judged(options.judged.read_text(encoding="utf-8"), str(options.judged))
    except (OSError, JudgedFileError) as exc:
        parser.error(str(exc))
    repositories = sorted(path.name for path in options.root.iterdir() if path.is_dir())
    files = sorted(options.root.rglob("*.py"))
    lines = corpus.count_lines(files)
    found = findings(options.root, repositories, options.select)
    if options.show:
        print("\n".join(sorted(found)))
    corpus.print_findings_table(found, files, lines)
    print_repository_table(found, repositories)
    print_judged(found, judged, options.judged.name)
    if options.repeat:
        bench.check_launcher()
        print("\n| run | lines | without | with | time ratio | CPU ratio | CPU ratio within one process "
              "| lines/s with | memory without | memory with | memory ratio |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        bench.measure("research code, cold cache", [str(options.root)], lines, options.repeat, "cold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
