"""flake8 run the ways users run it (serial, parallel, through stdin), for the tests that compare them."""
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from flake8_jaxnp.rules import SELECT_EVERY_RULE

FORMAT = "%(path)s:%(row)d:%(col)d: %(code)s %(text)s"


def flake8(args, cwd, stdin=None):
    """flake8's output lines for ``args`` (JNP findings only, every rule)."""
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", SELECT_EVERY_RULE, "--format", FORMAT, *args],
        capture_output=True, cwd=cwd, input=stdin,
    )
    errors = result.stderr.decode(errors="replace")
    assert result.returncode in (0, 1), errors
    assert "Traceback" not in errors and "failed during execution" not in errors, errors
    return sorted(result.stdout.decode().splitlines())


def serial_and_parallel(root, paths):
    """(``-j 1`` output, ``-j 2`` output) for ``paths`` relative to ``root``."""
    names = [str(Path(p).relative_to(root)) for p in paths]
    return flake8(["--jobs", "1", *names], root), flake8(["--jobs", "2", *names], root)


def stdin_mismatches(root, paths, serial_output, workers=2):
    """Files whose findings through stdin differ from their part of ``serial_output``."""
    by_file = {}
    for line in serial_output:
        by_file.setdefault(line.split(":", 1)[0], []).append(line)

    def compare(path):
        name = str(Path(path).relative_to(root))
        piped = flake8(["--stdin-display-name", name, "-"], root, stdin=Path(path).read_bytes())
        return None if piped == by_file.get(name, []) else (name, piped, by_file.get(name, []))

    with ThreadPoolExecutor(workers) as pool:
        return [m for m in pool.map(compare, paths) if m is not None]
