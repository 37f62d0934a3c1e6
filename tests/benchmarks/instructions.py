"""An editor's save counted in instructions, which a shared machine's load does not move.

    python tests/benchmarks/instructions.py FILE [--no-cache]

Runs ``bench.py``'s launcher with and without the plugin under ``valgrind --tool=callgrind``
(``flake8 --stdin-display-name FILE - < FILE``, ``PYTHONHASHSEED=0``, bytecode compiled as in
``bench.py``) and prints both instruction totals and their ratio. The plugin's cache is warm
with the file's kept findings dropped (the file is analysed again, as after an edit), or off
with ``--no-cache``. Needs valgrind; a run takes about 50 times as long as without it.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402 - the sibling script, not an installed module


def instructions(mode, path, cache):
    """The instructions (callgrind's ``Ir``) of one flake8 run on ``path`` fed on stdin."""
    plugin_args = [] if mode == "without" else ["--jaxnp-cache-dir", cache]
    command = [sys.executable, "-c", bench.LAUNCHER, mode, *bench.FLAKE8_ARGS, *plugin_args,
               "--stdin-display-name", str(path), "-"]
    env = dict(bench.CHILD_ENV, PYTHONHASHSEED="0")
    with open(path, "rb") as stdin:
        result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                                stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    found = re.search(r"Collected : (\d+)", result.stderr)
    if result.returncode != 0 or found is None:
        raise SystemExit(f"valgrind ({mode}) failed:\n{result.stderr[-2000:]}")
    return int(found.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="the file an editor saves")
    parser.add_argument("--no-cache", action="store_true", help="the plugin's cache off ('')")
    options = parser.parse_args()
    bench.check_launcher()  # also the warm-up run that writes the bytecode cache
    with tempfile.TemporaryDirectory() as cache:
        cache = "" if options.no_cache else cache
        if cache:
            bench.run_flake8("with", ["--stdin-display-name", str(options.file), "-"], stdin_path=options.file,
                             cache=cache)  # fills the cache
            for kept in Path(cache).glob(f"{bench.PREFIX}*.json"):
                kept.unlink()
        without = instructions("without", options.file, cache)
        with_plugin = instructions("with", options.file, cache)
    print(f"{options.file} ({'no cache' if options.no_cache else 'warm cache'}): without {without:,}, "
          f"with {with_plugin:,} instructions, ratio {with_plugin / without:.3f} (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
