"""A real-world corpus: the published wheels of JAX libraries, fetched, never committed.

``python tests/benchmarks/corpus.py`` downloads the pinned wheels with
``pip download --no-deps`` into a cache folder outside the repository
(``$FLAKE8_JAXNP_CORPUS``, default ``~/.cache/flake8-jaxnp/corpus``), unpacks
their ``.py`` files and prints the folder with its size; ``--findings`` also
lints it with every rule selected (``--select JNP,JNP403``) and counts findings per rule. Versions are pinned
so that the figures in the README can be reproduced.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter
from pathlib import Path, PurePosixPath

from flake8_jaxnp.rules import RULES, SELECT_EVERY_RULE

PACKAGES = {
    "optax": "0.2.8",
    "flax": "0.12.8",
    "equinox": "0.13.8",
    "numpyro": "0.22.0",
    "diffrax": "0.7.2",
    "dm-haiku": "0.0.17",
    "chex": "0.1.92",
    "jaxopt": "0.8.5",
}
# Written last into each unpacked package folder, so a half-finished unpack is redone.
COMPLETE_MARKER = ".complete"


class CorpusUnavailable(RuntimeError):
    """The wheels could not be downloaded (no network, no registry)."""


def cache_dir():
    """Where the corpus lives: ``$FLAKE8_JAXNP_CORPUS`` or the user's cache folder."""
    override = os.environ.get("FLAKE8_JAXNP_CORPUS")
    if override:
        return Path(override).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "flake8-jaxnp" / "corpus"


def package_dir(root, name, version):
    return root / f"{name}-{version}"


def fetch(root=None):
    """Download and unpack every pinned package that is not already there; returns the root."""
    root = Path(root) if root is not None else cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    missing = {name: version for name, version in PACKAGES.items()
               if not (package_dir(root, name, version) / COMPLETE_MARKER).exists()}
    if not missing:
        return root
    with tempfile.TemporaryDirectory(prefix="jaxnp-wheels-") as download:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "--disable-pip-version-check", "--quiet", "--dest", download]
        command += [f"{name}=={version}" for name, version in missing.items()]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            last_line = (result.stderr.strip().splitlines() or ["pip download failed"])[-1]
            raise CorpusUnavailable(last_line)
        wheels = {_distribution(path): path for path in Path(download).glob("*.whl")}
        for name, version in missing.items():
            wheel = wheels.get(_normalise(name))
            if wheel is None:
                raise CorpusUnavailable(f"pip download produced no wheel for {name}=={version}")
            _unpack(wheel, package_dir(root, name, version))
    return root


def python_files(root=None):
    """Every unpacked ``.py`` file of the pinned packages, in a stable order."""
    root = Path(root) if root is not None else cache_dir()
    files = []
    for name, version in sorted(PACKAGES.items()):
        files.extend(sorted(package_dir(root, name, version).rglob("*.py")))
    return files


def count_lines(paths):
    total = 0
    for path in paths:
        with open(path, "rb") as handle:
            total += sum(1 for _ in handle)
    return total


def _unpack(wheel, target):
    """Extract the wheel's .py files (and nothing that escapes ``target``)."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.namelist():
            path = PurePosixPath(member)
            if path.suffix != ".py" or path.is_absolute() or ".." in path.parts:
                continue
            destination = target.joinpath(*path.parts)
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(archive.read(member))
    (target / COMPLETE_MARKER).write_text(wheel.name + "\n")


def _normalise(name):
    return name.lower().replace("-", "_").replace(".", "_")


def _distribution(wheel):
    return _normalise(wheel.name.split("-", 1)[0])


def sweep(root):
    """flake8 over the corpus with every rule selected (``--select JNP`` and the rules off by default,
    which it leaves off): (finding lines, stderr)."""
    result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", SELECT_EVERY_RULE, "."],
                            capture_output=True, text=True, cwd=root)
    return result.stdout.splitlines(), result.stderr


def print_findings_table(findings, files, lines):
    """A README row per rule: findings and findings per 1,000 lines."""
    counts = Counter(line.split()[1] for line in findings)
    print(f"\n{len(files)} files, {lines:,} lines, {len(findings)} findings "
          f"({1000 * len(findings) / lines:.2f} per 1,000 lines)\n")
    print("| rule | findings | per 1,000 lines |")
    print("| --- | ---: | ---: |")
    for code in sorted(set(RULES) | set(counts)):  # every rule gets a row, found or not
        print(f"| {code} | {counts[code]} | {1000 * counts[code] / lines:.3f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--findings", action="store_true",
                        help="also lint the corpus with --select JNP and count findings per rule")
    parser.add_argument("--show", action="store_true", help="with --findings: print every finding")
    options = parser.parse_args()
    try:
        root = fetch()
    except CorpusUnavailable as exc:
        print(f"corpus download failed: {exc}", file=sys.stderr)
        return 1
    files = python_files(root)
    lines = count_lines(files)
    print(f"{root}: {len(files)} files, {lines} lines")
    for name, version in sorted(PACKAGES.items()):
        print(f"  {name}=={version}")
    if options.findings:
        findings, errors = sweep(root)
        if options.show:
            print("\n".join(sorted(findings)))
        if errors:
            print(errors, file=sys.stderr)
        print_findings_table(findings, files, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
