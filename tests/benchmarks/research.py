"""Research code: findings per rule and per repository, and the plugin's cost, on a folder
made by ``shared/research/extract.sh`` (one folder per repository, never committed).

    python tests/benchmarks/research.py DIR [--select JNP] [--show] [--repeat N]

Findings come from flake8 with the default selection (``--select`` changes it), run in each
repository's folder; the time is ``bench.measure`` over the whole folder, with and without
the plugin, cold cache, alternated ``--repeat`` times.
"""
import argparse
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
    options = parser.parse_args()
    if not options.root.is_dir():
        parser.error(f"{options.root} is not a folder")
    repositories = sorted(path.name for path in options.root.iterdir() if path.is_dir())
    files = sorted(options.root.rglob("*.py"))
    lines = corpus.count_lines(files)
    found = findings(options.root, repositories, options.select)
    if options.show:
        print("\n".join(sorted(found)))
    corpus.print_findings_table(found, files, lines)
    print_repository_table(found, repositories)
    if options.repeat:
        bench.check_launcher()
        print("\n| run | lines | without | with | time ratio | CPU ratio | CPU ratio within one process "
              "| lines/s with | memory without | memory with | memory ratio |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        bench.measure("research code, cold cache", [str(options.root)], lines, options.repeat, "cold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
